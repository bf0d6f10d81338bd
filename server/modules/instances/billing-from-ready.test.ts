import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { heartbeatResponse, type InstanceStatus } from '../../../shared/contracts/agent-protocol';
import { computeMinuteMicros, storageMinuteMicros } from '../../../shared/rules/metering';
import { instances } from '../../db/schema';
import type { TestApp } from '../../test/app';
import { type agentCalls, hostWithAgent } from '../../test/hosts';
import { createApiKey, v1Request } from '../../test/public-api';
import { setupTestApp, type World } from '../../test/suite';
import { checkInvariants } from '../ledger/invariants';
import { ledgerService } from '../ledger/service';

/**
 * Pay only for a machine you can use (issue 39, part 1): compute is charged from the moment
 * the instance is ready (its host's verified login), never for the image download, the boot
 * or the setup; storage from create. A create that never becomes ready costs nothing; a
 * booking's hours run from ready. On a host speaking the agent protocol that takes minutes to
 * download and boot, with the manual clock; PGlite, and PostgreSQL in CI (money tests).
 */
let t: TestApp;
let w: World;
setupTestApp({ env: { PROVISIONING_TIMEOUT_MS: '1200000' } }, (app, world) => {
  t = app;
  w = world;
});

const MIN = 60_000;
const AGENT_ADDRESS = '203.0.113.41';
const SSH = { host: AGENT_ADDRESS, port: 22001, user: 'ubuntu' };
let models = 0;

async function slowHost(hourlyRate = '1.20') {
  models += 1;
  const model = `Gpu Slow ${models}`;
  const { listing, calls } = await hostWithAgent(t, (await w.provider()).providerId, {
    model,
    hourlyRate,
    from: AGENT_ADDRESS,
  });
  return { model, listing, calls };
}

async function row(id: number) {
  const [found] = await t.database.db.select().from(instances).where(eq(instances.id, id));
  if (!found) throw new Error('instance gone');
  return found;
}

const wallet = (userId: string) => ledgerService.walletBalance(t.database.db, userId);

/**
 * The host downloads and boots for `minutes`: a heartbeat every 30 s saying it is still
 * provisioning (with its step), the server's worker passing every 10 s.
 */
async function provisionFor(
  calls: ReturnType<typeof agentCalls>,
  id: number,
  generation: number,
  minutes: number,
) {
  const status: InstanceStatus = {
    id: String(id),
    generation,
    state: 'provisioning',
    ssh: null,
    vnc: null,
    error: null,
  };
  for (let s = 0; s < minutes * 2; s += 1) {
    await t.passTime(30_000);
    expect((await calls.heartbeat([status])).statusCode).toBe(200);
  }
}

async function told(calls: ReturnType<typeof agentCalls>, id: number) {
  const answer = heartbeatResponse.parse((await calls.heartbeat()).json());
  return answer.instances.find((i) => i.id === String(id))?.generation ?? 0;
}

/** A VM created on the web on a new slow host, told to its host: its id and generation. */
async function vmOnSlowHost(hourlyRate: string) {
  const { model, calls } = await slowHost(hourlyRate);
  const user = await t.signIn({ credits: '50.00' });
  const made = await t.request({
    method: 'POST',
    url: '/api/kvm/instances',
    cookie: user.cookie,
    payload: { gpu_type: model },
  });
  expect(made.statusCode, made.body).toBe(201);
  const id = made.json().vm_id as number;
  return { user, calls, id, generation: await told(calls, id) };
}

