import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { hosts } from '../../db/schema';
import { parseEnv } from '../../env';
import { createHost, createProvider } from '../../seed/factories';
import type { TestApp } from '../../test/app';
import { agentCalls } from '../../test/hosts';
import { setupTestApp } from '../../test/suite';

/**
 * HOST_OFFLINE_AFTER_MS: how long a host may be silent before the worker marks it offline
 * (90 s unless set; the browser tests' server sets 15 s). Manual clock.
 */
let t: TestApp;
setupTestApp({ env: { HOST_OFFLINE_AFTER_MS: '15000' } }, (app) => {
  t = app;
});

describe('the offline limit', () => {
  it('marks a host offline once silent for the configured time, not before', async () => {
    const providerId = (await createProvider(t.database.db, {})).id;
    const host = await createHost(t.database.db, { providerId, lastHeartbeatAt: t.clock.now() });
    const calls = agentCalls(t, host.credential, '203.0.113.30');
    expect((await calls.heartbeat()).statusCode).toBe(200);
    const offlineSince = async () =>
      (await t.database.db.select().from(hosts).where(eq(hosts.id, host.id)))[0]?.offlineSince;

    // The server up throughout: its worker passes every second.
    await t.passTime(14_000, 1_000);
    expect(await offlineSince()).toBeNull();
    await t.passTime(2_000, 1_000);
    expect(await offlineSince()).not.toBeNull();
    // Its next heartbeat brings it back.
    expect((await calls.heartbeat()).statusCode).toBe(200);
    expect(await offlineSince()).toBeNull();
  });

  it('is 90 s unless set, and never longer (hosts are shown offline after 90 s regardless)', () => {
    expect(parseEnv({}).HOST_OFFLINE_AFTER_MS).toBe(90_000);
    expect(() => parseEnv({ HOST_OFFLINE_AFTER_MS: '120000' })).toThrow(/HOST_OFFLINE_AFTER_MS/);
  });
});
