import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  AGENT_OFFLINE_AFTER_MS,
  type HeartbeatRequest,
  heartbeatResponse,
  type InstanceStatus,
} from '../../../shared/contracts/agent-protocol';
import { hostOutages, hosts, instances, sshKeys } from '../../db/schema';
import { randomToken, sha256 } from '../../lib/crypto';
import { createHost, createProvider } from '../../seed/factories';
import type { TestApp } from '../../test/app';
import { agentCalls, heartbeatBody } from '../../test/hosts';
import { setupTestApp, type World } from '../../test/suite';
import { UNREACHABLE_FAIL_AFTER_MS } from '../../worker/jobs';

/** The agent protocol's server side, driven as an agent would (docs/decisions/008). */

let t: TestApp;
let w: World;
setupTestApp({ env: { PROVISIONING_TIMEOUT_MS: '600000' } }, (app, appWorld) => {
  t = app;
  w = appWorld;
});

const PUBLIC_KEY =
  'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl renter@laptop';

function inventory(instances: InstanceStatus[] = []): HeartbeatRequest {
  return heartbeatBody({ instances });
}

/** The address the test hosts' agents call from (one of their own, docs/decisions/013). */
const AGENT_ADDRESS = '203.0.113.7';
/** The public name the test hosts' provider set. */
const PUBLIC_HOST = 'gpu-box-1.example.net';

async function agentPost(
  url: string,
  credential: string | null,
  payload: unknown,
  from = AGENT_ADDRESS,
) {
  return t.request({
    method: 'POST',
    url,
    payload: payload as Record<string, unknown>,
    headers: credential ? { authorization: `Bearer ${credential}` } : {},
    remoteAddress: from,
  });
}

const heartbeat = async (credential: string, statuses: InstanceStatus[] = []) => {
  const res = await agentPost('/api/v1/agents/heartbeat', credential, inventory(statuses));
  expect(res.statusCode).toBe(200);
  return heartbeatResponse.parse(res.json());
};

const report = (credential: string, id: number, body: Partial<InstanceStatus>) =>
  agentCalls(t, credential, AGENT_ADDRESS).report(id, body);

/** A provider with an enrolled, heartbeating host and a listing of its two GPUs. */
async function hostWithListing(hourlyRate = '2.00', withOwner = false) {
  const providerId = withOwner
    ? (await w.provider()).providerId
    : (await createProvider(t.database.db, {})).id;
  const host = await createHost(t.database.db, {
    providerId,
    lastHeartbeatAt: t.clock.now(),
    publicHost: PUBLIC_HOST,
  });
  const listing = await w.listing({ providerId, hostId: host.id, hourlyRate, totalCount: 2 });
  return { providerId, host, listing };
}

async function listingView(listing: { id: number; providerId: number }) {
  const res = await t.request({
    method: 'GET',
    url: `/api/gpu-listings?providerId=${listing.providerId}`,
  });
  return (res.json() as { id: number; hostUptimePercent: number | null }[]).find(
    (l) => l.id === listing.id,
  );
}

async function renterWithKey(credits = '100.00') {
  const renter = await t.signIn({ credits });
  await t.database.db.insert(sshKeys).values({
    userId: renter.userId,
    name: 'laptop',
    keyType: 'ssh-ed25519',
    publicKey: PUBLIC_KEY,
    fingerprint: `SHA256:${randomToken(8)}`,
  });
  return renter;
}

