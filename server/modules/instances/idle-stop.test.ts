import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { heartbeatResponse, type InstanceStatus } from '../../../shared/contracts/agent-protocol';
import { DEFAULT_SETTINGS } from '../../../shared/contracts/settings';
import { instances } from '../../db/schema';
import { createHost, createListing, createProvider } from '../../seed/factories';
import type { TestApp } from '../../test/app';
import { gpuInventory, hostWithAgent } from '../../test/hosts';
import { createApiKey, v1Request } from '../../test/public-api';
import { setupTestApp } from '../../test/suite';

/**
 * Idle stop (issue 23, parts 4 and 7; docs/decisions/019) on a host speaking the agent
 * protocol, with the manual clock: a VM whose GPU reads under its threshold for N minutes is
 * warned 10 minutes before and then stopped (never deleted), and not before; GPU use on its
 * own GPU, a missing reading, an SSH session its host reports or an open web console start the
 * idle period again. Runs on
 * PGlite, and on PostgreSQL with TEST_DATABASE_URL. The ledger's invariants are checked after
 * each test.
 */
let t: TestApp;
setupTestApp({ env: { PROVISIONING_TIMEOUT_MS: '600000' } }, (app) => {
  t = app;
});

const MIN = 60_000;
const AGENT_ADDRESS = '203.0.113.21';
const SSH = { host: AGENT_ADDRESS, port: 22001, user: 'ubuntu' };
let models = 0;

async function row(id: number) {
  const [found] = await t.database.db.select().from(instances).where(eq(instances.id, id));
  if (!found) throw new Error('instance gone');
  return found;
}

/** A renter's VM running on a provider's host with two GPUs; `idle` its create fields. */
async function runningVm(idle: Record<string, unknown>) {
  const providerId = (await createProvider(t.database.db, {})).id;
  models += 1;
  // A model of its own per host (the VM form picks the cheapest of a type), its GPUs reported.
  const model = `Gpu Idle ${models}`;
  const { calls } = await hostWithAgent(t, providerId, {
    model,
    hourlyRate: '1.00',
    from: AGENT_ADDRESS,
  });
  const user = await t.signIn({ credits: '50.00' });
  const made = await t.request({
    method: 'POST',
    url: '/api/kvm/instances',
    cookie: user.cookie,
    payload: { gpu_type: model, ...idle },
  });
  expect(made.statusCode, made.body).toBe(201);
  const id = made.json().vm_id as number;
  const answer = heartbeatResponse.parse((await calls.heartbeat()).json());
  const generation = answer.instances.find((i) => i.id === String(id))?.generation ?? 0;
  const ran = await calls.report(id, { generation, state: 'running', ssh: SSH });
  expect(ran.statusCode, ran.body).toBe(200);
  const running = await row(id);
  expect(running.status).toBe('running');
  const [gpu] = running.gpuIndexes;
  if (gpu === undefined) throw new Error('no GPU');
  const status: InstanceStatus = {
    id: String(id),
    generation,
    state: 'running',
    ssh: SSH,
    vnc: null,
    error: null,
  };
  /**
   * `minutes` later, a heartbeat reads the VM's GPU at `mine` percent (null: no reading) and
   * the other GPU at `other`, the VM with `sshSessions` open (left out: the field is absent)
   * and `named` besides; then the worker runs.
   */
  const later = async (
    minutes: number,
    mine: number | null = 0,
    other = 0,
    heard: { sshSessions?: number; named?: InstanceStatus[] } = {},
  ) => {
    t.clock.advance(minutes * MIN);
    const gpus = gpuInventory(model, (index) => ({
      utilizationPercent: index === gpu ? mine : other,
    }));
    const own =
      heard.sshSessions === undefined ? status : { ...status, sshSessions: heard.sshSessions };
    const beat = await calls.heartbeat(
      [...((await row(id)).status === 'running' ? [own] : []), ...(heard.named ?? [])],
      undefined,
      gpus,
    );
    expect(beat.statusCode, beat.body).toBe(200);
    await t.app.deps.worker.runOnce(t.clock.now());
    return row(id);
  };
  return { id, user, later, status };
}

