import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  agentPaths,
  heartbeatResponse,
  type InstanceStatus,
} from '../../../shared/contracts/agent-protocol';
import { instances } from '../../db/schema';
import { createHost, createProvider } from '../../seed/factories';
import { createTestApp, type TestApp } from '../../test/app';
import { openTestDatabase } from '../../test/database';
import { agentCalls, gpuInventory, heartbeatBody } from '../../test/hosts';
import { type Statement, StatementLog } from '../../test/idle-plans';
import { world } from '../../test/world';

/**
 * A heartbeat's statements do not grow with the host's instances (issue 41, part 3): the
 * instance core reads a host's rows once per heartbeat (and again only the rows a status
 * changed), whatever their number; and an agent's credential is looked up once per request.
 * The statements are the ones the app really sends (openDatabase's logger, as
 * server/worker/idle-plans.test.ts records them); a number of statements, never a time.
 */

const log = new StatementLog();
let database: Awaited<ReturnType<typeof openTestDatabase>>;
let t: TestApp;
let w: ReturnType<typeof world>;
beforeAll(async () => {
  database = await openTestDatabase({ logger: log });
  t = await createTestApp({ database });
  w = world(t);
  // The event log's readers (mail, webhooks) follow the log on a loop of their own, not the
  // heartbeat's: stopped, so only the heartbeat's own statements are counted.
  await t.app.deps.eventLog.close();
});
afterAll(async () => {
  await t?.close();
  await database?.close();
});

/** A statement that reads or writes the instances table (not a column or index named so). */
const touchesInstances = (s: Statement) => /(^|[^\w])"?instances"?([^\w]|$)/i.test(s.sql);

/**
 * A host with `count` instances: one being stopped, the others running metered (idle stop on,
 * each with an SSH session open: the heartbeat's activity is recorded), none placed yet (no VNC password); its agent
 * reports each at its generation (1,000: as many statuses as one heartbeat carries).
 */
async function hostWith(count: number, from: string) {
  const providerId = (await createProvider(t.database.db, {})).id;
  const host = await createHost(t.database.db, {
    providerId,
    lastHeartbeatAt: t.clock.now(),
    gpus: { name: 'NVIDIA GeForce RTX 4090', count: 2 },
  });
  const listing = await w.listing({ providerId, hostId: host.id, totalCount: 2 });
  const renter = await t.signIn();
  const now = t.clock.now();
  const calls = agentCalls(t, host.credential, from, gpuInventory('NVIDIA GeForce RTX 4090'));
  // The host's first heartbeat spends its enrolment and opens its uptime: not a usual one.
  expect((await calls.heartbeat()).statusCode).toBe(200);
  const base = {
    userId: renter.userId,
    gpuListingId: listing.id,
    providerId,
    hostId: host.id,
    billingPlan: 'metered' as const,
    source: 'vm' as const,
    hourlyRateMicros: listing.hourlyRateMicros,
    startTime: now,
    provisioningDeadline: now,
    paidThrough: now,
    vncPassword: null,
    sshPublicKeys: ['ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHeartbeatStatementsTestKey0000000000 t'],
    gpuIndexes: [0],
  };
  const rows = await t.database.db
    .insert(instances)
    .values([
      ...Array.from({ length: count - 1 }, () => ({
        ...base,
        status: 'running' as const,
        readyAt: now,
        idleStopMinutes: 60,
      })),
      { ...base, status: 'stopping' as const },
    ])
    .returning({ id: instances.id, generation: instances.generation, status: instances.status });
  const status = (
    r: (typeof rows)[number],
    state: InstanceStatus['state'] = r.status === 'running' ? 'running' : 'stopping',
  ): InstanceStatus => ({
    id: String(r.id),
    generation: r.generation,
    state,
    ssh: null,
    vnc: null,
    error: null,
    // Someone logged in over SSH: activity for idle stop.
    ...(state === 'running' ? { sshSessions: 1 } : {}),
  });
  const stopping = rows.find((r) => r.status === 'stopping');
  if (!stopping) throw new Error('no stopping row');
  return {
    /** A heartbeat saying what the server knows already (the first one places every instance). */
    steady: () => calls.heartbeat(rows.map((r) => status(r))),
    /** A heartbeat whose one entry is news: the stopping instance has stopped. */
    oneStopped: () =>
      calls.heartbeat(rows.map((r) => status(r, r === stopping ? 'stopped' : undefined))),
  };
}

/**
 * A read of a host's whole list of instances: a select by host, not of named rows (the rows
 * a status changed are read again by id).
 */
const readsHostList = (s: Statement) =>
  /^\s*select\b/i.test(s.sql) &&
  /"instances"\."host_id" = \$/.test(s.sql) &&
  !/"instances"\."id" (in|=)/.test(s.sql);

