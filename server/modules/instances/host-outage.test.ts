import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { heartbeatResponse, type InstanceStatus } from '../../../shared/contracts/agent-protocol';
import type { TestApp } from '../../test/app';
import { hostWithAgent } from '../../test/hosts';
import { createApiKey, v1Request } from '../../test/public-api';
import { setupTestApp, type World } from '../../test/suite';

/**
 * Outages renters can see (issue 25, part 4) and earnings providers can see (part 6), on a
 * host speaking the agent protocol with the manual clock: once its host is silent for 90 s,
 * v1 and /api/kvm say offline with since when, GPU readings are stale, an action sent
 * meanwhile says it waits for the host, and the minutes let pass unbilled appear in usage and
 * the invoice as "host unreachable — not charged"; the provider's list carries metered
 * instances with earnings equal to its ledger postings. PGlite, and PostgreSQL with
 * TEST_DATABASE_URL; the ledger's invariants are checked after each test.
 */
let t: TestApp;
let w: World;
setupTestApp({ env: { PROVISIONING_TIMEOUT_MS: '600000' } }, (app, world) => {
  t = app;
  w = world;
});

const MIN = 60_000;
const AGENT_ADDRESS = '203.0.113.31';
const SSH = { host: AGENT_ADDRESS, port: 22001, user: 'ubuntu' };
let models = 0;

async function runningVm() {
  const provider = await w.provider();
  models += 1;
  const model = `Gpu Outage ${models}`;
  const { calls } = await hostWithAgent(t, provider.providerId, {
    model,
    hourlyRate: '1.20',
    from: AGENT_ADDRESS,
  });
  const user = await t.signIn({ credits: '50.00' });
  const { key } = await createApiKey(t, user.cookie, ['read', 'write']);
  const made = await t.request({
    method: 'POST',
    url: '/api/kvm/instances',
    cookie: user.cookie,
    payload: { gpu_type: model },
  });
  expect(made.statusCode, made.body).toBe(201);
  const id = made.json().vm_id as number;
  const answer = heartbeatResponse.parse((await calls.heartbeat()).json());
  const generation = answer.instances.find((i) => i.id === String(id))?.generation ?? 0;
  expect((await calls.report(id, { generation, state: 'running', ssh: SSH })).statusCode).toBe(200);
  const status: InstanceStatus = {
    id: String(id),
    generation,
    state: 'running',
    ssh: SSH,
    vnc: null,
    error: null,
  };
  const beat = async () => expect((await calls.heartbeat([status])).statusCode).toBe(200);
  const tick = () => t.app.deps.worker.runOnce(t.clock.now());
  return { id, user, key, provider, beat, tick, calls };
}

async function views(user: { cookie: string }, key: string, id: number) {
  const v1 = (await v1Request(t, key, 'GET', `/instances/${id}`)).json().instance;
  const list = await t.request({ method: 'GET', url: '/api/kvm/instances', cookie: user.cookie });
  const vm = (list.json() as Record<string, unknown>[]).find((v) => v.vm_id === id);
  return { v1, vm };
}

describe('a host that goes dark', () => {
  it('every renter view says offline since its last heartbeat; an action waits; the minutes are a not-charged line', async () => {
    const { id, user, key, beat, tick } = await runningVm();
    for (let i = 0; i < 3; i += 1) {
      t.clock.advance(30_000);
      await beat();
      await tick();
    }
    const before = await views(user, key, id);
    expect(before.v1).toMatchObject({ hostStatus: 'online', hostOfflineSince: null });
    expect(before.vm).toMatchObject({ host_status: 'online', host_offline_since: null });
    const lastHeartbeat = t.clock.now().toISOString();

    // Silent: 60 s is not yet offline; past 90 s it is (the server up throughout).
    await t.passTime(60_000);
    expect((await views(user, key, id)).v1.hostStatus).toBe('online');
    await t.passTime(40_000);
    const dark = await views(user, key, id);
    expect(dark.v1).toMatchObject({ hostStatus: 'offline', hostOfflineSince: lastHeartbeat });
    expect(dark.vm).toMatchObject({ host_status: 'offline', host_offline_since: lastHeartbeat });

    // Five minutes dark: not charged.
    for (let i = 0; i < 5; i += 1) {
      t.clock.advance(MIN);
      await tick();
    }
    const usage = (await v1Request(t, key, 'GET', `/instances/${id}/usage`)).json().usage;
    expect(usage.hostUnreachableMinutes).toBeGreaterThanOrEqual(5);
    const invoice = await v1Request(t, key, 'GET', `/instances/${id}/invoice`);
    expect(invoice.statusCode).toBe(200);
    const line = (invoice.json().invoice.lines as Record<string, unknown>[]).find(
      (l) => l.description === 'host unreachable — not charged',
    );
    expect(line).toMatchObject({ quantity: usage.hostUnreachableMinutes, amount: '0.00' });

    // A stop meanwhile is accepted and says it waits for the host.
    const stop = await t.request({
      method: 'POST',
      url: `/api/kvm/instances/${id}/stop`,
      cookie: user.cookie,
    });
    expect(stop.statusCode, stop.body).toBe(200);
    expect(stop.json().message).toBe(
      'The host is unreachable: your stop was accepted and will run when the host is back.',
    );

    // Back: online again.
    await beat();
    await tick();
    expect((await views(user, key, id)).v1.hostStatus).not.toBe('offline');
  });
});