async function vmView(cookie: string, id: number) {
  const res = await t.request({ method: 'GET', url: '/api/kvm/instances', cookie });
  const vm = (res.json() as Record<string, unknown>[]).find((v) => v.vm_id === id);
  if (!vm) throw new Error('no VM view');
  return vm;
}

async function emailOf(cookie: string): Promise<string> {
  return (await t.request({ method: 'GET', url: '/api/auth/user', cookie })).json().email;
}
const mails = (to: string, subject: string) =>
  t.mailer.sent.filter((m) => m.to === to && m.subject.includes(subject)).length;

describe('idle stop on a real host', () => {
  it('warns 10 minutes before and stops after N idle minutes, not before; the disk is kept', async () => {
    const { id, user, later } = await runningVm({ idle_stop_minutes: 30 });
    const email = await emailOf(user.cookie);
    expect(await vmView(user.cookie, id)).toMatchObject({
      idle_stop_minutes: 30,
      idle_threshold_percent: 5,
      idle_warned_at: null,
    });

    expect((await later(15, 4)).idleWarnedAt).toBeNull();
    const warned = await later(5, 3);
    expect(warned.status).toBe('running');
    expect(warned.idleWarnedAt).not.toBeNull();
    expect((await vmView(user.cookie, id)).idle_warned_at).not.toBeNull();
    await vi.waitFor(() => expect(mails(email, 'will be stopped in 10 minutes')).toBe(1), {
      timeout: 10_000,
    });

    expect((await later(5, 0)).status).toBe('running');
    const stopped = await later(5, 0);
    expect(['stopping', 'stopped']).toContain(stopped.status);
    expect(stopped.endReason).toBe('idle_stop');
    expect(stopped.endTime).toBeNull();
    await vi.waitFor(() => expect(mails(email, 'was stopped: it was idle')).toBe(1), {
      timeout: 10_000,
    });
    expect(mails(email, 'will be stopped in 10 minutes')).toBe(1);
  });

  it('starts the idle period again when its own GPU is busy, and withdraws the warning', async () => {
    const { later } = await runningVm({ idle_stop_minutes: 30, idle_threshold_percent: 20 });
    expect((await later(20, 19)).idleWarnedAt).not.toBeNull();
    const busy = await later(5, 20);
    expect(busy.idleWarnedAt).toBeNull();
    // 30 minutes after it began, but only 5 after the GPU was busy: still running.
    expect((await later(5, 0)).status).toBe('running');
    expect((await later(15, 0)).idleWarnedAt).not.toBeNull();
    expect((await later(10, 0)).endReason).toBe('idle_stop');
  });

  it("reads only its own GPUs: the host's other GPU at 100% does not keep it running", async () => {
    const { later } = await runningVm({ idle_stop_minutes: 15 });
    await later(5, 0, 100);
    expect((await later(5, 0, 100)).idleWarnedAt).not.toBeNull();
    expect((await later(10, 0, 100)).endReason).toBe('idle_stop');
  });

  it('never acts on a missing reading', async () => {
    const { later } = await runningVm({ idle_stop_minutes: 15 });
    for (let i = 0; i < 8; i += 1) {
      const now = await later(5, null);
      expect(now.status).toBe('running');
      expect(now.idleWarnedAt).toBeNull();
    }
  });

  it('does not stop while a web console is open on it', async () => {
    const { id, later } = await runningVm({ idle_stop_minutes: 15 });
    for (let i = 0; i < 8; i += 1) {
      // What the console route does at each status check while a console is open.
      await t.app.deps.instances.consoleActive(id, t.clock.now());
      const now = await later(5, 0);
      expect(now.status).toBe('running');
    }
    // Closed: the idle period runs from the last check.
    await later(10, 0);
    expect((await later(10, 0)).endReason).toBe('idle_stop');
  });

  it('does not stop while someone is logged in over SSH; another host cannot say so', async () => {
    const vm = await runningVm({ idle_stop_minutes: 15 });
    for (let i = 0; i < 8; i += 1) {
      const now = await vm.later(5, 0, 0, { sshSessions: 1 });
      expect(now.status).toBe('running');
      expect(now.idleWarnedAt).toBeNull();
    }
    // Logged out (0 sessions). Another provider's host then names this VM with a session open:
    // it is not that host's instance, so the idle period it is in runs on.
    const other = await runningVm({});
    expect((await vm.later(5, 0, 0, { sshSessions: 0 })).idleWarnedAt).not.toBeNull();
    await other.later(5, 0, 0, { named: [{ ...vm.status, sshSessions: 3 }] });
    expect((await vm.later(5, 0, 0, { sshSessions: 0 })).endReason).toBe('idle_stop');
  });

  it('is off by default and when set to 0', async () => {
    const { id, user, later } = await runningVm({});
    expect((await row(id)).idleStopMinutes).toBe(0);
    for (let i = 0; i < 3; i += 1) expect((await later(30, 0)).status).toBe('running');
    const set = await t.request({
      method: 'PATCH',
      url: `/api/kvm/instances/${id}`,
      cookie: user.cookie,
      payload: { idle_stop_minutes: 15 },
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({ idle_stop_minutes: 15, idle_threshold_percent: 5 });
    const off = await t.request({
      method: 'PATCH',
      url: `/api/kvm/instances/${id}`,
      cookie: user.cookie,
      payload: { idle_stop_minutes: 0 },
    });
    expect(off.json()).toMatchObject({ idle_stop_minutes: 0, idle_stop_at: null });
    for (let i = 0; i < 3; i += 1) expect((await later(30, 0)).status).toBe('running');
  });
});

describe('setting idle stop', () => {
  it('takes the account default on create, and the public API reads and changes it', async () => {
    const user = await t.signIn({ credits: '50.00' });
    const saved = await t.request({
      method: 'PATCH',
      url: `/api/users/${user.userId}/settings`,
      cookie: user.cookie,
      payload: {
        ...DEFAULT_SETTINGS,
        billing: { ...DEFAULT_SETTINGS.billing, idleStopMinutes: 60, idleThresholdPercent: 10 },
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const providerId = (await createProvider(t.database.db, {})).id;
    const host = await createHost(t.database.db, {
      providerId,
      lastHeartbeatAt: t.clock.now(),
      gpus: { name: 'Gpu Idle Default', count: 2 },
    });
    const listing = await createListing(t.database.db, {
      providerId,
      model: 'Gpu Idle Default',
      hourlyRate: '1.00',
      hostId: host.id,
      totalCount: 2,
    });
    const { key } = await createApiKey(t, user.cookie, ['read', 'write']);
    const made = await v1Request(t, key, 'POST', '/instances', { gpuListingId: listing.id });
    expect(made.statusCode, made.body).toBe(201);
    const id = made.json().instance.id as number;
    expect(made.json().instance).toMatchObject({ idleStopMinutes: 60, idleThresholdPercent: 10 });

    const changed = await v1Request(t, key, 'PATCH', `/instances/${id}`, {
      idleStopMinutes: 120,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().instance).toMatchObject({
      idleStopMinutes: 120,
      idleThresholdPercent: 10,
    });
    expect((await row(id)).idleStopMinutes).toBe(120);
  });

  it('refuses minutes that leave no room for the warning, and a threshold outside 1-100, with 400', async () => {
    const { id, user } = await runningVm({});
    const bad: [Record<string, unknown>, string][] = [
      [{ idle_stop_minutes: 10 }, 'idle_stop_minutes'],
      [{ idle_stop_minutes: 20_000 }, 'idle_stop_minutes'],
      [{ idle_threshold_percent: 0 }, 'idle_threshold_percent'],
      [{ idle_threshold_percent: 101 }, 'idle_threshold_percent'],
    ];
    for (const [payload, field] of bad) {
      const res = await t.request({
        method: 'PATCH',
        url: `/api/kvm/instances/${id}`,
        cookie: user.cookie,
        payload,
      });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_FAILED');
      expect(Object.keys(res.json().error.details.fields)).toContain(field);
    }
    expect((await row(id)).idleStopMinutes).toBe(0);
  });
});
