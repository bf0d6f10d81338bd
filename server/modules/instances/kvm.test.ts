import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { HeartbeatRequest } from '../../../shared/contracts/agent-protocol';
import { gpuListings, instances } from '../../db/schema';
import { createHost, createListing, createProvider } from '../../seed/factories';
import type { TestApp } from '../../test/app';
import { gpuInventory, heartbeatBody as heartbeat, hostInventory } from '../../test/hosts';
import { setupTestApp, type World } from '../../test/suite';
import { ledgerService } from '../ledger/service';

/**
 * /api/kvm (the VM dashboard): GPU types from real listings, create with the dashboard's defaults
 * and bounds, the lifecycle through start/stop/terminate, access, usage readings, billing.
 */
let t: TestApp;
let w: World;
const DELAY_MS = 1_000;
setupTestApp(
  {
    env: { DEMO_PROVISIONING_DELAY_MS: String(DELAY_MS), PROVISIONING_TIMEOUT_MS: '600000' },
  },
  (app, appWorld) => {
    t = app;
    w = appWorld;
  },
);

const db = () => t.database.db;
const tick = () => t.app.deps.worker.runOnce(t.clock.now());
const micros = (userId: string) => ledgerService.walletBalance(db(), userId);

const api = (
  cookie: string | undefined,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  payload?: unknown,
) =>
  t.request({
    method,
    url,
    ...(cookie ? { cookie } : {}),
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
const create = (cookie: string, body: Record<string, unknown> = {}) =>
  api(cookie, 'POST', '/api/kvm/instances', body);

async function row(id: number) {
  const [found] = await db().select().from(instances).where(eq(instances.id, id));
  if (!found) throw new Error('instance gone');
  return found;
}

async function listVm(cookie: string, id: number) {
  const res = await api(cookie, 'GET', '/api/kvm/instances');
  expect(res.statusCode).toBe(200);
  return (res.json() as { vm_id: number }[]).find((v) => v.vm_id === id) as
    | Record<string, unknown>
    | undefined;
}

/** A heartbeat of a host with two GPUs of one kind (by default the RTX A6000 of 'A6000'). */
function heartbeatBody(
  images?: ('ubuntu22' | 'windows11')[],
  gpuName = 'NVIDIA RTX A6000',
): HeartbeatRequest {
  return heartbeat({
    host: hostInventory(images ? { images } : {}),
    gpus: gpuInventory(gpuName, (index) => ({
      memoryTotalMib: 24_000,
      memoryUsedMib: index === 0 ? 6_000 : 12_000,
      utilizationPercent: index === 0 ? 73 : 10,
      temperatureC: index === 0 ? 66 : 40,
    })),
  });
}

describe('signed out', () => {
  it('answers 401 on every /api/kvm path', async () => {
    const calls: ['GET' | 'POST' | 'DELETE', string][] = [
      ['GET', '/api/kvm/gpus'],
      ['GET', '/api/kvm/templates'],
      ['GET', '/api/kvm/instances'],
      ['POST', '/api/kvm/instances'],
      ['POST', '/api/kvm/instances/1/start'],
      ['POST', '/api/kvm/instances/1/stop'],
      ['DELETE', '/api/kvm/instances/1'],
      ['GET', '/api/kvm/billing/summary'],
    ];
    for (const [method, url] of calls) {
      const res = await api(undefined, method, url, method === 'POST' ? {} : undefined);
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json().error.code).toBe('UNAUTHENTICATED');
    }
  });
});

describe('GET /api/kvm/gpus', () => {
  it('gives each GPU type the lowest rentable rate, its memory and whether any is rentable', async () => {
    const user = await t.signIn({ credits: '50.00' });
    const provider = await createProvider(db(), {});
    const offline = await createHost(db(), { providerId: provider.id, lastHeartbeatAt: null });
    // Type A: a cheaper one fully taken (by another user's VM), a dearer one free → its rate.
    await w.listing({ model: 'Gpu A', memory: '12GB', hourlyRate: '0.40', totalCount: 1 });
    const taker = await t.signIn({ credits: '50.00' });
    const taken = await create(taker.cookie, { gpu_type: 'Gpu A' });
    expect(taken.json()).toMatchObject({ hourly_rate: '0.40' });
    await w.listing({ model: 'Gpu A', memory: '12GB', hourlyRate: '0.95' });
    await w.listing({ model: 'Gpu A', memory: '12GB', hourlyRate: '1.10' });
    // Type B: only on a host that never heartbeated → listed, not available.
    await createListing(db(), {
      providerId: provider.id,
      model: 'Gpu B',
      memory: '48GB',
      hourlyRate: '2.00',
      hostId: offline.id,
    });
    // Type C: in maintenance only → not listed. Type D: another visitor's sandbox → not listed.
    await w.listing({ model: 'Gpu C', hourlyRate: '0.10', status: 'maintenance' });
    const stranger = await t.signIn();
    const sandbox = await createProvider(db(), {
      userId: stranger.userId,
      isSandbox: true,
    } as never);
    await createListing(db(), { providerId: sandbox.id, model: 'Gpu D', hourlyRate: '0.20' });

    const res = await api(user.cookie, 'GET', '/api/kvm/gpus');
    expect(res.statusCode).toBe(200);
    const gpus = res.json() as { gpu_type: string; listings: { hourly_rate: string }[] }[];
    const byType = Object.fromEntries(gpus.map((g) => [g.gpu_type, g]));
    expect(byType['Gpu A']).toMatchObject({
      gpu_type: 'Gpu A',
      memory_gb: 12,
      hourly_rate: '0.95',
      is_available: true,
    });
    // The rentable listings a create may run on, cheapest first (the taken one is not).
    expect(byType['Gpu A']?.listings.map((l) => l.hourly_rate)).toEqual(['0.95', '1.10']);
    expect(byType['Gpu B']).toEqual({
      gpu_type: 'Gpu B',
      memory_gb: 48,
      hourly_rate: '2.00',
      is_available: false,
      listings: [],
    });
    expect(byType['Gpu C']).toBeUndefined();
    expect(byType['Gpu D']).toBeUndefined();
    // The sandbox's owner sees their own.
    const own = (await api(stranger.cookie, 'GET', '/api/kvm/gpus')).json() as {
      gpu_type: string;
    }[];
    expect(own.map((g) => g.gpu_type)).toContain('Gpu D');
  });
});

describe('POST /api/kvm/instances', () => {
  it('takes the spec defaults (RTX 4070, 4 cores, 16 GB, 100 GB, ubuntu22) on the cheapest rentable listing, with a platform key', async () => {
    const user = await t.signIn({ credits: '50.00' });
    const dear = await w.listing({ model: 'RTX 4070', memory: '12GB', hourlyRate: '0.90' });
    const cheap = await w.listing({ model: 'RTX 4070', memory: '12GB', hourlyRate: '0.70' });
    const res = await create(user.cookie);
    expect(res.statusCode).toBe(201);
    const vm = res.json();
    expect(vm).toMatchObject({
      gpu_type: 'RTX 4070',
      gpu_memory: 12,
      cpu_cores: 4,
      ram_gb: 16,
      disk_gb: 100,
      template: 'ubuntu22',
      source: 'vm',
      status: 'creating',
      state: 'provisioning',
      started_at: null,
      // Never ready: it has run no minute.
      ran_minutes: 0,
      hourly_rate: '0.70',
      // Storage from create (100 GB for a minute, 0.17¢); compute from ready (issue 39).
      total_cost: '0.00',
      compute_charge_note: 'provisioning — not charged',
      connection_info: null,
    });
    const saved = await row(vm.vm_id);
    expect(saved).toMatchObject({
      gpuListingId: cheap.id,
      billingPlan: 'metered',
      source: 'vm',
      cpus: 4,
      memoryGb: 16,
      storageGb: 100,
      template: 'ubuntu22',
    });
    expect(saved.platformSshPublicKey).toMatch(/^ssh-ed25519 AAAA\S+ rentgpu-web-console$/);
    expect(saved.platformSshPrivateKey).toMatch(/^-----BEGIN OPENSSH PRIVATE KEY-----/);
    expect(dear.id).not.toBe(cheap.id);
    // The next one takes the next unit at the same cheapest rate; the key pair is new.
    const second = (await create(user.cookie, { gpu_type: 'RTX 4070' })).json();
    expect((await row(second.vm_id)).platformSshPublicKey).not.toBe(saved.platformSshPublicKey);
    for (const id of [vm.vm_id, second.vm_id])
      await api(user.cookie, 'DELETE', `/api/kvm/instances/${id}`);
  });

  it('refuses a value out of bounds, not whole or not a number with 400 naming the field', async () => {
    const user = await t.signIn({ credits: '50.00' });
    const bad: [string, unknown][] = [
      ['cpu_cores', 1],
      ['cpu_cores', 17],
      ['cpu_cores', 4.5],
      ['cpu_cores', '4'],
      ['ram_gb', 7],
      ['ram_gb', 129],
      ['ram_gb', 16.5],
      ['disk_gb', 49],
      ['disk_gb', 1001],
      ['disk_gb', null],
      ['template', 'debian12'],
      ['gpu_type', ''],
      ['gpu_type', 42],
    ];
    for (const [field, value] of bad) {
      const res = await create(user.cookie, { [field]: value });
      expect(res.statusCode, `${field}=${String(value)}`).toBe(400);
      const { error } = res.json();
      expect(error.code).toBe('VALIDATION_FAILED');
      expect(Object.keys(error.details.fields)).toEqual([field]);
      expect(error.message).toContain(field);
    }
    expect(await t.app.deps.instances.listMeteredByUser(user.userId)).toHaveLength(0);
  });

  it('accepts the bounds themselves', async () => {
    const user = await t.signIn({ credits: '50.00' });
    await w.listing({ model: 'Gpu Edge', hourlyRate: '0.50', totalCount: 2 });
    const low = await create(user.cookie, {
      gpu_type: 'Gpu Edge',
      cpu_cores: 2,
      ram_gb: 8,
      disk_gb: 50,
    });
    const high = await create(user.cookie, {
      gpu_type: 'Gpu Edge',
      cpu_cores: 16,
      ram_gb: 128,
      disk_gb: 1000,
    });
    expect(low.statusCode).toBe(201);
    expect(high.statusCode).toBe(201);
    expect(low.json()).toMatchObject({ cpu_cores: 2, ram_gb: 8, disk_gb: 50 });
    expect(high.json()).toMatchObject({ cpu_cores: 16, ram_gb: 128, disk_gb: 1000 });
    for (const r of [low, high])
      await api(user.cookie, 'DELETE', `/api/kvm/instances/${r.json().vm_id}`);
  });

  it('answers 400 for a type nobody offers, 409 for one with nothing free, 402 without an hour of credit', async () => {
    const user = await t.signIn({ credits: '50.00' });
    const unknown = await create(user.cookie, { gpu_type: 'Gpu Nowhere' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.details.fields).toHaveProperty('gpu_type');

    await w.listing({ model: 'Gpu Full', totalCount: 1 });
    const taker = await t.signIn({ credits: '50.00' });
    expect((await create(taker.cookie, { gpu_type: 'Gpu Full' })).statusCode).toBe(201);
    const full = await create(user.cookie, { gpu_type: 'Gpu Full' });
    expect(full.statusCode).toBe(409);
    expect(full.json().error.code).toBe('CAPACITY_UNAVAILABLE');

    const poor = await t.signIn({ credits: '1.00' });
    const listing = await w.listing({ model: 'Gpu Dear', hourlyRate: '3.00' });
    const refused = await create(poor.cookie, { gpu_type: 'Gpu Dear' });
    expect(refused.statusCode).toBe(402);
    expect(refused.json().error).toMatchObject({
      code: 'INSUFFICIENT_CREDITS',
      details: { available: '1.00', currency: 'USD' },
    });
    const [after] = await db().select().from(gpuListings).where(eq(gpuListings.id, listing.id));
    expect(after?.availableCount).toBe(listing.totalCount);
  });

  it('offers windows11 only where a rentable listing’s host advertises the image', async () => {
    const user = await t.signIn({ credits: '50.00' });
    const provider = await createProvider(db(), {});
    const host = await createHost(db(), {
      providerId: provider.id,
      gpus: { name: 'NVIDIA RTX A6000', count: 2 },
    });
    await createListing(db(), {
      providerId: provider.id,
      model: 'A6000',
      memory: '48GB',
      hourlyRate: '1.00',
      hostId: host.id,
    });
    await w.listing({ model: 'A6000', memory: '48GB', hourlyRate: '0.50' }); // demo host: no Windows

    const before = (await api(user.cookie, 'GET', '/api/kvm/templates')).json();
    expect(before).toEqual([
      { id: 'ubuntu22', name: 'Ubuntu 22.04', available: true, reason: null },
      {
        id: 'windows11',
        name: 'Windows 11',
        available: false,
        reason: expect.stringContaining('Windows 11'),
      },
    ]);
    const refused = await create(user.cookie, { gpu_type: 'A6000', template: 'windows11' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.details.fields).toHaveProperty('template');

    await t.app.deps.hosts.heartbeat(host.credential, heartbeatBody(['ubuntu22', 'windows11']));
    const after = (await api(user.cookie, 'GET', '/api/kvm/templates')).json();
    expect(after[1]).toEqual({
      id: 'windows11',
      name: 'Windows 11',
      available: true,
      reason: null,
    });
    const made = await create(user.cookie, { gpu_type: 'A6000', template: 'windows11' });
    expect(made.statusCode).toBe(201);
    // Not the cheaper demo listing: only the Windows host can run it.
    expect(made.json()).toMatchObject({ template: 'windows11', hourly_rate: '1.00' });
    expect((await row(made.json().vm_id)).hostId).toBe(host.id);
    await api(user.cookie, 'DELETE', `/api/kvm/instances/${made.json().vm_id}`);
  });

  it('replays a create sent twice with one Idempotency-Key: one VM', async () => {
    const user = await t.signIn({ credits: '50.00' });
    await w.listing({ model: 'Gpu Idem', hourlyRate: '0.50' });
    const send = () =>
      t.request({
        method: 'POST',
        url: '/api/kvm/instances',
        cookie: user.cookie,
        headers: { 'idempotency-key': 'vm-create-1' },
        payload: { gpu_type: 'Gpu Idem' },
      });
    const first = await send();
    const again = await send();
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().vm_id).toBe(first.json().vm_id);
    expect(await t.app.deps.instances.listMeteredByUser(user.userId)).toHaveLength(1);
    await api(user.cookie, 'DELETE', `/api/kvm/instances/${first.json().vm_id}`);
  });
});

describe('the lifecycle through /api/kvm', () => {
  it('start, stop and terminate follow the lifecycle rule, each state shown as itself; a repeated stop or terminate is 200, an impossible action 409', async () => {
    const user = await t.signIn({ credits: '50.00' });
    const listing = await w.listing({ model: 'Gpu Life', hourlyRate: '1.20' });
    const id = (await create(user.cookie, { gpu_type: 'Gpu Life' })).json().vm_id as number;
    const act = (action: 'start' | 'stop') =>
      api(user.cookie, 'POST', `/api/kvm/instances/${id}/${action}`);

    for (const action of ['start', 'stop'] as const) {
      const refused = await act(action);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error).toMatchObject({
        code: 'INVALID_STATE_TRANSITION',
        details: { state: 'provisioning', allowedActions: ['terminate'] },
      });
    }

    t.clock.advance(DELAY_MS);
    await tick();
    const running = await listVm(user.cookie, id);
    expect(running).toMatchObject({
      status: 'running',
      state: 'running',
      started_at: expect.any(String),
    });
    expect(running?.connection_info).toMatchObject({
      ssh_command: expect.stringMatching(
        new RegExp(
          `^ssh -p \\d+ -o HostKeyAlias=rentgpu-${id} -o CheckHostIP=no ubuntu@gpu-${listing.id}\\.demo\\.rentgpu\\.dev$`,
        ),
      ),
      vnc_url: null,
      web_console: `/vm-dashboard/console/${id}`,
      gpu_utilization: { simulated: true, measured_at: null },
    });
    const info = running?.connection_info as { gpu_utilization: Record<string, number> };
    const usage = info.gpu_utilization;
    for (const key of ['gpu_usage', 'memory_usage', 'temperature'] as const) {
      expect(usage[key]).toBeGreaterThanOrEqual(0);
      expect(usage[key]).toBeLessThanOrEqual(100);
    }
    expect((await act('start')).json().error.details.allowedActions).toEqual(['stop', 'terminate']);

    const stopping = await act('stop');
    expect(stopping.statusCode).toBe(200);
    expect(stopping.json()).toMatchObject({
      status: 'stopping',
      state: 'stopping',
      connection_info: null,
    });
    expect(await listVm(user.cookie, id)).toMatchObject({ status: 'stopping', state: 'stopping' });
    // A start while stopping is refused, with what to do instead (docs/decisions/018).
    const early = await act('start');
    expect(early.statusCode).toBe(409);
    expect(early.json().error).toMatchObject({
      code: 'INVALID_STATE_TRANSITION',
      message: 'This instance is still stopping. Start it again once it has stopped.',
      details: { state: 'stopping', allowedActions: ['terminate'] },
    });
    // A stop repeated while stopping is answered with the instance as it is.
    const repeated = await act('stop');
    expect(repeated.statusCode).toBe(200);
    expect(repeated.json()).toMatchObject({ status: 'stopping', state: 'stopping' });
    await tick();
    const stopped = await listVm(user.cookie, id);
    expect(stopped).toMatchObject({ status: 'stopped', state: 'stopped', started_at: null });
    // It ran: the card says for how long (its charged compute minutes), not "Not started".
    expect(stopped?.ran_minutes).toBeGreaterThanOrEqual(1);
    const stoppedAgain = await act('stop');
    expect(stoppedAgain.statusCode).toBe(200);
    expect(stoppedAgain.json()).toMatchObject({ status: 'stopped', state: 'stopped' });

    const starting = await act('start');
    expect(starting.statusCode).toBe(200);
    expect(starting.json()).toMatchObject({ status: 'starting', state: 'starting' });
    expect(await listVm(user.cookie, id)).toMatchObject({ status: 'starting' });
    t.clock.advance(DELAY_MS);
    await tick();
    expect(await listVm(user.cookie, id)).toMatchObject({ status: 'running' });

    const ended = await api(user.cookie, 'DELETE', `/api/kvm/instances/${id}`);
    expect(ended.statusCode).toBe(200);
    expect(ended.json()).toMatchObject({ status: 'terminating', state: 'terminating' });
    const retried = await api(user.cookie, 'DELETE', `/api/kvm/instances/${id}`);
    expect(retried.statusCode).toBe(200);
    expect(retried.json()).toMatchObject({ status: 'terminating', state: 'terminating' });
    await tick();
    expect(await listVm(user.cookie, id)).toMatchObject({
      status: 'terminated',
      state: 'terminated',
      end_reason: 'user',
    });
    // Terminate and stop again: 200 with the instance as it is; only a start is impossible.
    const again = await api(user.cookie, 'DELETE', `/api/kvm/instances/${id}`);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ status: 'terminated', state: 'terminated' });
    expect((await act('stop')).statusCode).toBe(200);
    const impossible = await act('start');
    expect(impossible.statusCode).toBe(409);
    expect(impossible.json().error.details).toMatchObject({
      state: 'terminated',
      allowedActions: [],
    });
  });

  it('only the owner sees or acts on a VM; a rental, an unknown id or a bad id is not one', async () => {
    const owner = await t.signIn({ credits: '50.00' });
    const other = await t.signIn({ credits: '50.00' });
    const listing = await w.listing({ model: 'Gpu Own', hourlyRate: '0.60' });
    const id = (await create(owner.cookie, { gpu_type: 'Gpu Own' })).json().vm_id as number;

    expect(await listVm(other.cookie, id)).toBeUndefined();
    for (const [method, url] of [
      ['POST', `/api/kvm/instances/${id}/start`],
      ['POST', `/api/kvm/instances/${id}/stop`],
      ['DELETE', `/api/kvm/instances/${id}`],
    ] as const) {
      const res = await api(other.cookie, method, url);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().error.code).toBe('NOT_FOUND');
    }
    expect((await row(id)).status).toBe('provisioning');

    // A marketplace rental (booked plan) of the same user is not a VM.
    const rental = await t.request({
      method: 'POST',
      url: '/api/rentals',
      cookie: owner.cookie,
      payload: w.rentBody(listing, 1),
    });
    expect(rental.statusCode).toBe(201);
    const rentalId = rental.json().id as number;
    expect(await listVm(owner.cookie, rentalId)).toBeUndefined();
    expect((await api(owner.cookie, 'DELETE', `/api/kvm/instances/${rentalId}`)).statusCode).toBe(
      404,
    );
    expect(
      (await api(owner.cookie, 'POST', `/api/kvm/instances/${rentalId}/stop`)).statusCode,
    ).toBe(404);

    expect((await api(owner.cookie, 'DELETE', '/api/kvm/instances/2147483647')).statusCode).toBe(
      404,
    );
    const bad = await api(owner.cookie, 'POST', '/api/kvm/instances/abc/start');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('VALIDATION_FAILED');

    await api(owner.cookie, 'DELETE', `/api/kvm/instances/${id}`);
    await t.request({
      method: 'PATCH',
      url: `/api/rentals/${rentalId}/stop`,
      cookie: owner.cookie,
    });
  });

  it('shows a real host’s GPU readings for the instance’s GPU, with its VNC address', async () => {
    const user = await t.signIn({ credits: '50.00' });
    const provider = await createProvider(db(), {});
    const host = await createHost(db(), {
      providerId: provider.id,
      gpus: { name: 'NVIDIA A40', count: 2 },
    });
    await createListing(db(), {
      providerId: provider.id,
      model: 'A40',
      memory: '48GB',
      hourlyRate: '1.00',
      hostId: host.id,
      totalCount: 2,
    });
    const id = (await create(user.cookie, { gpu_type: 'A40' })).json().vm_id as number;
    const answer = await t.app.deps.hosts.heartbeat(
      host.credential,
      heartbeatBody(undefined, 'NVIDIA A40'),
    );
    const desired = answer.instances.find((i) => i.id === String(id));
    expect(desired).toMatchObject({ gpuIndexes: [0], cpus: 4, diskGib: 100 });
    expect(desired?.platformSshPublicKey).toMatch(/^ssh-ed25519 /);
    await t.app.deps.hosts.report({
      instanceId: id,
      generation: desired?.generation ?? 0,
      state: 'running',
      connection: {
        sshHost: 'gpu-box-1.example.net',
        sshPort: 22011,
        sshUsername: 'ubuntu',
        vncAddress: 'gpu-box-1.example.net:5901',
      },
    });
    const vm = await listVm(user.cookie, id);
    expect(vm?.connection_info).toEqual({
      // The host key is filed under the instance: the port may have been another's before.
      ssh_command: `ssh -p 22011 -o HostKeyAlias=rentgpu-${id} -o CheckHostIP=no ubuntu@gpu-box-1.example.net`,
      ssh_host_key_fingerprint: null,
      vnc_url: 'gpu-box-1.example.net:5901',
      web_console: `/vm-dashboard/console/${id}`,
      gpu_utilization: {
        gpu_usage: 73,
        memory_usage: 25,
        temperature: 66,
        simulated: false,
        measured_at: t.clock.now().toISOString(),
        stale: false,
      },
    });
    // Values a hostile host got stored anyway are quoted: pasted, the line runs ssh only, and
    // the user after -l and the host after -- can never be ssh options.
    await db()
      .update(instances)
      .set({ sshHost: 'h.example;id;#', sshUsername: '-oProxyCommand=touch /tmp/x;#' })
      .where(eq(instances.id, id));
    expect((await listVm(user.cookie, id))?.connection_info).toMatchObject({
      ssh_command: `ssh -p 22011 -o HostKeyAlias=rentgpu-${id} -o CheckHostIP=no -l '-oProxyCommand=touch /tmp/x;#' -- 'h.example;id;#'`,
    });
    await api(user.cookie, 'DELETE', `/api/kvm/instances/${id}`);
    await t.app.deps.hosts.report({
      instanceId: id,
      generation: (await row(id)).generation,
      state: 'terminated',
    });
  });
});

