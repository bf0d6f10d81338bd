/**
 * `BENCH_ONLY=page-slots` (no database): what filling a marketplace page's slots costs the
 * event loop (issue 43): `withMachines` (presenter.ts) over a 50-listing page as page-query.ts
 * writes it, without machines (as the bench's seeded listings) and with a demo machine per
 * listing (as the demo marketplace), a page of listings on providers' hosts through every fill
 * the listings service runs (uptime, GPU share, kinds, machine: 50 listings on 10 hosts), and
 * the search for reliability slots a page statement that measured its listings' reliability no
 * longer needs (`reliabilitySlotIds`).
 */

import type { HostMachineRow } from '../../server/modules/listings/gpu-share';
import { listingShare, shareView } from '../../server/modules/listings/gpu-share';
import { reliabilitySlotIds } from '../../server/modules/listings/page-query';
import {
  withGpuShares,
  withHostUptime,
  withKinds,
  withMachines,
} from '../../server/modules/listings/presenter';
import type { HostReadiness } from '../../shared/contracts/hosts';

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

/** A listing's stored JSON (market_json) as the seed's are, without its closing brace. */
const stored = (i: number, host: string | null) =>
  JSON.stringify({
    id: i,
    providerId: 17,
    model: 'H100',
    memory: '80GB',
    cudaCores: 16896,
    tensorCores: 528,
    location: 'City 42',
    bandwidth: '10 Gbps',
    hourlyRate: '2.50',
    dailyRate: '60.00',
    status: 'available',
    availableCount: 1000,
    totalCount: 1000,
    specifications: '{"bandwidth":"10 Gbps","pcieLanes":"16x","cooling":"Air Cooled"}',
    isDemoHost: host === null,
    hostStatus: host === null ? 'demo' : 'online',
    provider: {
      id: 17,
      companyName: 'Bench Provider 17',
      location: 'City 17',
      isVerified: true,
      reputation: 4.2,
    },
  }).slice(0, -1);

/** 50 demo listings with the slots the statement writes. */
function page(demo: boolean): string {
  return `[${Array.from(
    { length: 50 },
    (_, i) =>
      `${stored(i, null)},"hostId":null,"hostUptimePercent":null,"gpuShare":${demo ? `{"demo":${machine(i)}}` : 'null'},"kinds":["vm","container"],"gpuCount":${1 + (i % 4)},"gpuMemoryGb":80,"pricePerGpuHour":"2.50","reliability":{"uptimePercent":null,"windowDays":30,"observedDays":0},"machineOf":[${1 + (i % 4)},${demo ? machine(i) : 'null'}]}`,
  ).join(',\n')}]`;
}

const HOSTS = Array.from({ length: 10 }, (_, i) => `6f1c1d1e-1111-4222-8333-9444455556${10 + i}`);
const machineRow = JSON.parse(machine(0)) as HostMachineRow;
const kind = { offered: true, ready: true, problems: [], readyGpus: [0, 1, 2, 3, 4, 5, 6, 7] };
const readiness: HostReadiness = {
  ready: true,
  virtualisation: 'hardware',
  problems: [],
  notes: [],
  gpus: Array.from({ length: 8 }, (_, index) => ({ index, ready: true, problems: [] })),
  readyGpus: kind.readyGpus,
  kinds: { vm: kind, container: kind },
};

/** 50 listings on 10 hosts, with the slots the statement writes for a listing on a host. */
function hostPage(): string {
  return `[${Array.from({ length: 50 }, (_, i) => {
    const id = HOSTS[i % HOSTS.length] as string;
    const host = JSON.stringify(id);
    return `${stored(i, id)},"hostId":${host},"hostUptimePercent":null,"gpuShare":{"of":${host}},"kinds":{"kindsOf":${host},"gpus":[${i % 8}]},"gpuCount":1,"gpuMemoryGb":80,"pricePerGpuHour":"2.50","reliability":{"uptimePercent":99.5,"windowDays":30,"observedDays":30},"machineOf":[1,{"of":${host}}]}`;
  }).join(',\n')}]`;
}

/** What listingsService.page fills a host page with. */
function fillHostPage(json: string): string {
  const uptime = new Map(HOSTS.map((id, i) => [id, 99 + i / 10]));
  const shares = new Map(
    HOSTS.map((id) => [id, shareView(listingShare({ hostId: id, isDemoHost: false }, machineRow))]),
  );
  const hosts = new Map(HOSTS.map((id) => [id, { online: true, readiness }]));
  const machines = new Map(HOSTS.map((id) => [id, machineRow]));
  return withMachines(
    withKinds(withGpuShares(withHostUptime(json, uptime), shares), hosts),
    machines,
  );
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
  const hosted = hostPage();
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
      `hosts' listings, every fill (${fmt(hosted.length / 1024, 1)} KiB) ${fmt(
        micros(count, () => fillHostPage(hosted)),
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