describe('enrolment', () => {
  async function hostAwaiting(expiresInMs = 3_600_000) {
    const providerId = (await createProvider(t.database.db, {})).id;
    const token = randomToken(32);
    const id = crypto.randomUUID();
    await t.database.db.insert(hosts).values({
      id,
      providerId,
      name: 'new box',
      enrolTokenHash: sha256(token),
      enrolTokenExpiresAt: new Date(t.clock.now().getTime() + expiresInMs),
    });
    return { id, token };
  }
  const enrol = (token: string) =>
    agentPost('/api/v1/agents/enroll', null, {
      token,
      hostname: 'gpu-box-1',
      agentVersion: '0.1.0',
    });

  it('spends the token once for a credential of which only a hash is kept', async () => {
    const { id, token } = await hostAwaiting();
    const res = await enrol(token);
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ agentId: id, heartbeatIntervalMs: 30_000 });
    expect(body.credential).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [row] = await t.database.db.select().from(hosts).where(eq(hosts.id, id));
    expect(row?.credentialHash).toBe(sha256(body.credential));
    expect(JSON.stringify(row)).not.toContain(body.credential);

    // The answer was lost: the agent enrols again before its first heartbeat and gets a new
    // credential; the first one is dead.
    const retry = await enrol(token);
    expect(retry.statusCode).toBe(201);
    const credential = retry.json().credential as string;
    expect(credential).not.toBe(body.credential);
    const stale = await agentPost('/api/v1/agents/heartbeat', body.credential, inventory());
    expect(stale.statusCode).toBe(401);

    // From the first heartbeat on the token is spent.
    await heartbeat(credential);
    const [spent] = await t.database.db.select().from(hosts).where(eq(hosts.id, id));
    expect(spent?.enrolTokenHash).toBeNull();
    const again = await enrol(token);
    expect(again.statusCode).toBe(401);
    expect(again.json().error).toMatchObject({ code: 'UNAUTHENTICATED', details: {} });
  });

  it('refuses an expired or unknown token', async () => {
    const { token } = await hostAwaiting(1000);
    t.clock.advance(2000);
    expect((await enrol(token)).statusCode).toBe(401);
    expect((await enrol(randomToken(32))).statusCode).toBe(401);
    expect((await enrol('')).statusCode).toBe(400);
  });

  it('refuses a missing, forged or revoked credential with the error body', async () => {
    const { host } = await hostWithListing();
    for (const auth of [null, 'forged-credential-0123456789abcdef', `${host.credential}x`]) {
      const res = await agentPost('/api/v1/agents/heartbeat', auth, inventory());
      expect(res.statusCode).toBe(401);
      expect(res.json().error.code).toBe('UNAUTHENTICATED');
    }
    await t.database.db
      .update(hosts)
      .set({ removedAt: t.clock.now(), credentialHash: null })
      .where(eq(hosts.id, host.id));
    const revoked = await agentPost('/api/v1/agents/heartbeat', host.credential, inventory());
    expect(revoked.statusCode).toBe(401);
  });

  it('authenticates before it validates: an unknown or revoked credential is 401 whatever the body', async () => {
    const { host } = await hostWithListing();
    const revoked = await hostWithListing();
    await t.database.db
      .update(hosts)
      .set({ removedAt: t.clock.now(), credentialHash: null })
      .where(eq(hosts.id, revoked.host.id));
    const calls: [string, unknown][] = [
      ['/api/v1/agents/heartbeat', { instances: 'x' }],
      ['/api/v1/agents/wait', { maxMs: 'forever' }],
      ['/api/v1/agents/instances/1/report', { state: 'exploded' }],
      ['/api/v1/agents/instances/1/report', {}],
    ];
    for (const [url, body] of calls) {
      for (const credential of ['forged-credential-0123456789abcdef', revoked.host.credential]) {
        const res = await agentPost(url, credential, body);
        expect(res.statusCode).toBe(401);
        expect(res.json()).toEqual({
          error: {
            code: 'UNAUTHENTICATED',
            message: 'Unknown or revoked agent credential.',
            details: {},
          },
        });
      }
      // The host's own credential gets the contract's answer.
      const own = await agentPost(url, host.credential, body);
      expect(own.statusCode).toBe(400);
      expect(own.json().error.code).toBe('VALIDATION_FAILED');
    }
  });

  it('a credential revoked after use is refused at its next heartbeat and report', async () => {
    const { host } = await hostWithListing();
    await heartbeat(host.credential);
    await t.database.db
      .update(hosts)
      .set({ removedAt: t.clock.now(), credentialHash: null })
      .where(eq(hosts.id, host.id));
    expect(
      (await agentPost('/api/v1/agents/heartbeat', host.credential, inventory())).statusCode,
    ).toBe(401);
    expect((await report(host.credential, 1, { state: 'running', generation: 1 })).statusCode).toBe(
      401,
    );
  });

  it('answers 400 for a heartbeat that breaks the contract', async () => {
    const { host } = await hostWithListing();
    const res = await agentPost('/api/v1/agents/heartbeat', host.credential, { instances: 'x' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('VALIDATION_FAILED');
  });
});

