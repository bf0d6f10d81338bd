import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { DeployResultView } from '../../../shared/contracts/deploy';
import { NO_SSH_KEY_WARNING } from '../../../shared/contracts/launch-warnings';
import { gpuListings, hosts, instances } from '../../db/schema';
import { createHost, createProvider } from '../../seed/factories';
import type { TestApp } from '../../test/app';
import { setupTestApp, type World } from '../../test/suite';

/**
 * Instant Deploy over HTTP: the GPU list from real offerings, every refusal of a deploy,
 * the created metered instance (template shape and user-data), its live status through the
 * demo host, idempotency and who may see a deployment.
 */
let t: TestApp;
let w: World;
setupTestApp(
  {
    env: {
      DEMO_PROVISIONING_DELAY_MS: '20000',
      WORKER_INTERVAL_MS: '1000',
      AGENT_HEARTBEAT_INTERVAL_MS: '30000',
    },
  },
  (app, appWorld) => {
    t = app;
    w = appWorld;
  },
);

const db = () => t.database.db;
const tick = () => t.app.deps.worker.runOnce(t.clock.now());
let seq = 0;
/** A GPU type no other test uses, so each test reads its own offering. */
const freshType = () => `Test GPU ${++seq}`;

async function gpus(cookie: string) {
  const res = await t.request({ method: 'GET', url: '/api/deploy/gpus', cookie });
  expect(res.statusCode).toBe(200);
  return res.json().gpus as Array<Record<string, unknown>>;
}
const offering = async (cookie: string, type: string) =>
  (await gpus(cookie)).find((g) => g.gpu_type === type);

function deploy(cookie: string, body: unknown, headers: Record<string, string> = {}) {
  return t.request({
    method: 'POST',
    url: '/api/deploy',
    cookie,
    payload: body as object,
    headers,
  });
}
const status = (cookie: string, id: number) =>
  t.request({ method: 'GET', url: `/api/deploy/${id}`, cookie });

/** A one-unit listing of the type that another renter's deploy holds. */
async function rentedOut(type: string, hourlyRate: string, memory = '24GB') {
  const listing = await w.listing({ model: type, memory, hourlyRate, totalCount: 1 });
  const other = await t.signIn({ credits: '50.00' });
  await t.app.deps.instances.createMetered(
    other.userId,
    { gpuListingId: listing.id, source: 'deploy', storageGb: 50 },
    t.clock.now(),
  );
  return listing;
}

async function instanceRow(id: number) {
  const [row] = await db().select().from(instances).where(eq(instances.id, id));
  if (!row) throw new Error('no instance');
  return row;
}

describe('access', () => {
  it('every deploy route answers 401 signed out, whatever the input', async () => {
    for (const [method, url] of [
      ['GET', '/api/deploy/gpus'],
      ['POST', '/api/deploy'],
      ['GET', '/api/deploy/1'],
      ['GET', '/api/deploy/not-an-id'],
    ] as const) {
      const res = await t.request({ method, url, payload: method === 'POST' ? {} : undefined });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json().error.code).toBe('UNAUTHENTICATED');
    }
  });
});