describe('billing over time (ManualClock and the worker)', () => {
  it('charges storage from create and compute from ready, compute and storage while it runs, only storage while stopped, nothing after terminate', async () => {
    const user = await t.signIn({ credits: '20.00' });
    // $1.20/h: 2¢ a minute; 60 GB of storage: $0.06/h, 0.1¢ a minute.
    await w.listing({ model: 'Gpu Meter', hourlyRate: '1.20' });
    const summary = async () => (await api(user.cookie, 'GET', '/api/kvm/billing/summary')).json();
    expect(await summary()).toEqual({
      total_amount: '0.00',
      unpaid_amount: '0.00',
      total_hours: 0,
    });
    const start = await micros(user.userId);
    const spent = async () => start - (await micros(user.userId));

    const created = await create(user.cookie, { gpu_type: 'Gpu Meter', disk_gb: 60 });
    const id = created.json().vm_id as number;
    // Storage from create: its first minute at once; no compute until it is ready.
    expect(await spent()).toBe(1_000n);
    expect(created.json()).toMatchObject({
      status: 'creating',
      total_cost: '0.00',
      compute_charge_note: 'provisioning — not charged',
    });
    expect(await summary()).toEqual({
      total_amount: '0.00',
      unpaid_amount: '0.00',
      total_hours: 0,
    });
    await tick(); // nothing is due: the worker does not charge minute 1 again
    expect(await spent()).toBe(1_000n);
    t.clock.advance(DELAY_MS);
    await tick(); // the demo host reports it running: its first compute minute, at once
    expect((await row(id)).status).toBe('running');
    expect(await spent()).toBe(21_000n);
    expect(await listVm(user.cookie, id)).toMatchObject({ compute_charge_note: null });

    t.clock.advance(60_000);
    await tick(); // minute 2 (a minute after ready): compute and storage
    expect(await spent()).toBe(42_000n);
    t.clock.advance(30_000);
    // Half a minute in, the next minute is not due yet: nothing unpaid.
    expect((await summary()).unpaid_amount).toBe('0.00');
    t.clock.advance(30_000);
    await tick(); // minute 3: compute and storage
    expect(await spent()).toBe(63_000n);
    expect(await summary()).toEqual({
      total_amount: '0.06',
      unpaid_amount: '0.00',
      total_hours: 0.05,
    });
    expect(await listVm(user.cookie, id)).toMatchObject({ total_cost: '0.06' });

    // Stopped: storage only.
    expect((await api(user.cookie, 'POST', `/api/kvm/instances/${id}/stop`)).statusCode).toBe(200);
    t.clock.advance(60_000);
    // A minute has begun that the worker has yet to charge: that is what is unpaid.
    expect((await summary()).unpaid_amount).toBe('0.00'); // 0.1¢ rounds to $0.00
    await tick(); // the host confirms the stop; minute 4: storage only
    expect((await row(id)).status).toBe('stopped');
    expect(await spent()).toBe(64_000n);
    t.clock.advance(60_000);
    await tick(); // minute 5: storage only
    expect(await spent()).toBe(65_000n);

    // Terminated: nothing more, however long.
    expect((await api(user.cookie, 'DELETE', `/api/kvm/instances/${id}`)).statusCode).toBe(200);
    await tick();
    expect((await row(id)).status).toBe('terminated');
    for (let i = 0; i < 3; i += 1) {
      t.clock.advance(60_000);
      await tick();
    }
    expect(await spent()).toBe(65_000n);
    expect(await row(id)).toMatchObject({
      computeMinutes: 3,
      storageMinutes: 5,
      chargedMicros: 65_000n,
    });
    expect(await summary()).toEqual({
      total_amount: '0.07',
      unpaid_amount: '0.00',
      total_hours: 0.05,
    });
    expect(await listVm(user.cookie, id)).toMatchObject({ total_cost: '0.07' });
  });

  it('counts minutes begun but not yet charged as unpaid', async () => {
    const user = await t.signIn({ credits: '200.00' });
    await w.listing({ model: 'Gpu Unpaid', hourlyRate: '60.00' }); // $1 a minute
    const id = (await create(user.cookie, { gpu_type: 'Gpu Unpaid', disk_gb: 50 })).json()
      .vm_id as number;
    await tick();
    t.clock.advance(DELAY_MS);
    await tick();
    t.clock.advance(60_000 + 1);
    // Minute 2 (a minute after ready) has begun, running: $1.00 compute + storage (0.0834¢) not yet charged.
    const res = await api(user.cookie, 'GET', '/api/kvm/billing/summary');
    expect(res.json().unpaid_amount).toBe('1.00');
    await tick();
    expect((await api(user.cookie, 'GET', '/api/kvm/billing/summary')).json().unpaid_amount).toBe(
      '0.00',
    );
    await api(user.cookie, 'DELETE', `/api/kvm/instances/${id}`);
    await tick();
  });
});
