import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { agentPaths, heartbeatResponse } from '../../../shared/contracts/agent-protocol';
import type { HostReadiness } from '../../../shared/contracts/hosts';
import { CONTAINER_TEMPLATE_IMAGES } from '../../../shared/contracts/instance-kind';
import { gpuListings, hosts, instances } from '../../db/schema';
import { ConfigError, parseEnv } from '../../env';
import { createHost, createListing, createProvider } from '../../seed/factories';
import { createTestApp, type TestApp } from '../../test/app';
import { agentCalls, gpuInventory, heartbeatBody, hostInventory } from '../../test/hosts';
import { createApiKey, v1Request } from '../../test/public-api';
import { setupTestApp } from '../../test/suite';
import { world } from '../../test/world';
import { CONTAINER_NEEDS_IMAGE, VM_ONLY_TEMPLATE_MESSAGE } from './commands/kind';

/**
 * Two kinds of instance, one product (issue 38, docs/decisions/025): a container is created by
 * the VM dashboard, Instant Deploy and v1 where its listing's host runs containers, is refused
 * before any money moves where it does not, reaches its host as a container (and never a host
 * whose agent runs none), and shows the digest its host resolved.
 */
let t: TestApp;
let w: ReturnType<typeof world>;
setupTestApp({}, (app) => {
  t = app;
  w = world(t);
});

const AGENT_ADDRESS = '203.0.113.38';
const IMAGE = 'ghcr.io/rentgpu/test-image:1';
const DIGEST = `sha256:${'ab'.repeat(32)}`;

const kindVerdict = (ready: boolean, readyGpus: number[]) => ({
  offered: true,
  ready,
  problems: ready
    ? []
    : [{ reason: 'No CDI spec lists the GPUs.', fix: 'Run nvidia-ctk cdi generate.' }],
  readyGpus,
});

/** A verdict with kinds: VMs on both GPUs, containers as given. */
function verdict(kinds: HostReadiness['kinds']): HostReadiness {
  return {
    ready: true,
    virtualisation: 'hardware',
    problems: [],
    notes: [],
    gpus: [
      { index: 0, ready: true, problems: [] },
      { index: 1, ready: true, problems: [] },
    ],
    readyGpus: [0, 1],
    ...(kinds ? { kinds } : {}),
  };
}

const BOTH_READY = verdict({ vm: kindVerdict(true, [0, 1]), container: kindVerdict(true, [0, 1]) });

/** A provider's host with one listing on it; its stored verdict as given (null: not judged). */
async function providerHost(model: string, readiness: HostReadiness | null) {
  const provider = await w.provider();
  const host = await createHost(t.database.db, {
    providerId: provider.providerId,
    lastHeartbeatAt: t.clock.now(),
    gpus: { name: model, count: 2 },
  });
  await t.database.db.update(hosts).set({ readiness }).where(eq(hosts.id, host.id));
  const listing = await w.listing({
    providerId: provider.providerId,
    hostId: host.id,
    model,
    totalCount: 2,
  });
  return { provider, host, listing };
}

async function renterKey(credits = '100.00') {
  const renter = await t.signIn({ credits });
  const { key } = await createApiKey(t, renter.cookie, ['read', 'write']);
  return { renter, key };
}

const availableOf = async (id: number) =>
  (await t.database.db.select().from(gpuListings).where(eq(gpuListings.id, id)))[0]?.availableCount;

/** A demo listing of its own type (the demo host runs both kinds). */
const demoListing = (model: string) => w.listing({ model, isDemoHost: true, totalCount: 4 });

const rowOf = async (id: number) =>
  (await t.database.db.select().from(instances).where(eq(instances.id, id)))[0];