describe('GET /api/deploy/gpus', () => {
  it('gives per GPU type the lowest rentable rate, its memory and whether any is rentable', async () => {
    const { cookie } = await t.signIn({ credits: '50.00' });
    const type = freshType();
    await w.listing({ model: type, memory: '24GB', hourlyRate: '1.80' });
    await w.listing({ model: type, memory: '24GB', hourlyRate: '1.45' });
    // Cheaper, but nothing of it can be rented: fully rented, in maintenance, removed.
    await rentedOut(type, '0.90');
    await w.listing({ model: type, hourlyRate: '0.80', status: 'maintenance' });
    const removed = await w.listing({ model: type, hourlyRate: '0.70' });
    await db()
      .update(gpuListings)
      .set({ removedAt: new Date() })
      .where(eq(gpuListings.id, removed.id));
    expect(await offering(cookie, type)).toEqual({
      gpu_type: type,
      memory_gb: 24,
      hourly_rate: '1.45',
      is_available: true,
      // The demo host: DEMO_PROVISIONING_DELAY_MS plus one worker interval.
      ready_seconds: 21,
      ready_basis: 'demo_host',
    });
  });

  it('shows a type with nothing rentable as sold out (is_available false, its cheapest listed rate)', async () => {
    const { cookie } = await t.signIn({ credits: '50.00' });
    const type = freshType();
    await rentedOut(type, '2.80', '40GB');
    // A listing on a host that went offline is not rentable either.
    const provider = await createProvider(db(), {});
    const host = await createHost(db(), { providerId: provider.id });
    await db().update(hosts).set({ offlineSince: new Date() }).where(eq(hosts.id, host.id));
    await w.listing({
      model: type,
      memory: '40GB',
      hourlyRate: '2.60',
      providerId: provider.id,
      hostId: host.id,
    });
    const gpu = await offering(cookie, type);
    expect(gpu).toMatchObject({ is_available: false, ready_seconds: null, ready_basis: null });
    expect(gpu?.hourly_rate).toBe('2.60');
    // Sold-out types come after the available ones.
    const list = await gpus(cookie);
    const firstSoldOut = list.findIndex((g) => !g.is_available);
    expect(list.slice(firstSoldOut).every((g) => !g.is_available)).toBe(true);
  });

  it("a demo visitor's sandbox listings are offered to their owner only", async () => {
    const owner = await t.signIn({ credits: '50.00' });
    const type = freshType();
    const sandbox = await createProvider(db(), { userId: owner.userId, isSandbox: true });
    await w.listing({ model: type, hourlyRate: '1.00', providerId: sandbox.id });
    expect(await offering(owner.cookie, type)).toMatchObject({
      is_available: true,
      hourly_rate: '1.00',
    });
    const stranger = await t.signIn({ credits: '50.00' });
    expect(await offering(stranger.cookie, type)).toBeUndefined();
    const other = await t.signIn({ credits: '50.00' });
    // Nor can anyone else deploy on it.
    const refused = await deploy(other.cookie, {
      gpu_type: type,
      template: 'pytorch',
      storage_gb: 50,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.details.fields).toEqual({
      gpu_type: ['No GPU of this type is on offer'],
    });
  });

  it('a real host with three or more ready instances shows its measured start time', async () => {
    const { cookie, userId } = await t.signIn({ credits: '100.00' });
    const type = freshType();
    const provider = await createProvider(db(), {});
    const host = await createHost(db(), {
      providerId: provider.id,
      gpus: { name: type, count: 6 },
    });
    await w.listing({
      model: type,
      hourlyRate: '1.00',
      totalCount: 6,
      providerId: provider.id,
      hostId: host.id,
    });
    expect(await offering(cookie, type)).toMatchObject({ ready_seconds: null, ready_basis: null });
    const created: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const res = await deploy(cookie, { gpu_type: type, template: 'cuda-dev', storage_gb: 20 });
      expect(res.statusCode).toBe(201);
      created.push(res.json().deployment.deployment_id);
    }
    // Until measured, the estimate is the template's deploy time plus one heartbeat.
    const first = await status(cookie, created[0] ?? 0);
    const d = first.json().deployment;
    expect(Date.parse(d.estimated_ready_time) - Date.parse(d.created_at)).toBe(30_000 + 30_000);
    for (const [i, id] of created.entries()) {
      const row = await instanceRow(id);
      await db()
        .update(instances)
        .set({ readyAt: new Date(row.startTime.getTime() + (30 + i * 10) * 1000) })
        .where(eq(instances.id, id));
    }
    expect(await offering(cookie, type)).toMatchObject({
      ready_seconds: 50,
      ready_basis: 'measured',
    });
    expect(userId).toBeTruthy();
  });
});

