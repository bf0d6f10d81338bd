import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { heartbeatResponse, type InstanceStatus } from '../../../shared/contracts/agent-protocol';
import type { HostImageStatus } from '../../../shared/contracts/images';
import { hosts, instances } from '../../db/schema';
import { ConfigError, parseEnv } from '../../env';
import { createHost, createListing, createProvider } from '../../seed/factories';
import { createTestApp, type TestApp } from '../../test/app';
import { agentCalls, gpuInventory, heartbeatBody } from '../../test/hosts';
import { createApiKey, v1Request } from '../../test/public-api';
import { checkInvariants } from '../ledger/invariants';
import { DEFAULT_IMAGE_CATALOGUE } from './catalogue';

/**
 * The OS image catalogue (docs/decisions/015-os-images.md): hosts learn it from every
 * heartbeat answer and each desired instance names its image; what a host holds decides what
 * is offered on its listings; renters see the provisioning step and the guest's host key
 * fingerprint the server computed.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { PROVISIONING_TIMEOUT_MS: '600000' } });
});
afterEach(async () => {
  expect(await checkInvariants(t.database.db)).toEqual([]);
});
afterAll(async () => {
  await t.close();
});

const db = () => t.database.db;
const ED25519 =
  'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAICt2z8tgSeMCSPcfyThkz7NCI6nif5IdfbrpcZgJ8QZw root@guest';
const ED25519_FINGERPRINT = 'SHA256:GGysYddVUmc2FpV1If/zV0wgZOFHlJxgVP+IdwT989k';
const ECDSA =
  'ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBBWYei/8gZmpnDG6NSgpXKy8tQ9I7j3VzipeA8WfSWHrEEco9SJG7a4zhsOyf5IVNUsB87cM0UVVTaNjSkakMxI= root@guest';
const ECDSA_FINGERPRINT = 'SHA256:2OI5uwbSjygdS5JSJ3G4DO1rHfU7UnSlTauRpHclREg';

let models = 0;
/** Where every host's agent calls from: its own address, the one it may report. */
const AGENT_ADDRESS = '203.0.113.9';

/** A provider's enrolled, online host with a listing of two GPUs of a model of its own. */
async function hostWithListing() {
  const providerId = (await createProvider(db(), {})).id;
  models += 1;
  const model = `Gpu Image ${models}`;
  // Its two GPUs report the model's name (a card the name table does not know).
  const host = await createHost(db(), {
    providerId,
    lastHeartbeatAt: t.clock.now(),
    gpus: { name: model, count: 2 },
  });
  const listing = await createListing(db(), {
    providerId,
    model,
    hourlyRate: '1.00',
    hostId: host.id,
    totalCount: 2,
  });
  const calls = agentCalls(t, host.credential, AGENT_ADDRESS, gpuInventory(model));
  const heartbeat = async (statuses: InstanceStatus[] = [], images?: HostImageStatus[]) => {
    const res = await calls.heartbeat(statuses, images);
    expect(res.json()).not.toHaveProperty('error');
    return heartbeatResponse.parse(res.json());
  };
  const report = calls.report;
  return { host, listing, model, heartbeat, report };
}

async function renter() {
  const user = await t.signIn({ credits: '100.00' });
  return { ...user, ...(await createApiKey(t, user.cookie, ['read', 'write'])) };
}

async function row(id: number) {
  const [found] = await db().select().from(instances).where(eq(instances.id, id));
  if (!found) throw new Error('instance gone');
  return found;
}

const readyImage = (name: string): HostImageStatus => ({
  name,
  state: 'ready',
  sha256: null,
  bytes: 1000,
  totalBytes: 1000,
  error: null,
});

