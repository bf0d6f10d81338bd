import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../../shared/contracts/settings';
import { createTestApp, type TestApp } from '../../test/app';
import { world } from '../../test/world';

let t: TestApp;
let w: ReturnType<typeof world>;
beforeAll(async () => {
  t = await createTestApp({ env: { DEMO_PROVISIONING_DELAY_MS: '1000' } });
  w = world(t);
});
afterAll(async () => {
  await t.close();
});

async function mailsTo(email: string, settle = 200): Promise<string[]> {
  // The event log's mail reader sends them: read what is there, then let it settle.
  await t.app.deps.eventLog.drain();
  await new Promise((resolve) => setTimeout(resolve, settle));
  return t.mailer.sent.filter((m) => m.to === email).map((m) => m.subject);
}

describe('instance alerts', () => {
  it('e-mails when an instance is ready and when it ends, if the settings say so', async () => {
    const email = `alerts-${Date.now()}@example.test`;
    const { cookie } = await t.signIn({ email, credits: '50.00' });
    const listing = await w.listing({ hourlyRate: '1.00' });
    const rental = (
      await t.request({
        method: 'POST',
        url: '/api/rentals',
        payload: w.rentBody(listing, 1),
        cookie,
      })
    ).json();
    t.clock.advance(2_000);
    await t.app.deps.worker.runOnce(t.clock.now());
    t.clock.advance(3_600_000);
    await t.app.deps.worker.runOnce(t.clock.now());
    expect(await mailsTo(email)).toEqual([
      `Your RentGPU instance is ready (rental #${rental.id})`,
      `Your RentGPU rental #${rental.id} has ended`,
    ]);
  });

  it('sends nothing when instance alerts are off', async () => {
    const email = `quiet-${Date.now()}@example.test`;
    const { userId, cookie } = await t.signIn({ email, credits: '50.00' });
    const off = structuredClone(DEFAULT_SETTINGS);
    off.notifications.instanceAlerts = false;
    await t.request({
      method: 'PATCH',
      url: `/api/users/${userId}/settings`,
      payload: off,
      cookie,
    });
    const listing = await w.listing({ hourlyRate: '1.00' });
    await t.request({
      method: 'POST',
      url: '/api/rentals',
      payload: w.rentBody(listing, 1),
      cookie,
    });
    t.clock.advance(2_000);
    await t.app.deps.worker.runOnce(t.clock.now());
    expect(await mailsTo(email)).toEqual([]);
  });
});