describe('a rental on an enrolled host', () => {
  it('is placed there, converged by its reports and settled when stopped', async () => {
    const { host, listing } = await hostWithListing('2.00');
    const renter = await renterWithKey();
    const rent = await w.rentAs(renter.cookie, listing, 3);
    expect(rent.statusCode).toBe(201);
    const id = rent.json().id as number;
    expect(rent.json()).toMatchObject({ status: 'active', sshHost: null });

    const first = await heartbeat(host.credential);
    expect(first.instances).toHaveLength(1);
    const desired = first.instances[0];
    expect(desired).toMatchObject({
      id: String(id),
      state: 'running',
      gpuIndexes: [0],
      sshUser: 'ubuntu',
      sshPublicKeys: [PUBLIC_KEY],
      diskGib: 50,
      cpus: 8,
    });
    expect(desired?.vncPassword).toMatch(/^.{8}$/);
    const generation = desired?.generation ?? 0;

    t.clock.advance(60_000);
    const ready = await report(host.credential, id, {
      generation,
      state: 'running',
      ssh: { host: 'gpu-box-1.example.net', port: 22001, user: 'ubuntu' },
      vnc: { host: 'gpu-box-1.example.net', port: 5901 },
    });
    expect(ready.json()).toEqual({ accepted: true });
    const mine = await t.request({
      method: 'GET',
      url: `/api/rentals/user/${renter.userId}`,
      cookie: renter.cookie,
    });
    expect(mine.json()[0]).toMatchObject({
      id,
      sshHost: 'gpu-box-1.example.net',
      sshPort: 22001,
    });
    // The same report again is harmless.
    const again = await heartbeat(host.credential);
    expect(again.instances[0]?.state).toBe('running');

    t.clock.advance(30 * 60_000);
    await heartbeat(host.credential); // keeps the host online through the half hour
    const stop = await t.request({
      method: 'PATCH',
      url: `/api/rentals/${id}/stop`,
      cookie: renter.cookie,
    });
    expect(stop.statusCode).toBe(200);
    // A late report of the generation before the stop changes nothing.
    const stale = await report(host.credential, id, { generation, state: 'running' });
    expect(stale.json()).toEqual({ accepted: false });
    const afterStop = await heartbeat(host.credential);
    const terminating = afterStop.instances[0];
    expect(terminating).toMatchObject({ id: String(id), state: 'terminated' });
    const gone = await report(host.credential, id, {
      generation: terminating?.generation ?? 0,
      state: 'terminated',
    });
    expect(gone.json()).toEqual({ accepted: true });
    expect((await heartbeat(host.credential)).instances).toEqual([]);
    const [row] = await t.database.db.select().from(instances).where(eq(instances.id, id));
    // Its hours ran from ready (a minute after the rent), not from the rent (issue 39).
    expect(row).toMatchObject({ status: 'terminated', usedSeconds: 30 * 60 });
  });

  it('learns a state whose report was lost from the next heartbeat', async () => {
    const { host, listing } = await hostWithListing();
    const renter = await renterWithKey();
    const rent = await w.rentAs(renter.cookie, listing, 1);
    const id = rent.json().id as number;
    const generation = (await heartbeat(host.credential)).instances[0]?.generation ?? 0;
    const answer = await heartbeat(host.credential, [
      {
        id: String(id),
        generation,
        state: 'running',
        ssh: { host: '203.0.113.7', port: 22002, user: 'ubuntu' },
        vnc: null,
        error: null,
      },
    ]);
    expect(answer.instances[0]?.state).toBe('running');
    const [row] = await t.database.db.select().from(instances).where(eq(instances.id, id));
    expect(row).toMatchObject({ status: 'running', sshHost: '203.0.113.7', sshPort: 22002 });
  });

  it("refuses a report for another host's instance", async () => {
    const a = await hostWithListing();
    const b = await hostWithListing();
    const renter = await renterWithKey();
    const rent = await w.rentAs(renter.cookie, a.listing, 1);
    const id = rent.json().id as number;
    const generation = (await heartbeat(a.host.credential)).instances[0]?.generation ?? 0;
    const forged = await report(b.host.credential, id, { generation, state: 'failed' });
    expect(forged.statusCode).toBe(404);
    expect(forged.json().error.code).toBe('NOT_FOUND');
    const mismatch = await agentPost(`/api/v1/agents/instances/${id}/report`, a.host.credential, {
      id: String(id + 1),
      generation,
      state: 'running',
      ssh: null,
      vnc: null,
      error: null,
      at: t.clock.now().toISOString(),
    });
    expect(mismatch.statusCode).toBe(404);
  });

  it('a failed boot ends the rental with a full refund and the host deletes the machine', async () => {
    const { host, listing } = await hostWithListing('1.00');
    const renter = await renterWithKey('10.00');
    const rent = await w.rentAs(renter.cookie, listing, 2);
    const id = rent.json().id as number;
    const generation = (await heartbeat(host.credential)).instances[0]?.generation ?? 0;
    const failed = await report(host.credential, id, {
      generation,
      state: 'failed',
      error: 'qemu: could not open disk',
    });
    expect(failed.json()).toEqual({ accepted: true });
    expect(await w.balance(renter.cookie)).toBe('10.00');
    const next = await heartbeat(host.credential);
    expect(next.instances[0]).toMatchObject({ id: String(id), state: 'terminated' });
    await report(host.credential, id, {
      generation: next.instances[0]?.generation ?? 0,
      state: 'terminated',
    });
    expect((await heartbeat(host.credential)).instances).toEqual([]);
  });
});