describe('the catalogue reaches hosts', () => {
  it('every heartbeat answer carries the catalogue; each desired instance names its image', async () => {
    const h = await hostWithListing();
    const me = await renter();
    const made = await v1Request(t, me.key, 'POST', '/instances', {
      gpuListingId: h.listing.id,
      template: 'pytorch',
    });
    expect(made.statusCode).toBe(201);
    const booked = await t.request({
      method: 'POST',
      url: '/api/rentals',
      payload: {
        gpuListingId: h.listing.id,
        providerId: h.listing.providerId,
        durationHours: 1,
        hourlyRate: '1.00',
        totalCost: '1.00',
      },
      cookie: me.cookie,
    });
    expect(booked.statusCode).toBe(201);

    const answer = await h.heartbeat();
    expect(answer.images).toEqual(DEFAULT_IMAGE_CATALOGUE);
    expect(answer.images?.[0]).toMatchObject({
      name: 'ubuntu-22.04',
      sha256: '5da0b3d37d02ca6c6760caa4041b4df14e08abc7bc9b2db39133eef8ee145f6d',
      format: 'qcow2',
      firmware: 'uefi',
    });
    expect(answer.images?.find((i) => i.name === 'windows-11')).toMatchObject({
      url: null,
      sha256: null,
    });
    const images = Object.fromEntries(answer.instances.map((i) => [i.id, i.image]));
    expect(images).toEqual({
      [String(made.json().instance.id)]: 'ubuntu-22.04',
      [String(booked.json().id)]: 'ubuntu-22.04',
    });
  });

  it("stores a host's image statuses with its inventory, the error as plain text", async () => {
    const h = await hostWithListing();
    const statuses: HostImageStatus[] = [
      { ...readyImage('ubuntu-22.04'), sha256: 'a'.repeat(64) },
      {
        name: 'debian-12',
        state: 'failed',
        sha256: null,
        bytes: 0,
        totalBytes: null,
        error: 'checksum mismatch\u001b[31m',
      },
    ];
    await h.heartbeat([], statuses);
    const [stored] = await db()
      .select({ inventory: hosts.inventory })
      .from(hosts)
      .where(eq(hosts.id, h.host.id));
    expect(stored?.inventory?.images).toEqual([
      statuses[0],
      { ...statuses[1], error: 'checksum mismatch [31m' },
    ]);
  });
});

describe('IMAGE_CATALOGUE_FILE', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'catalogue-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, text: string) => {
    const at = path.join(dir, name);
    writeFileSync(at, text);
    return at;
  };
  const local = [
    {
      name: 'ubuntu-22.04',
      title: 'Debian 12 (test image)',
      url: 'http://127.0.0.1:8099/debian-12.qcow2',
      sha256: 'b'.repeat(64),
      sizeBytes: 123_456,
      format: 'qcow2',
      firmware: 'bios',
    },
  ];

  it('replaces the default catalogue, and hosts are told the replacement', async () => {
    const env = { NODE_ENV: 'test', IMAGE_CATALOGUE_FILE: file('ok.json', JSON.stringify(local)) };
    expect(parseEnv(env).IMAGE_CATALOGUE).toEqual(local);
    const other = await createTestApp({ env });
    try {
      const providerId = (await createProvider(other.database.db, {})).id;
      const host = await createHost(other.database.db, { providerId });
      const res = await other.request({
        method: 'POST',
        url: '/api/v1/agents/heartbeat',
        payload: heartbeatBody(),
        headers: { authorization: `Bearer ${host.credential}` },
      });
      expect(res.json().images).toEqual(local);
    } finally {
      await other.close();
    }
  });

  it.each([
    ['a missing file', path.join(dir, 'none.json'), /cannot read/],
    ['text that is not JSON', file('bad.json', '{nope'), /not JSON/],
    ['an image without a valid SHA-256', file('sha.json', '[{"name":"x"}]'), /0\./],
    [
      'a file: URL',
      file('url.json', JSON.stringify([{ ...local[0], url: 'file:///etc/passwd' }])),
      /url: must be an http\(s\) URL/,
    ],
    [
      'a name listed twice',
      file('twice.json', JSON.stringify([local[0], local[0]])),
      /listed twice/,
    ],
    [
      'a url without its SHA-256',
      file('half.json', JSON.stringify([{ ...local[0], sha256: null }])),
      /both url and sha256/,
    ],
  ])('refuses %s at start, naming the variable', (_, at, message) => {
    let error: unknown = null;
    try {
      parseEnv({ NODE_ENV: 'test', IMAGE_CATALOGUE_FILE: at });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/IMAGE_CATALOGUE_FILE: /);
    expect((error as Error).message).toMatch(message);
  });
});

