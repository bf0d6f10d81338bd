import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { hostOutages, hosts } from '../../db/schema';
import { createHost } from '../../seed/factories';
import type { TestApp } from '../../test/app';
import { agentCalls } from '../../test/hosts';
import { setupTestApp, type World } from '../../test/suite';

/**
 * The server's outage is not the host's (issue 39, part 2). A server stopped for five minutes
 * heard no heartbeat meanwhile; when it comes back its hosts get a full grace period (90 s)
 * before any is marked offline — no host-offline e-mail, no outage, no loss of uptime for
 * time the server itself was down. A host that stays silent after the server's return goes
 * offline 90 s later, its outage starting at the server's return, not at its last heartbeat
 * before the server stopped. Manual clock: `clock.advance` alone is a server away that long,
 * `passTime` a server up throughout.
 */
let t: TestApp;
let w: World;
setupTestApp({}, (app, world) => {
  t = app;
  w = world;
});

let hostsMade = 0;
async function enrolledHost() {
  const provider = await w.provider();
  hostsMade += 1;
  const host = await createHost(t.database.db, {
    providerId: provider.providerId,
    lastHeartbeatAt: t.clock.now(),
  });
  const calls = agentCalls(t, host.credential, `203.0.113.${50 + hostsMade}`);
  const state = async () =>
    (await t.database.db.select().from(hosts).where(eq(hosts.id, host.id)))[0];
  const outages = () =>
    t.database.db.select().from(hostOutages).where(eq(hostOutages.hostId, host.id));
  return { host, provider, calls, state, outages };
}

const offlineMails = () => t.mailer.sent.filter((m) => m.subject.includes('is offline'));

describe('a server stopped for five minutes and restarted', () => {
  it('marks no host offline, records no outage and sends no e-mail for its own downtime', async () => {
    const a = await enrolledHost();
    const b = await enrolledHost();
    // Up: both hosts heartbeat every 30 s for two minutes.
    for (let i = 0; i < 4; i += 1) {
      expect((await a.calls.heartbeat()).statusCode).toBe(200);
      expect((await b.calls.heartbeat()).statusCode).toBe(200);
      await t.passTime(30_000);
    }
    const mailsBefore = offlineMails().length;
    // Down for five minutes: no worker, no heartbeat processed (the agents' calls fail).
    t.clock.advance(5 * 60_000);
    // Back: the first pass sees every host silent for more than 5 minutes, and marks none.
    await t.app.deps.worker.runOnce(t.clock.now());
    expect((await a.state())?.offlineSince).toBeNull();
    expect((await b.state())?.offlineSince).toBeNull();
    // Their agents retry within their 30 s interval; the server stays up.
    await t.passTime(20_000);
    expect((await a.calls.heartbeat()).statusCode).toBe(200);
    expect((await b.calls.heartbeat()).statusCode).toBe(200);
    for (let i = 0; i < 6; i += 1) {
      await t.passTime(30_000);
      expect((await a.calls.heartbeat()).statusCode).toBe(200);
      expect((await b.calls.heartbeat()).statusCode).toBe(200);
    }
    expect((await a.state())?.offlineSince).toBeNull();
    expect(await a.outages()).toEqual([]);
    expect(await b.outages()).toEqual([]);
    await t.passTime(1_000);
    expect(offlineMails().length).toBe(mailsBefore);
    // Uptime on the provider's dashboard: untouched by the server's downtime.
    const view = await t.request({
      method: 'GET',
      url: '/api/providers/hosts',
      cookie: a.provider.cookie,
    });
    expect(view.statusCode).toBe(200);
    const listed = (
      view.json().hosts as {
        id: string;
        uptimePercent: number | null;
        downtime: { minutes: number };
      }[]
    ).find((h) => h.id === a.host.id);
    expect(listed).toMatchObject({ uptimePercent: 100, downtime: { minutes: 0 } });
  });

  it('a host still silent after the return goes offline 90 s later, its outage from the return', async () => {
    const quiet = await enrolledHost();
    expect((await quiet.calls.heartbeat()).statusCode).toBe(200);
    await t.passTime(30_000);
    t.clock.advance(5 * 60_000); // the server is down
    const back = t.clock.now();
    await t.app.deps.worker.runOnce(back);
    await t.passTime(80_000);
    expect((await quiet.state())?.offlineSince).toBeNull();
    await t.passTime(20_000);
    expect((await quiet.state())?.offlineSince).not.toBeNull();
    const [outage] = await quiet.outages();
    // From the server's return: the five minutes it was down are not the host's.
    expect(outage?.startedAt.getTime()).toBe(back.getTime());
  });

  it('a beat stored in the future (the demo seed ran its worker ahead, or a clock went back) is not believed', async () => {
    const quiet = await enrolledHost();
    expect((await quiet.calls.heartbeat()).statusCode).toBe(200);
    await t.app.deps.worker.runOnce(new Date(t.clock.now().getTime() + 3_600_000));
    // Now, not an hour on: silent for 100 s with the server up, the host is offline.
    await t.passTime(100_000);
    expect((await quiet.state())?.offlineSince).not.toBeNull();
  });
});