describe('a host that goes dark', () => {
  it('goes offline after 90 s: listings unrentable, instances unreachable and unbilled, failed and refunded after 20 minutes', async () => {
    const { host, listing } = await hostWithListing('6.00', true);
    const renter = await renterWithKey('100.00');
    const rent = await w.rentAs(renter.cookie, listing, 2);
    const id = rent.json().id as number;
    const generation = (await heartbeat(host.credential)).instances[0]?.generation ?? 0;
    await report(host.credential, id, {
      generation,
      state: 'running',
      ssh: { host: PUBLIC_HOST, port: 22003, user: 'ubuntu' },
    });
    // $12 in escrow and the $2.50 storage add-on charged.
    expect(await w.balance(renter.cookie)).toBe('85.50');
    await heartbeat(host.credential); // last sign of life

    // The server stays up meanwhile (its worker passes every 10 s).
    await t.passTime(AGENT_OFFLINE_AFTER_MS - 1000);
    expect(
      (await t.database.db.select().from(hosts).where(eq(hosts.id, host.id)))[0]?.offlineSince,
    ).toBeNull();

    await t.passTime(2000);
    const [dark] = await t.database.db.select().from(hosts).where(eq(hosts.id, host.id));
    expect(dark?.offlineSince).not.toBeNull();
    expect(await listingView(listing)).toMatchObject({ hostStatus: 'offline' });
    const { res: refused } = await w.rent(listing, 1, '50.00');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({
      code: 'HOST_OFFLINE',
      details: { hostStatus: 'offline' },
    });

    await expect
      .poll(() => t.mailer.sent.find((m) => m.subject.includes('is offline'))?.text, {
        timeout: 10_000,
      })
      .toContain('not billed');

    t.clock.advance(UNREACHABLE_FAIL_AFTER_MS);
    await t.app.deps.worker.runOnce(t.clock.now());
    const [row] = await t.database.db.select().from(instances).where(eq(instances.id, id));
    expect(row).toMatchObject({ status: 'failed', endReason: 'host_failed' });
    // Billed only until the last heartbeat (ready at 0 s, silent from 0 s): nothing used.
    expect(row?.usedSeconds).toBe(0);
    expect(await w.balance(renter.cookie)).toBe('97.50');
    await expect
      .poll(() => t.mailer.sent.some((m) => m.subject.includes(`Instance #${id} ended`)), {
        timeout: 10_000,
      })
      .toBe(true);

    // Past 4 hours dark: the outage credit rule pays the renter 4 h at $6.00/h from the
    // provider's earnings, once however often the job runs.
    t.clock.advance(4 * 3_600_000);
    await t.app.deps.worker.runOnce(t.clock.now());
    t.clock.advance(60_000);
    await t.app.deps.worker.runOnce(t.clock.now());
    expect(await w.balance(renter.cookie)).toBe('121.50');

    // Back: the outage closes and the host is told to delete the failed machine.
    const back = await heartbeat(host.credential);
    expect(back.instances).toMatchObject([{ id: String(id), state: 'terminated' }]);
    const outages = await t.database.db
      .select()
      .from(hostOutages)
      .where(eq(hostOutages.hostId, host.id));
    expect(outages).toHaveLength(1);
    expect(outages[0]?.endedAt).not.toBeNull();
    const view = await listingView(listing);
    expect(view).toMatchObject({ hostStatus: 'online' });
    // Dark for nearly all of its life: the uptime score says so.
    expect(view?.hostUptimePercent).toBeLessThan(10);
  });

  it('does not charge a metered instance for the minutes its host is dark', async () => {
    const { host, listing } = await hostWithListing('0.60');
    const renter = await renterWithKey('50.00');
    const created = await t.app.deps.instances.createMetered(
      renter.userId,
      { gpuListingId: listing.id, source: 'vm', storageGb: 100 },
      t.clock.now(),
    );
    const id = created.instance.id;
    const generation = (await heartbeat(host.credential)).instances[0]?.generation ?? 0;
    await report(host.credential, id, { generation, state: 'running' });
    await t.app.deps.worker.runOnce(t.clock.now());
    const charged = async () =>
      (await t.database.db.select().from(instances).where(eq(instances.id, id)))[0]?.chargedMicros;
    const before = await charged();
    await t.passTime(AGENT_OFFLINE_AFTER_MS + 1000);
    await t.passTime(10 * 60_000, 60_000);
    // Nothing: every minute since began after the host's last heartbeat (ADR 011).
    expect(await charged()).toBe(before);
    await heartbeat(host.credential);
    const [row] = await t.database.db.select().from(instances).where(eq(instances.id, id));
    expect(row?.unreachableSince).toBeNull();
    expect(row?.unreachableSeconds).toBeGreaterThan(10 * 60);
  });
});