describe('creating a container', () => {
  it('on the demo host from the VM dashboard: kind, image, root login; a VM stays a VM', async () => {
    await demoListing('Gpu Demo kvm');
    const renter = await t.signIn({ credits: '100.00' });
    const res = await t.request({
      method: 'POST',
      url: '/api/kvm/instances',
      cookie: renter.cookie,
      payload: { gpu_type: 'Gpu Demo kvm', kind: 'container', image: IMAGE },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ kind: 'container', image: IMAGE, image_digest: null });
    const row = await rowOf(res.json().vm_id as number);
    expect(row).toMatchObject({ kind: 'container', containerImage: IMAGE, sshUsername: 'root' });

    const vm = await t.request({
      method: 'POST',
      url: '/api/kvm/instances',
      cookie: renter.cookie,
      payload: { gpu_type: 'Gpu Demo kvm' },
    });
    expect(vm.statusCode, vm.body).toBe(201);
    expect(vm.json()).toMatchObject({ kind: 'vm', image: null, image_digest: null });
    const list = await t.request({
      method: 'GET',
      url: '/api/kvm/instances',
      cookie: renter.cookie,
    });
    expect(
      list
        .json()
        .map((v: { kind: string }) => v.kind)
        .sort(),
    ).toEqual(['container', 'vm']);
  });

  it('through Instant Deploy: the template names the image', async () => {
    await demoListing('Gpu Demo deploy');
    const renter = await t.signIn({ credits: '100.00' });
    const res = await t.request({
      method: 'POST',
      url: '/api/deploy',
      cookie: renter.cookie,
      payload: {
        gpu_type: 'Gpu Demo deploy',
        template: 'pytorch',
        kind: 'container',
        storage_gb: 50,
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().deployment).toMatchObject({ kind: 'container', template: 'pytorch' });
    const row = await rowOf(res.json().deployment.deployment_id as number);
    expect(row).toMatchObject({
      kind: 'container',
      containerImage: CONTAINER_TEMPLATE_IMAGES.pytorch,
      userData: null,
    });
  });

  it('through v1: the template image when none is named; shown with kind and digest', async () => {
    const { key } = await renterKey();
    const demo = await demoListing('Gpu Demo v1');
    const res = await v1Request(t, key, 'POST', '/instances', {
      gpuListingId: demo.id,
      kind: 'container',
      template: 'ollama',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().instance).toMatchObject({
      kind: 'container',
      image: CONTAINER_TEMPLATE_IMAGES.ollama,
      imageDigest: null,
      sshUsername: 'root',
    });
    const got = await v1Request(t, key, 'GET', `/instances/${res.json().instance.id}`);
    expect(got.json().instance).toMatchObject({
      kind: 'container',
      image: CONTAINER_TEMPLATE_IMAGES.ollama,
    });
  });

  it('refuses what cannot be a container with 400 and the reason', async () => {
    const renter = await t.signIn({ credits: '100.00' });
    const { key } = await renterKey();
    await demoListing('RTX 4090');
    const kvm = (payload: object) =>
      t.request({ method: 'POST', url: '/api/kvm/instances', cookie: renter.cookie, payload });
    const bad = await kvm({ gpu_type: 'RTX 4090', kind: 'container', image: 'Not An Image!' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('VALIDATION_FAILED');
    expect(JSON.stringify(bad.json().error)).toContain('image must be an OCI image reference');

    const windows = await kvm({ gpu_type: 'RTX 4090', kind: 'container', template: 'windows11' });
    expect(windows.statusCode).toBe(400);
    expect(windows.json().error.details.fields.template).toEqual([VM_ONLY_TEMPLATE_MESSAGE]);

    const none = await v1Request(t, key, 'POST', '/instances', {
      gpuListingId: 1,
      kind: 'container',
    });
    expect(none.statusCode).toBe(400);
    expect(none.json().error.details.fields.image).toEqual([CONTAINER_NEEDS_IMAGE]);

    const onVm = await kvm({ gpu_type: 'RTX 4090', image: IMAGE });
    expect(onVm.statusCode).toBe(400);

    const v1Bad = await v1Request(t, key, 'POST', '/instances', {
      gpuListingId: 1,
      kind: 'container',
      image: 'pytorch/PyTorch:latest',
    });
    expect(v1Bad.statusCode).toBe(400);
    expect(JSON.stringify(v1Bad.json().error)).toContain('image must be an OCI image reference');
    const v1Booked = await v1Request(t, key, 'POST', '/instances', {
      gpuListingId: 1,
      kind: 'container',
      image: IMAGE,
      durationHours: 2,
    });
    expect(v1Booked.statusCode).toBe(400);
    expect(JSON.stringify(v1Booked.json().error)).toContain('leave out durationHours');
    expect(await w.balance(renter.cookie)).toBe('100.00');

    // The VM dashboard always names a template (Ubuntu 22.04 by default): its image it is.
    const ubuntu = await kvm({ gpu_type: 'RTX 4090', kind: 'container' });
    expect(ubuntu.statusCode, ubuntu.body).toBe(201);
    expect(ubuntu.json().image).toBe(CONTAINER_TEMPLATE_IMAGES.ubuntu22);
  });

  for (const [name, readiness, reason] of [
    ['a host not judged yet', null, 'This host does not run containers.'],
    ['a verdict from before containers', verdict(undefined), 'This host does not run containers.'],
    [
      'a host whose container driver is not ready',
      verdict({ vm: kindVerdict(true, [0, 1]), container: kindVerdict(false, []) }),
      'No CDI spec lists the GPUs.',
    ],
  ] as const) {
    it(`on ${name}: 409 HOST_NOT_READY with the reason, no money moved; a VM goes`, async () => {
      const { listing } = await providerHost(`Gpu Kinds ${name}`, readiness);
      const { renter, key } = await renterKey();
      const before = await w.balance(renter.cookie);
      const res = await v1Request(t, key, 'POST', '/instances', {
        gpuListingId: listing.id,
        kind: 'container',
        image: IMAGE,
      });
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().error).toMatchObject({
        code: 'HOST_NOT_READY',
        details: { reason, kind: 'container' },
      });
      expect(res.json().error.message).toContain('not ready to run a container');
      expect(res.json().error.details.fix).not.toBe('');
      const kvm = await t.request({
        method: 'POST',
        url: '/api/kvm/instances',
        cookie: renter.cookie,
        payload: { gpu_listing_id: listing.id, kind: 'container', image: IMAGE },
      });
      expect(kvm.statusCode, kvm.body).toBe(409);
      expect(kvm.json().error.details.reason).toBe(reason);
      expect(await w.balance(renter.cookie)).toBe(before);
      expect(await availableOf(listing.id)).toBe(2);

      const vm = await v1Request(t, key, 'POST', '/instances', { gpuListingId: listing.id });
      expect(vm.statusCode, vm.body).toBe(201);
      expect(vm.json().instance.kind).toBe('vm');
    });
  }
});

describe('listings say which kinds their host runs', () => {
  it('shows kinds and filters the marketplace and v1 by kind', async () => {
    const both = await providerHost('Gpu Kinds both', BOTH_READY);
    const vmOnly = await providerHost('Gpu Kinds vm', verdict(undefined));
    const demoOne = await demoListing('Gpu Kinds demo');
    const market = async (query: string) => {
      const res = await t.request({ method: 'GET', url: `/api/gpu-listings?${query}` });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { id: number; kinds: string[] }[];
    };
    const kindsOf = (page: { id: number; kinds: string[] }[], id: number) =>
      page.find((l) => l.id === id)?.kinds;
    const all = await market('limit=100');
    expect(kindsOf(all, both.listing.id)).toEqual(['vm', 'container']);
    expect(kindsOf(all, vmOnly.listing.id)).toEqual(['vm']);
    expect(kindsOf(all, demoOne.id)).toEqual(['vm', 'container']);

    const containers = await market('limit=100&kind=container');
    expect(containers.map((l) => l.id)).toContain(both.listing.id);
    expect(containers.map((l) => l.id)).not.toContain(vmOnly.listing.id);
    expect(containers.every((l) => l.kinds.includes('container'))).toBe(true);
    const vms = await market('limit=100&kind=vm');
    expect(vms.map((l) => l.id)).toEqual(
      expect.arrayContaining([both.listing.id, vmOnly.listing.id]),
    );

    const { key } = await renterKey();
    const v1 = await v1Request(t, key, 'GET', '/gpu-listings?limit=100&kind=container');
    expect(v1.statusCode, v1.body).toBe(200);
    const listed = v1.json().gpus as { id: number; kinds: string[] }[];
    expect(kindsOf(listed, both.listing.id)).toEqual(['vm', 'container']);
    expect(listed.map((l) => l.id)).not.toContain(vmOnly.listing.id);
    const badKind = await t.request({ method: 'GET', url: '/api/gpu-listings?kind=lxc' });
    expect(badKind.statusCode).toBe(400);

    // A host gone offline runs nothing now: its provider sees no kinds, the marketplace no
    // listing (issue 42).
    await t.database.db
      .update(hosts)
      .set({ offlineSince: t.clock.now() })
      .where(eq(hosts.id, both.host.id));
    expect(
      kindsOf(await market(`limit=100&providerId=${both.listing.providerId}`), both.listing.id),
    ).toEqual([]);
    expect((await market('limit=100')).map((l) => l.id)).not.toContain(both.listing.id);
    expect((await market('limit=100&kind=container')).map((l) => l.id)).not.toContain(
      both.listing.id,
    );
  });

  it('the VM dashboard offers each listing with its kinds', async () => {
    const both = await providerHost('Gpu Kinds dash', BOTH_READY);
    const renter = await t.signIn({ credits: '100.00' });
    const res = await t.request({ method: 'GET', url: '/api/kvm/gpus', cookie: renter.cookie });
    const offer = (
      res.json() as { gpu_type: string; listings: { listing_id: number; kinds: string[] }[] }[]
    ).find((o) => o.gpu_type === 'Gpu Kinds dash');
    expect(offer?.listings.find((l) => l.listing_id === both.listing.id)?.kinds).toEqual([
      'vm',
      'container',
    ]);
  });
});

describe('a container on its host', () => {
  it('is sent as a container with its image, never to an agent without the driver; its digest is shown', async () => {
    const model = 'Gpu Kinds agent';
    const { host, listing } = await providerHost(model, BOTH_READY);
    const { key } = await renterKey();
    const created = await v1Request(t, key, 'POST', '/instances', {
      gpuListingId: listing.id,
      kind: 'container',
      image: IMAGE,
      template: 'pytorch',
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().instance.id as number;

    const heartbeat = async (drivers?: ('vm' | 'container')[], statuses = []) => {
      const res = await t.request({
        method: 'POST',
        url: agentPaths.heartbeat,
        payload: heartbeatBody({
          host: hostInventory(drivers ? { drivers } : {}),
          gpus: gpuInventory(model),
          instances: statuses,
        }),
        headers: { authorization: `Bearer ${host.credential}` },
        remoteAddress: AGENT_ADDRESS,
      });
      expect(res.statusCode, res.body).toBe(200);
      return heartbeatResponse.parse(res.json()).instances.find((d) => d.id === String(id));
    };

    // An agent that runs only VMs (or says nothing of its drivers) never gets it.
    expect(await heartbeat()).toBeUndefined();
    expect(await heartbeat(['vm'])).toBeUndefined();

    const desired = await heartbeat(['vm', 'container']);
    expect(desired).toMatchObject({
      kind: 'container',
      container: { image: IMAGE },
      state: 'running',
      sshUser: 'root',
      userData: null,
      image: null,
    });
    expect(desired?.gpuIndexes).toHaveLength(1);

    // Its host resolves the image and says so, in its report and its heartbeats.
    const agent = agentCalls(t, host.credential, AGENT_ADDRESS, gpuInventory(model));
    const report = await agent.report(id, {
      generation: desired?.generation ?? 1,
      state: 'provisioning',
      imageDigest: DIGEST,
    });
    expect(report.statusCode, report.body).toBe(200);
    const shown = await v1Request(t, key, 'GET', `/instances/${id}`);
    expect(shown.json().instance).toMatchObject({
      kind: 'container',
      image: IMAGE,
      imageDigest: DIGEST,
    });

    // A VM's report of a digest is not stored.
    const vm = await v1Request(t, key, 'POST', '/instances', { gpuListingId: listing.id });
    expect(vm.statusCode, vm.body).toBe(201);
    const vmId = vm.json().instance.id as number;
    await heartbeat(['vm', 'container']);
    await agent.report(vmId, {
      generation: (await rowOf(vmId))?.generation ?? 1,
      state: 'provisioning',
      imageDigest: DIGEST,
    });
    expect((await rowOf(vmId))?.imageDigest).toBeNull();
  });
});

describe('CONTAINER_TEMPLATE_IMAGES_FILE', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'template-images-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, text: string) => {
    const at = path.join(dir, name);
    writeFileSync(at, text);
    return at;
  };
  const LOCAL = 'localhost/rentgpu-test-pytorch:1';

  it('replaces the template images: a template it names runs its image, one it leaves out has none', async () => {
    const env = {
      NODE_ENV: 'test',
      CONTAINER_TEMPLATE_IMAGES_FILE: file('ok.json', JSON.stringify({ pytorch: LOCAL })),
    };
    expect(parseEnv(env).CONTAINER_TEMPLATE_IMAGES).toEqual({ pytorch: LOCAL });
    const other = await createTestApp({ env });
    try {
      const providerId = (await createProvider(other.database.db, {})).id;
      const listing = await createListing(other.database.db, {
        providerId,
        model: 'Gpu Local images',
        isDemoHost: true,
        totalCount: 2,
      });
      const renter = await other.signIn({ credits: '100.00' });
      const { key } = await createApiKey(other, renter.cookie, ['read', 'write']);
      const create = (template: string) =>
        v1Request(other, key, 'POST', '/instances', {
          gpuListingId: listing.id,
          kind: 'container',
          template,
        });
      const pytorch = await create('pytorch');
      expect(pytorch.statusCode, pytorch.body).toBe(201);
      expect(pytorch.json().instance.image).toBe(LOCAL);
      const ollama = await create('ollama');
      expect(ollama.statusCode).toBe(400);
      expect(ollama.json().error.details.fields.image).toEqual([CONTAINER_NEEDS_IMAGE]);
    } finally {
      await other.close();
    }
  });

  it.each([
    ['a missing file', path.join(dir, 'none.json'), /cannot read/],
    ['text that is not JSON', file('bad.json', '{nope'), /not JSON/],
    [
      'a template that is not one',
      file('key.json', '{"windows11":"a/b:1"}'),
      /templates that run as containers/,
    ],
    [
      'a bad reference',
      file('ref.json', '{"pytorch":"Not An Image"}'),
      /pytorch: image must be an OCI image reference/,
    ],
    ['an array', file('array.json', '["a/b:1"]'), /\(root\)/],
  ])('refuses %s at start, naming the variable', (_, at, message) => {
    let error: unknown = null;
    try {
      parseEnv({ NODE_ENV: 'test', CONTAINER_TEMPLATE_IMAGES_FILE: at });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/CONTAINER_TEMPLATE_IMAGES_FILE: /);
    expect((error as Error).message).toMatch(message);
  });
});