describe('what is offered where', () => {
  it('windows11 only where a host reports the image ready (fetching is not enough)', async () => {
    const h = await hostWithListing();
    const me = await renter();
    const templates = async () => {
      const kvm = (await t.request({ method: 'GET', url: '/api/kvm/templates', cookie: me.cookie }))
        .json()
        .find((x: { id: string }) => x.id === 'windows11');
      const api = (await v1Request(t, me.key, 'GET', '/templates'))
        .json()
        .templates.find((x: { id: string }) => x.id === 'windows11');
      return { kvm, api };
    };
    const createVm = () =>
      t.request({
        method: 'POST',
        url: '/api/kvm/instances',
        payload: { gpu_type: h.model, template: 'windows11' },
        cookie: me.cookie,
      });
    const createApi = () =>
      v1Request(t, me.key, 'POST', '/instances', {
        gpuListingId: h.listing.id,
        template: 'windows11',
      });

    await h.heartbeat([], [{ ...readyImage('windows-11'), state: 'fetching', bytes: 10 }]);
    const before = await templates();
    expect(before.kvm).toMatchObject({
      available: false,
      reason: expect.stringMatching(/Windows/),
    });
    expect(before.api).toMatchObject({
      available: false,
      reason: expect.stringMatching(/Windows/),
    });
    for (const refused of [await createVm(), await createApi()]) {
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error.details.fields).toHaveProperty('template');
    }

    await h.heartbeat([], [readyImage('ubuntu-22.04'), readyImage('windows-11')]);
    const after = await templates();
    expect(after.kvm).toMatchObject({ available: true, reason: null });
    expect(after.api).toMatchObject({ available: true, reason: null });
    const vm = await createVm();
    expect(vm.statusCode).toBe(201);
    const api = await createApi();
    expect(api.statusCode).toBe(201);
    const answer = await h.heartbeat([], [readyImage('windows-11')]);
    expect(answer.instances.map((i) => i.image)).toEqual(['windows-11', 'windows-11']);
    for (const id of [vm.json().vm_id, api.json().instance.id]) {
      await v1Request(t, me.key, 'DELETE', `/instances/${id}`);
    }
  });
});

