/**
 * `BENCH_ONLY=page-slots` (no database): what filling a marketplace page's slots costs the
 * event loop (issue 43): `withMachines` (presenter.ts) over a 50-listing page as page-query.ts
 * writes it, without machines (as the bench's seeded listings) and with a demo machine per
 * listing (as the demo marketplace), and the search for reliability slots a page statement
 * that measured its listings' reliability no longer needs (`reliabilitySlotIds`).
 */

import { reliabilitySlotIds } from '../../server/modules/listings/page-query';
import { withMachines } from '../../server/modules/listings/presenter';

/** A machine as `demo_machine` holds it: three distinct ones across the page. */
const machine = (i: number) =>
  JSON.stringify({
    cores: 64 + (i % 3) * 32,
    totalBytes: 549_755_813_888,
    guestBytes: 515_396_075_520,
    gpuCount: 8,
    diskBytes: 3_840_000_000_000,
    driverVersion: '550.54.15',
    cudaVersion: '12.4',
  });

/** 50 listings of about the stored JSON's length, with the slots the statement writes. */
function page(demo: boolean): string {
  const stored = `"model":"H100","location":"${'x'.repeat(440)}"`;
  return `[${Array.from(
    { length: 50 },
    (_, i) =>
      `{"id":${i},${stored},"gpuShare":${demo ? `{"demo":${machine(i)}}` : 'null'},"kinds":[],"gpuCount":${1 + (i % 4)},"reliability":{"uptimePercent":null,"windowDays":30,"observedDays":0},"machineOf":[${1 + (i % 4)},${demo ? machine(i) : 'null'}]}`,
  ).join(',\n')}]`;
}

function micros(count: number, run: () => unknown): number {
  const started = performance.now();
  for (let i = 0; i < count; i += 1) run();
  return ((performance.now() - started) * 1000) / count;
}

export function benchPageSlots(fmt: (n: number, digits?: number) => string): void {
  const count = 5_000;
  const none = page(false);
  const demo = page(true);
  const machines = new Map();
  console.log(
    `\nmarketplace page slots, 50 listings, µs a page (${fmt(count)} pages each, 3 rounds)`,
  );
  for (let round = 1; round <= 3; round += 1) {
    const figures = [
      `withMachines, no machines (${fmt(none.length / 1024, 1)} KiB) ${fmt(
        micros(count, () => withMachines(none, machines)),
        1,
      )}`,
      `withMachines, demo machines (${fmt(demo.length / 1024, 1)} KiB) ${fmt(
        micros(count, () => withMachines(demo, machines)),
        1,
      )}`,
      `reliability slots searched ${fmt(
        micros(count, () => reliabilitySlotIds(none)),
        1,
      )}`,
    ];
    console.log(`  round ${round}: ${figures.join('; ')}`);
  }
}