describe('waiting for work between heartbeats (long poll)', () => {
  const wait = (credential: string | null, maxMs: number) =>
    agentPost('/api/v1/agents/wait', credential, { maxMs });

  it('answers work: false after maxMs when nothing changes, and 401 without a credential', async () => {
    const { host } = await hostWithListing();
    await heartbeat(host.credential);
    const idle = await wait(host.credential, 50);
    expect(idle.statusCode).toBe(200);
    expect(idle.json()).toEqual({ work: false });
    expect((await wait(null, 50)).statusCode).toBe(401);
    expect((await wait('x'.repeat(32), 50)).statusCode).toBe(401);
    const tooLong = await wait(host.credential, 60_000);
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().error.code).toBe('VALIDATION_FAILED');
  });

  it("wakes at once when a renter's action gives the host work, and keeps a wake that found no waiter", async () => {
    const { host, listing } = await hostWithListing('2.00');
    const renter = await renterWithKey();
    await heartbeat(host.credential);
    // Held (up to 20 s) until the rent below commits.
    const held = wait(host.credential, 20_000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const rent = await w.rentAs(renter.cookie, listing, 1);
    expect(rent.statusCode).toBe(201);
    expect((await held).json()).toEqual({ work: true });

    // A stop made between the heartbeat's answer and the next wait is not lost.
    const first = await heartbeat(host.credential);
    expect(first.instances).toHaveLength(1);
    const stop = await t.request({
      method: 'PATCH',
      url: `/api/rentals/${rent.json().id}/stop`,
      cookie: renter.cookie,
    });
    expect(stop.statusCode).toBe(200);
    expect((await wait(host.credential, 20_000)).json()).toEqual({ work: true });
    // Read by the next heartbeat: the wake is spent.
    const next = await heartbeat(host.credential);
    expect(next.instances[0]?.state).toBe('terminated');
    expect((await wait(host.credential, 50)).json()).toEqual({ work: false });
    await report(host.credential, rent.json().id, {
      generation: next.instances[0]?.generation ?? 0,
      state: 'terminated',
    });
  });

  it('wakes at once when the system gives the host work too: a provisioning time-out (issue 40: every change reaches its host through the event log)', async () => {
    const { host, listing } = await hostWithListing('2.00');
    const renter = await renterWithKey();
    const rent = await w.rentAs(renter.cookie, listing, 1);
    expect(rent.statusCode).toBe(201);
    // The rent's own wake reaches the host first (the hint of the database's `events` signal
    // at the commit, heard a moment later on PostgreSQL); the heartbeat after that answers it.
    await t.signalsHeard();
    const first = await heartbeat(host.credential);
    expect(first.instances[0]?.state).toBe('running'); // what the host is to make of it
    expect((await wait(host.credential, 50)).json()).toEqual({ work: false });
    // The host never reports it ready: the worker ends it at its deadline, and the held wait answers.
    const held = wait(host.credential, 20_000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    t.clock.advance(600_000 + 1_000);
    await t.app.deps.worker.runOnce(t.clock.now());
    expect((await held).json()).toEqual({ work: true });
    const next = await heartbeat(host.credential);
    expect(next.instances[0]?.state).toBe('terminated'); // delete the machine
  });
});