describe('provisioning progress and host keys', () => {
  async function provisioning() {
    const h = await hostWithListing();
    const me = await renter();
    const made = await v1Request(t, me.key, 'POST', '/instances', {
      gpuListingId: h.listing.id,
      template: 'ubuntu22',
    });
    expect(made.statusCode).toBe(201);
    const id = made.json().instance.id as number;
    const answer = await h.heartbeat();
    const generation = answer.instances.find((i) => i.id === String(id))?.generation ?? 0;
    const views = async () => {
      const vm = (await t.request({ method: 'GET', url: '/api/kvm/instances', cookie: me.cookie }))
        .json()
        .find((v: { vm_id: number }) => v.vm_id === id);
      const api = (await v1Request(t, me.key, 'GET', `/instances/${id}`)).json().instance;
      return { vm, api };
    };
    return { h, me, id, generation, views };
  }
  const ssh = { host: AGENT_ADDRESS, port: 22001, user: 'ubuntu' };

  it('shows "downloading image (42%)" on the VM list and the public API, cleared once running', async () => {
    const { h, id, generation, views } = await provisioning();
    const entry = (progress: InstanceStatus['progress']): InstanceStatus => ({
      id: String(id),
      generation,
      state: 'provisioning',
      ssh: null,
      vnc: null,
      error: null,
      progress,
    });
    await h.heartbeat([entry({ step: 'downloading-image', percent: 42 })]);
    let seen = await views();
    expect(seen.vm).toMatchObject({
      status: 'creating',
      provisioning_step: 'downloading image (42%)',
    });
    expect(seen.api).toMatchObject({
      status: 'provisioning',
      provisioningStep: 'downloading image (42%)',
    });
    // A report moves it on too.
    const booting = await h.report(id, { ...entry({ step: 'booting', percent: null }) });
    expect(booting.statusCode).toBe(200);
    expect((await views()).api.provisioningStep).toBe('booting');
    // A stale generation says nothing.
    await h.heartbeat([
      { ...entry({ step: 'running-setup', percent: null }), generation: generation + 5 },
    ]);
    expect((await views()).api.provisioningStep).toBe('booting');

    const ready = await h.report(id, { generation, state: 'running', ssh });
    expect(ready.json()).toEqual({ accepted: true });
    seen = await views();
    expect(seen.vm).toMatchObject({ status: 'running', provisioning_step: null });
    expect(seen.api).toMatchObject({ status: 'running', provisioningStep: null });
    expect((await row(id)).provisioningProgress).toBeNull();
  });

  it('computes the fingerprint of the ed25519 host key, shows it beside SSH, clears it on start', async () => {
    const { h, me, id, generation, views } = await provisioning();
    const ready = await h.report(id, {
      generation,
      state: 'running',
      ssh,
      hostKeys: [ECDSA, ED25519],
    });
    expect(ready.json()).toEqual({ accepted: true });
    const seen = await views();
    expect(seen.api).toMatchObject({
      sshHostKeyFingerprint: ED25519_FINGERPRINT,
      sshHostKey: ED25519.split(' ').slice(0, 2).join(' '),
    });
    expect(seen.vm.connection_info.ssh_host_key_fingerprint).toBe(ED25519_FINGERPRINT);
    expect((await t.app.deps.instances.consoleTarget(me.userId, id)).hostKey).toBe(
      seen.api.sshHostKey,
    );

    // Stopped and started: a new run, no key until its host reports the new one.
    expect((await v1Request(t, me.key, 'PATCH', `/instances/${id}/stop`)).statusCode).toBe(200);
    let now = await row(id);
    await h.report(id, { generation: now.generation, state: 'stopped' });
    expect((await v1Request(t, me.key, 'POST', `/instances/${id}/start`)).statusCode).toBe(200);
    now = await row(id);
    expect(now).toMatchObject({
      status: 'starting',
      sshHostKey: null,
      sshHostKeyFingerprint: null,
    });
    const again = await h.report(id, {
      generation: now.generation,
      state: 'running',
      ssh,
      hostKeys: [ECDSA],
    });
    expect(again.json()).toEqual({ accepted: true });
    expect((await views()).api.sshHostKeyFingerprint).toBe(ECDSA_FINGERPRINT);
  });

  it.each([
    ['a line that is no key', 'not a key'],
    ['a key whose data does not match its type', 'ssh-ed25519 AAAAB3NzaC1yc2EAAAADAQABAAABAQ=='],
    ['a private key', '-----BEGIN OPENSSH PRIVATE KEY-----'],
  ])('refuses %s with 400 naming hostKeys, and nothing moves', async (_, bad) => {
    const { h, id, generation } = await provisioning();
    const res = await h.report(id, { generation, state: 'running', ssh, hostKeys: [ED25519, bad] });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { fields: { 'hostKeys.1': [expect.any(String)] } },
    });
    expect(await row(id)).toMatchObject({ status: 'provisioning', sshHostKeyFingerprint: null });
  });
});