describe('POST /api/deploy refusals', () => {
  it('storage must be a whole number 20–1000; else 400 naming storage_gb', async () => {
    const { cookie } = await t.signIn({ credits: '50.00' });
    const type = freshType();
    await w.listing({ model: type, hourlyRate: '1.00' });
    for (const storage_gb of [19, 1001, 50.5, '50', null, -1]) {
      const res = await deploy(cookie, { gpu_type: type, template: 'pytorch', storage_gb });
      expect(res.statusCode, String(storage_gb)).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_FAILED');
      expect(Object.keys(res.json().error.details.fields)).toEqual(['storage_gb']);
      expect(res.json().error.details.fields.storage_gb[0]).toBe(
        'Storage must be a whole number of GB from 20 to 1000',
      );
    }
    const missing = await deploy(cookie, { gpu_type: type, template: 'pytorch' });
    expect(Object.keys(missing.json().error.details.fields)).toEqual(['storage_gb']);
    for (const storage_gb of [20, 1000]) {
      const res = await deploy(cookie, { gpu_type: type, template: 'cuda-dev', storage_gb });
      expect(res.statusCode, String(storage_gb)).toBe(201);
      expect(res.json().deployment.storage_gb).toBe(storage_gb);
    }
  });

  it('the template must be one of the six, the GPU type given and on offer', async () => {
    const { cookie } = await t.signIn({ credits: '50.00' });
    const type = freshType();
    await w.listing({ model: type, hourlyRate: '1.00' });
    const badTemplate = await deploy(cookie, {
      gpu_type: type,
      template: 'windows11',
      storage_gb: 50,
    });
    expect(badTemplate.statusCode).toBe(400);
    expect(badTemplate.json().error.details.fields).toEqual({
      template: ['Choose one of the templates'],
    });
    for (const gpu_type of [undefined, '', '   ']) {
      const res = await deploy(cookie, { gpu_type, template: 'pytorch', storage_gb: 50 });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details.fields).toEqual({ gpu_type: ['Choose a GPU type'] });
    }
    const unknown = await deploy(cookie, {
      gpu_type: 'GTX 480',
      template: 'pytorch',
      storage_gb: 50,
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.details.fields).toEqual({
      gpu_type: ['No GPU of this type is on offer'],
    });
  });

  it('a sold-out type answers 409 CAPACITY_UNAVAILABLE and creates nothing', async () => {
    const { cookie, userId } = await t.signIn({ credits: '50.00' });
    const type = freshType();
    await rentedOut(type, '1.00');
    const res = await deploy(cookie, { gpu_type: type, template: 'ollama', storage_gb: 50 });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatchObject({
      code: 'CAPACITY_UNAVAILABLE',
      message: `Every ${type} is taken right now (Sold Out). Choose another GPU or try again later.`,
    });
    const mine = await db().select().from(instances).where(eq(instances.userId, userId));
    expect(mine).toHaveLength(0);
  });

  it('without an hour of credits (GPU rate + storage) it answers 402 and takes no unit', async () => {
    const { cookie } = await t.signIn({ credits: '1.00' });
    const type = freshType();
    const listing = await w.listing({ model: type, hourlyRate: '1.00', totalCount: 2 });
    const res = await deploy(cookie, { gpu_type: type, template: 'pytorch', storage_gb: 100 });
    expect(res.statusCode).toBe(402);
    expect(res.json().error).toMatchObject({
      code: 'INSUFFICIENT_CREDITS',
      details: { required: '1.10', available: '1.00', currency: 'USD' },
    });
    const [after] = await db().select().from(gpuListings).where(eq(gpuListings.id, listing.id));
    expect(after?.availableCount).toBe(2);
  });
});