/** The statements of one heartbeat: all, those touching instances, whole-list reads. */
async function counted(beat: () => Promise<{ statusCode: number; json(): unknown }>) {
  let answered = 0;
  const sent = await log.during(async () => {
    const res = await beat();
    expect(res.statusCode, JSON.stringify(res.json()).slice(0, 400)).toBe(200);
    answered = heartbeatResponse.parse(res.json()).instances.length;
  });
  return {
    all: sent.length,
    instances: sent.filter(touchesInstances).length,
    hostListReads: sent.filter(readsHostList).length,
    answered,
  };
}

type Figures = Awaited<ReturnType<typeof counted>>;

describe('the statements of one heartbeat', () => {
  it('are as many at 1,000 instances on the host as at 10, and read its list once', async () => {
    const figures = new Map<number, Record<'placing' | 'steady' | 'oneStopped', Figures>>();
    for (const [n, from] of [
      [10, '203.0.113.150'],
      [1_000, '203.0.113.151'],
    ] as const) {
      const h = await hostWith(n, from);
      figures.set(n, {
        placing: await counted(h.steady),
        steady: await counted(h.steady),
        oneStopped: await counted(h.oneStopped),
      });
    }
    if (process.env.HEARTBEAT_STATEMENTS_PRINT) console.log(JSON.stringify([...figures]));
    const at10 = figures.get(10);
    const at1000 = figures.get(1_000);
    if (!at10 || !at1000) throw new Error('not measured');
    expect(at10.steady.answered).toBe(10);
    expect(at1000.steady.answered).toBe(1_000);
    for (const kind of ['placing', 'steady', 'oneStopped'] as const) {
      const { answered: _10, ...small } = at10[kind];
      const { answered: _1000, ...big } = at1000[kind];
      expect(big, kind).toEqual(small);
      // The host's rows are read once; a status that changed one has that one read again.
      expect(big.hostListReads, kind).toBe(1);
    }
  });
});

/** A statement that reads or writes the hosts table: where an agent's credential is looked up. */
const touchesHosts = (s: Statement) => /(^|[^\w])"?hosts"?([^\w]|$)/i.test(s.sql);

describe("an agent request's credential", () => {
  it('is looked up once: by the heartbeat statement itself, by the report, by a wait only when not heard within a minute', async () => {
    const providerId = (await createProvider(t.database.db, {})).id;
    const host = await createHost(t.database.db, { providerId, lastHeartbeatAt: t.clock.now() });
    const from = '203.0.113.152';
    const post = (url: string, payload: object, credential = host.credential) =>
      t.request({
        method: 'POST',
        url,
        payload,
        headers: { authorization: `Bearer ${credential}` },
        remoteAddress: from,
      });
    const lookups = async (url: string, payload: object, status: number, credential?: string) => {
      // Long enough for any credential remembered to be forgotten.
      t.clock.advance(2 * 60_000);
      let code = 0;
      const sent = await log.during(async () => {
        code = (await post(url, payload, credential)).statusCode;
      });
      expect(code, url).toBe(status);
      return sent.filter(touchesHosts).length;
    };
    expect((await post(agentPaths.heartbeat, heartbeatBody())).statusCode).toBe(200);
    const counts = {
      heartbeat: await lookups(agentPaths.heartbeat, heartbeatBody(), 200),
      heartbeatBreakingTheContract: await lookups(agentPaths.heartbeat, { instances: 'x' }, 400),
      unknownHeartbeat: await lookups(
        agentPaths.heartbeat,
        { instances: 'x' },
        401,
        'forged-credential-0123456789abcdef',
      ),
      report: await lookups(
        agentPaths.report('2000000000'),
        {
          id: '2000000000',
          generation: 1,
          state: 'stopped',
          ssh: null,
          vnc: null,
          error: null,
          at: t.clock.now().toISOString(),
        },
        404,
      ),
      wait: await lookups(agentPaths.wait, { maxMs: 0 }, 200),
    };
    // A wait right after its host's heartbeat looks nothing up (the heartbeat was the lookup).
    await post(agentPaths.heartbeat, heartbeatBody());
    const sent = await log.during(async () => {
      expect((await post(agentPaths.wait, { maxMs: 0 })).statusCode).toBe(200);
    });
    if (process.env.HEARTBEAT_STATEMENTS_PRINT) console.log(JSON.stringify(counts));
    expect({ ...counts, waitAfterHeartbeat: sent.filter(touchesHosts).length }).toEqual({
      heartbeat: 1,
      heartbeatBreakingTheContract: 1,
      unknownHeartbeat: 1,
      report: 1,
      wait: 1,
      waitAfterHeartbeat: 0,
    });
  });
});