/** What the instance has been charged so far: its ledger transactions and its own counter. */
async function charged(id: number): Promise<string> {
  const result = await t.database.db.execute(sql`
      select (select count(*) from ledger_transactions where reference = ${`instance:${id}`})
        || ' transactions, ' || charged_micros || ' micros' as charged
      from instances where id = ${id}`);
  return (result as unknown as { rows: { charged: string }[] }).rows[0]?.charged ?? 'none';
}

describe('a start sent while the host is dark', () => {
  it('is refused with HOST_OFFLINE and charges nothing: the VM stays stopped until its host is back', async () => {
    const { id, user, key, tick, calls } = await runningVm();
    const kvm = (action: string) =>
      t.request({ method: 'POST', url: `/api/kvm/instances/${id}/${action}`, cookie: user.cookie });
    expect((await kvm('stop')).statusCode).toBe(200);
    const told = heartbeatResponse.parse((await calls.heartbeat()).json());
    const generation = told.instances.find((i) => i.id === String(id))?.generation ?? 0;
    expect((await calls.report(id, { generation, state: 'stopped' })).statusCode).toBe(200);
    const stopped: InstanceStatus = {
      id: String(id),
      generation,
      state: 'stopped',
      ssh: null,
      vnc: null,
      error: null,
    };
    expect((await calls.heartbeat([stopped])).statusCode).toBe(200);
    expect((await views(user, key, id)).vm).toMatchObject({ state: 'stopped' });

    // Silent past 90 s (the server up throughout): dark.
    await t.passTime(100_000);
    expect((await views(user, key, id)).v1.hostStatus).toBe('offline');
    const before = await charged(id);

    for (const start of [
      await kvm('start'),
      await v1Request(t, key, 'POST', `/instances/${id}/start`),
    ]) {
      expect(start.statusCode, start.body).toBe(409);
      expect(start.json().error).toEqual({
        code: 'HOST_OFFLINE',
        message:
          "This instance's host is unreachable right now, so it cannot start. It stays stopped and keeps its disk; start it again once the host is back.",
        details: { hostStatus: 'offline' },
      });
    }
    expect(await charged(id)).toBe(before);
    // Still stopped long after (a stopped instance waits for its host; it is not failed).
    t.clock.advance(25 * MIN);
    await tick();
    expect((await views(user, key, id)).vm).toMatchObject({ state: 'stopped' });
    expect(await charged(id)).toBe(before);

    // Back: the start is taken (its compute is charged once it is ready again).
    expect((await calls.heartbeat([stopped])).statusCode).toBe(200);
    await tick();
    const start = await kvm('start');
    expect(start.statusCode, start.body).toBe(200);
    expect(start.json()).toMatchObject({
      state: 'starting',
      compute_charge_note: 'starting — not charged',
    });
  });
});

describe("the provider's list", () => {
  it('carries metered instances with earnings equal to its ledger postings', async () => {
    const { id, provider, beat, tick } = await runningVm();
    for (let i = 0; i < 10; i += 1) {
      t.clock.advance(30_000);
      await beat();
      await tick();
    }
    const res = await t.request({
      method: 'GET',
      url: `/api/rentals/provider/${provider.providerId}`,
      cookie: provider.cookie,
    });
    expect(res.statusCode, res.body).toBe(200);
    const mine = (res.json() as Record<string, unknown>[]).find((r) => r.id === id);
    expect(mine).toMatchObject({ billingPlan: 'metered' });
    const result = await t.database.db.execute(sql`
        select coalesce(sum(e.amount_micros), 0)::text as micros
        from ledger_entries e
        join ledger_transactions x on x.id = e.transaction_id
        join ledger_accounts a on a.id = e.account_id
        where a.kind = 'provider_earnings' and a.provider_id = ${provider.providerId}
          and x.reference = ${`instance:${id}`}`);
    const [ledger] = (result as unknown as { rows: { micros: string }[] }).rows;
    const micros = BigInt(ledger?.micros ?? '0');
    expect(micros).toBeGreaterThan(0n);
    const earnings = mine?.earnings as { total: string };
    // To the cent: the ledger's micro-dollars rounded as the view rounds them.
    expect(Number(earnings.total)).toBeCloseTo(Number(micros) / 1e6, 2);
  });
});