describe('a deployment', () => {
  it('runs on the cheapest rentable listing as a metered deploy instance with the template setup', async () => {
    const { cookie, userId } = await t.signIn({ credits: '50.00' });
    const type = freshType();
    await w.listing({ model: type, memory: '24GB', hourlyRate: '1.60', location: 'Tokyo, Japan' });
    const cheapest = await w.listing({
      model: type,
      memory: '24GB',
      hourlyRate: '1.50',
      location: 'Frankfurt, Germany',
    });
    const res = await deploy(cookie, { gpu_type: type, template: 'huggingface', storage_gb: 120 });
    expect(res.statusCode).toBe(201);
    const body = res.json() as DeployResultView;
    const id = body.deployment.deployment_id;
    expect(body).toEqual({
      success: true,
      message: "Your GPU instance is being prepared. You'll receive access details shortly.",
      deployment: {
        deployment_id: id,
        status: 'provisioning',
        gpu_type: type,
        template: 'huggingface',
        kind: 'vm',
        storage_gb: 120,
        cpu_cores: 16,
        ram_gb: 64,
        hourly_rate: '1.50',
        location: 'Frankfurt, Germany',
        is_demo_host: true,
        created_at: t.clock.now().toISOString(),
        estimated_ready_time: new Date(t.clock.now().getTime() + 21_000).toISOString(),
        ready_at: null,
        error: null,
        provisioning_step: null,
      },
      access_info: {
        ssh_command: null,
        web_terminal: null,
        jupyter: null,
        jupyter_tunnel: null,
        file_manager: null,
        pending: 'Your instance is being prepared. Access details appear here once it is running.',
        ssh_host_key_fingerprint: null,
      },
      // The account has no SSH key (issue 26 part 6).
      warnings: [{ code: 'NO_SSH_KEY', message: NO_SSH_KEY_WARNING }],
    });
    const row = await instanceRow(id);
    expect(row).toMatchObject({
      userId,
      gpuListingId: cheapest.id,
      source: 'deploy',
      template: 'huggingface',
      billingPlan: 'metered',
      cpus: 16,
      memoryGb: 64,
      storageGb: 120,
      hostId: 'demo',
    });
    // The template's cloud-config with this instance's own Jupyter token; a console key pair.
    const config = parse(row.userData ?? '') as {
      write_files: { path: string; content: string }[];
    };
    const env = config.write_files.find((f) => f.path === '/etc/rentgpu/jupyter.env');
    expect(env?.content).toMatch(/^JUPYTER_TOKEN=[0-9a-f]{48}\n$/);
    expect(row.userData).toContain('transformers');
    expect(row.platformSshPublicKey).toMatch(/^ssh-ed25519 /);
    expect(row.platformSshPrivateKey).toContain('BEGIN OPENSSH PRIVATE KEY');
    // Another deploy gets another token.
    const second = await deploy(cookie, {
      gpu_type: type,
      template: 'huggingface',
      storage_gb: 50,
    });
    const otherRow = await instanceRow(second.json().deployment.deployment_id);
    expect(otherRow.userData).not.toBe(row.userData);
  });

  it('is provisioning until the host reports it ready, then running with real access details', async () => {
    const { cookie } = await t.signIn({ credits: '50.00' });
    const type = freshType();
    const listing = await w.listing({ model: type, hourlyRate: '1.00' });
    const created = (
      await deploy(cookie, { gpu_type: type, template: 'pytorch', storage_gb: 50 })
    ).json();
    const id = created.deployment.deployment_id as number;
    t.clock.advance(10_000);
    await tick();
    let res = await status(cookie, id);
    expect(res.statusCode).toBe(200);
    expect(res.json().deployment.status).toBe('provisioning');
    expect(res.json().access_info.ssh_command).toBeNull();
    t.clock.advance(10_000);
    await tick();
    res = await status(cookie, id);
    const { deployment, access_info } = res.json();
    expect(deployment.status).toBe('running');
    expect(deployment.ready_at).toBe(deployment.estimated_ready_time);
    const row = await instanceRow(id);
    const host = `gpu-${listing.id}.demo.rentgpu.dev`;
    expect(row.sshHost).toBe(host);
    const token = /JUPYTER_TOKEN=([0-9a-f]{48})/.exec(row.userData ?? '')?.[1];
    const pin = `-o HostKeyAlias=rentgpu-${id} -o CheckHostIP=no`;
    expect(access_info).toEqual({
      ssh_command: `ssh -p ${row.sshPort} ${pin} ubuntu@${host}`,
      web_terminal: `/vm-dashboard/console/${id}`,
      jupyter: `http://localhost:8888/lab?token=${token}`,
      jupyter_tunnel: `ssh -N -L 8888:localhost:8888 -p ${row.sshPort} ${pin} ubuntu@${host}`,
      file_manager: `sftp://ubuntu@${host}:${row.sshPort}/home/ubuntu`,
      pending: null,
      // The demo host reports no guest host key.
      ssh_host_key_fingerprint: null,
    });
    // A hostile host's values, even once stored, give lines that run nothing else when pasted
    // and never become ssh options.
    await db()
      .update(instances)
      .set({ sshHost: 'h.example;id;#', sshUsername: '-oProxyCommand=touch /tmp/x;#' })
      .where(eq(instances.id, id));
    expect((await status(cookie, id)).json().access_info).toMatchObject({
      ssh_command: `ssh -p ${row.sshPort} ${pin} -l '-oProxyCommand=touch /tmp/x;#' -- 'h.example;id;#'`,
      jupyter_tunnel: `ssh -N -L 8888:localhost:8888 -p ${row.sshPort} ${pin} -l '-oProxyCommand=touch /tmp/x;#' -- 'h.example;id;#'`,
      file_manager: `sftp://-oProxyCommand%3Dtouch%20%2Ftmp%2Fx%3B%23@h.example%3Bid%3B%23:${row.sshPort}/home/-oProxyCommand%3Dtouch%20%2Ftmp%2Fx%3B%23`,
    });
    // Stopped and terminated, it says so instead of giving addresses.
    const { userId } = row;
    await t.app.deps.instances.stop(userId, id, t.clock.now());
    await tick();
    res = await status(cookie, id);
    expect(res.json().deployment.status).toBe('stopped');
    expect(res.json().access_info).toMatchObject({
      ssh_command: null,
      pending: 'This instance is stopped. Start it from Manage Instances to reach it again.',
    });
    await t.app.deps.instances.terminate(userId, id, t.clock.now());
    await tick();
    res = await status(cookie, id);
    expect(res.json().deployment.status).toBe('terminated');
    expect(res.json().access_info.pending).toBe('This instance has ended.');
  });

  it('is seen by its owner only; other ids, other instances and bad ids are 404 or 400', async () => {
    const owner = await t.signIn({ credits: '50.00' });
    const type = freshType();
    const listing = await w.listing({ model: type, hourlyRate: '1.00', totalCount: 3 });
    const id = (
      await deploy(owner.cookie, { gpu_type: type, template: 'tensorflow', storage_gb: 50 })
    ).json().deployment.deployment_id as number;
    const stranger = await t.signIn({ credits: '50.00' });
    const theirs = await status(stranger.cookie, id);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json().error).toMatchObject({
      code: 'NOT_FOUND',
      message: 'Deployment not found.',
    });
    expect((await status(owner.cookie, 2_000_000_000)).statusCode).toBe(404);
    // A metered instance that is not a deploy (a VM) is not a deployment.
    const vm = await t.app.deps.instances.createMetered(
      owner.userId,
      { gpuListingId: listing.id, source: 'vm', storageGb: 50 },
      t.clock.now(),
    );
    expect((await status(owner.cookie, vm.instance.id)).statusCode).toBe(404);
    for (const bad of ['abc', '0', '-1', '1.5', '99999999999']) {
      const res = await t.request({
        method: 'GET',
        url: `/api/deploy/${bad}`,
        cookie: owner.cookie,
      });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_FAILED');
    }
  });

  it('takes the next listing when the cheapest is taken meanwhile', async () => {
    const a = await t.signIn({ credits: '50.00' });
    const b = await t.signIn({ credits: '50.00' });
    const type = freshType();
    const cheap = await w.listing({ model: type, hourlyRate: '1.00', totalCount: 1 });
    const next = await w.listing({ model: type, hourlyRate: '1.10', totalCount: 1 });
    const body = { gpu_type: type, template: 'cuda-dev', storage_gb: 20 };
    const answers = await Promise.all([deploy(a.cookie, body), deploy(b.cookie, body)]);
    expect(answers.map((r) => r.statusCode)).toEqual([201, 201]);
    const listings = await Promise.all(
      answers.map(async (r) => (await instanceRow(r.json().deployment.deployment_id)).gpuListingId),
    );
    expect(listings.sort()).toEqual([cheap.id, next.id].sort());
    // Now it is sold out.
    const third = await t.signIn({ credits: '50.00' });
    expect((await deploy(third.cookie, body)).statusCode).toBe(409);
  });

  it('a retried deploy with the same Idempotency-Key creates one instance', async () => {
    const { cookie, userId } = await t.signIn({ credits: '50.00' });
    const type = freshType();
    await w.listing({ model: type, hourlyRate: '1.00', totalCount: 3 });
    const body = { gpu_type: type, template: 'stable-diffusion', storage_gb: 80 };
    const headers = { 'idempotency-key': `deploy-${type}` };
    const first = await deploy(cookie, body, headers);
    const again = await deploy(cookie, body, headers);
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    const mine = await db().select().from(instances).where(eq(instances.userId, userId));
    expect(mine).toHaveLength(1);
    const reused = await deploy(cookie, { ...body, storage_gb: 81 }, headers);
    expect(reused.statusCode).toBe(422);
  });
});
