import { describe, expect, it } from 'vitest';
import type { TestApp } from '../test/app';
import { withTestApp } from '../test/suite';
import { seedDemoData } from './seed';

let t: TestApp;
withTestApp({}, (app) => {
  t = app;
});

describe('the demo seed', () => {
  it('sends no e-mail when its rentals become ready', async () => {
    const report = await seedDemoData(t.database.db, t.app.deps, t.clock.now());
    expect(report.createdRentals).toBeGreaterThan(0);
    t.clock.advance(5 * 60_000);
    await t.app.deps.worker.runOnce(t.clock.now());
    // Let the fire-and-forget alert sends settle.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(t.mailer.sent).toEqual([]);
  });
});