describe('billing from ready', () => {
  it('a VM whose host takes 5 minutes to download and boot: storage only until ready, to the micro-dollar; then its first compute minute', async () => {
    const { model, calls } = await slowHost('1.20');
    const user = await t.signIn({ credits: '50.00' });
    const { key } = await createApiKey(t, user.cookie, ['read', 'write']);
    const made = await t.request({
      method: 'POST',
      url: '/api/kvm/instances',
      cookie: user.cookie,
      payload: { gpu_type: model, disk_gb: 100 },
    });
    expect(made.statusCode, made.body).toBe(201);
    const id = made.json().vm_id as number;
    expect(made.json()).toMatchObject({
      total_cost: '0.00',
      compute_charge_note: 'provisioning — not charged',
    });
    const generation = await told(calls, id);
    await provisionFor(calls, id, generation, 5);

    // Five minutes in: no compute at all; storage by the minute since create.
    const provisioning = await row(id);
    expect(provisioning.status).toBe('provisioning');
    expect(provisioning.computeMinutes).toBe(0);
    const storage = storageMinuteMicros(100); // 100 GB: 1 667 µ$ a minute
    expect(provisioning.chargedMicros).toBe(BigInt(provisioning.storageMinutes) * storage);
    expect(await wallet(user.userId)).toBe(50_000_000n - provisioning.chargedMicros);
    const v1 = (await v1Request(t, key, 'GET', `/instances/${id}`)).json().instance;
    expect(v1.computeChargeNote).toBe('provisioning — not charged');
    const draft = (await v1Request(t, key, 'GET', `/instances/${id}/invoice`)).json().invoice;
    expect(draft.lines).toContainEqual({
      description: 'provisioning — not charged',
      quantity: 5,
      unit: 'minute',
      unitPrice: '0.00',
      amount: '0.00',
    });

    // Ready (its host verified a login): the first compute minute, at once.
    expect((await calls.report(id, { generation, state: 'running', ssh: SSH })).statusCode).toBe(
      200,
    );
    const ready = await row(id);
    expect(ready.status).toBe('running');
    expect(ready.computeMinutes).toBe(1);
    expect(ready.chargedMicros).toBe(
      BigInt(ready.storageMinutes) * storage + computeMinuteMicros(1_200_000n),
    );
    expect(await wallet(user.userId)).toBe(50_000_000n - ready.chargedMicros);
    expect((await v1Request(t, key, 'GET', `/instances/${id}`)).json().instance).toMatchObject({
      computeChargeNote: null,
    });
    expect(await checkInvariants(t.database.db, { billedUpTo: t.clock.now() })).toEqual([]);
  });

  it('a create that never becomes ready costs nothing: terminated while it provisions, every storage minute comes back', async () => {
    const { user, calls, id, generation } = await vmOnSlowHost('2.40');
    await provisionFor(calls, id, generation, 3);
    expect(await wallet(user.userId)).toBeLessThan(50_000_000n); // storage while it waited
    const gone = await t.request({
      method: 'DELETE',
      url: `/api/kvm/instances/${id}`,
      cookie: user.cookie,
    });
    expect(gone.statusCode, gone.body).toBe(200);
    expect(await wallet(user.userId)).toBe(50_000_000n);
    expect(await row(id)).toMatchObject({ chargedMicros: 0n, computeMinutes: 0 });
  });

  it('a create its host never makes ready by the deadline costs nothing', async () => {
    const { user, calls, id, generation } = await vmOnSlowHost('2.40');
    await provisionFor(calls, id, generation, 2);
    t.clock.advance(19 * MIN); // past the 20-minute deadline
    await t.app.deps.worker.runOnce(t.clock.now());
    expect((await row(id)).status).toBe('failed');
    expect(await wallet(user.userId)).toBe(50_000_000n);
  });

  it("a booking's hours run from ready: the download and boot are not used time", async () => {
    const { listing, calls } = await slowHost('3.60');
    const { renter, res: rent } = await w.rent(listing, 2, '100.00');
    expect(rent.statusCode, rent.body).toBe(201);
    const id = rent.json().id as number;
    expect(rent.json()).toMatchObject({ computeChargeNote: 'provisioning — not charged' });
    const generation = await told(calls, id);
    await provisionFor(calls, id, generation, 4);
    await calls.report(id, { generation, state: 'running', ssh: SSH });
    const ready = await row(id);
    expect(ready.readyAt).not.toBeNull();
    // Two hours from ready, not from the rent.
    expect(ready.endsAt?.getTime()).toBe((ready.readyAt?.getTime() ?? 0) + 2 * 3_600_000);
    await t.passTime(30 * MIN, MIN);
    await calls.heartbeat([
      { id: String(id), generation, state: 'running', ssh: SSH, vnc: null, error: null },
    ]);
    const stop = await t.request({
      method: 'PATCH',
      url: `/api/rentals/${id}/stop`,
      cookie: renter.cookie,
    });
    expect(stop.statusCode, stop.body).toBe(200);
    // 30 min at $3.60/h is $1.80; the four minutes before ready are not in it.
    expect(stop.json()).toMatchObject({ usedCost: '1.80', status: 'completed' });
  });

  it('a backdated readiness report never stores a time before the instance was created', async () => {
    const { calls, id, generation } = await vmOnSlowHost('1.20');
    t.clock.advance(MIN);
    const backdated = new Date(t.clock.now().getTime() - 3_600_000).toISOString();
    const report = await calls.report(id, {
      generation,
      state: 'running',
      ssh: SSH,
      at: backdated,
    });
    expect(report.statusCode, report.body).toBe(200);
    const ready = await row(id);
    expect(ready.readyAt?.getTime()).toBeGreaterThanOrEqual(ready.startTime.getTime());
    expect(ready.stateChangedAt.getTime()).toBeGreaterThanOrEqual(ready.startTime.getTime());
    expect(ready.paidThrough?.getTime()).toBeGreaterThan(ready.startTime.getTime());
  });
});
