import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { GpuOffering } from '../../../shared/contracts/kvm';
import { gpuListings, instances } from '../../db/schema';
import { createHost, createListing, createProvider } from '../../seed/factories';
import type { TestApp } from '../../test/app';
import { gpuInventory, heartbeatBody, hostInventory } from '../../test/hosts';
import { setupTestApp, type World } from '../../test/suite';
import { ledgerService } from '../ledger/service';

/**
 * What is shown is what is given (issue 25, part 5): one GPU's share of its host is shown
 * before renting and bounds a VM create (400 naming the maximum, nothing charged); the VM
 * reports the shape its guest really has; `gpu_listing_id` chooses the listing, and without
 * it the cheapest rentable one runs it, a provider's host before the demo host at the same
 * price; a demo listing placed on a host is no longer a demo host's.
 */
let t: TestApp;
let w: World;
setupTestApp({ env: { PROVISIONING_TIMEOUT_MS: '600000' } }, (app, appWorld) => {
  t = app;
  w = appWorld;
});

const db = () => t.database.db;
const api = (cookie: string, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
  t.request({
    method,
    url,
    cookie,
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
const create = (cookie: string, body: Record<string, unknown>) =>
  api(cookie, 'POST', '/api/kvm/instances', body);

/** 8 cores and 48 GB for 2 GPUs: 4 vCPUs and 19660 MiB (19.1 GB) each. */
const MID = { cores: 8, memoryGiB: 48 };
/** 4 cores and 16 GB for 2 GPUs: 2 vCPUs and 6553 MiB (6.3 GB) each. */
const SMALL = { cores: 4, memoryGiB: 16 };

/** A provider's host with 2 GPUs of `gpuName` and the machine given, one listing of both. */
async function hostListing(
  model: string,
  gpuName: string,
  machine: { cores: number; memoryGiB: number },
  hourlyRate = '1.00',
) {
  const provider = await createProvider(db(), {});
  const host = await createHost(db(), {
    providerId: provider.id,
    gpus: { name: gpuName, count: 2 },
    machine,
  });
  const listing = await createListing(db(), {
    providerId: provider.id,
    model,
    memory: '48GB',
    hourlyRate,
    hostId: host.id,
    totalCount: 2,
  });
  return { provider, host, listing };
}

async function instancesOf(userId: string) {
  return db().select().from(instances).where(eq(instances.userId, userId));
}

describe("a GPU's share of its host, before renting and at create", () => {
  it('is offered per listing by GET /api/kvm/gpus, cheapest first, a real host before the demo host at the same price', async () => {
    const user = await t.signIn({ credits: '50.00' });
    // The demo listing is older (a lower id) and as cheap: the real host still comes first.
    const demo = await w.listing({ model: 'RTX 3080', hourlyRate: '0.80', isDemoHost: true });
    const { listing: real } = await hostListing('RTX 3080', 'NVIDIA GeForce RTX 3080', MID, '0.80');
    const dear = await w.listing({ model: 'RTX 3080', hourlyRate: '0.90', isDemoHost: true });
    const res = await api(user.cookie, 'GET', '/api/kvm/gpus');
    expect(res.statusCode).toBe(200);
    const offering = (res.json() as GpuOffering[]).find((g) => g.gpu_type === 'RTX 3080');
    expect(offering?.hourly_rate).toBe('0.80');
    expect(offering?.listings.map((l) => l.listing_id)).toEqual([real.id, demo.id, dear.id]);
    expect(offering?.listings[0]).toMatchObject({
      listing_id: real.id,
      hourly_rate: '0.80',
      is_demo_host: false,
      max_cpu_cores: 4,
      max_ram_gb: 19.1,
    });
    expect(offering?.listings[1]).toMatchObject({
      is_demo_host: true,
      max_cpu_cores: 16,
      max_ram_gb: 128,
    });

    // A create without gpu_listing_id runs where the form said: the real host.
    const made = await create(user.cookie, { gpu_type: 'RTX 3080', cpu_cores: 4, ram_gb: 16 });
    expect(made.statusCode).toBe(201);
    const [saved] = await instancesOf(user.userId);
    expect(saved?.gpuListingId).toBe(real.id);
    expect(made.json()).toMatchObject({ is_demo_host: false, cpu_cores: 4, ram_gb: 16 });
  });

  it('refuses a create asking for more than the share with 400 naming the maximum, before any charge', async () => {
    const user = await t.signIn({ credits: '50.00' });
    await hostListing('RTX 3070', 'NVIDIA GeForce RTX 3070', MID);
    const before = await ledgerService.walletBalance(db(), user.userId);

    const cores = await create(user.cookie, { gpu_type: 'RTX 3070', cpu_cores: 6, ram_gb: 20 });
    expect(cores.statusCode).toBe(400);
    expect(cores.json()).toEqual({
      error: {
        code: 'VALIDATION_FAILED',
        message: expect.stringContaining('at most 4 vCPUs'),
        details: {
          fields: {
            cpu_cores: ["This GPU's share of its host is at most 4 vCPUs"],
            ram_gb: ["This GPU's share of its host is at most 19.1 GB of RAM"],
          },
        },
      },
    });
    const memory = await create(user.cookie, { gpu_type: 'RTX 3070', cpu_cores: 4, ram_gb: 20 });
    expect(memory.statusCode).toBe(400);
    expect(memory.json().error.message).toContain('at most 19.1 GB of RAM');
    expect(await instancesOf(user.userId)).toEqual([]);
    expect(await ledgerService.walletBalance(db(), user.userId)).toBe(before);
  });

  it('fits a shape left out to the share, and every view and the host report what the guest has', async () => {
    const user = await t.signIn({ credits: '50.00' });
    const { host } = await hostListing('T4', 'NVIDIA T4', SMALL);
    const res = await create(user.cookie, { gpu_type: 'T4' });
    expect(res.statusCode).toBe(201);
    // 4 vCPUs and 16 GB by default; the share is 2 vCPUs and 6553 MiB (6.3 GB, rounded down).
    expect(res.json()).toMatchObject({ cpu_cores: 2, ram_gb: 6.3 });
    const id = res.json().vm_id as number;
    const listed = (await api(user.cookie, 'GET', '/api/kvm/instances')).json() as {
      vm_id: number;
      cpu_cores: number;
      ram_gb: number;
    }[];
    expect(listed.find((v) => v.vm_id === id)).toMatchObject({ cpu_cores: 2, ram_gb: 6.3 });
    const answer = await t.app.deps.hosts.heartbeat(
      host.credential,
      heartbeatBody({
        host: hostInventory({
          cpu: { model: 'AMD EPYC', cores: 4 },
          memory: { totalBytes: 16 * 1024 ** 3, availableBytes: 16 * 1024 ** 3 },
        }),
        gpus: gpuInventory('NVIDIA T4'),
      }),
    );
    expect(answer.instances.find((i) => i.id === String(id))).toMatchObject({
      cpus: 2,
      memoryMib: 6553,
    });
  });
});

describe('gpu_listing_id', () => {
  it('runs the VM on the listing named, even a dearer one; another type, or one not offered, is refused', async () => {
    const user = await t.signIn({ credits: '50.00' });
    await w.listing({ model: 'A40', hourlyRate: '0.50', isDemoHost: true });
    const { listing: chosen } = await hostListing('A40', 'NVIDIA A40', MID, '1.25');
    const res = await create(user.cookie, { gpu_listing_id: chosen.id, cpu_cores: 4, ram_gb: 16 });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ gpu_type: 'A40', hourly_rate: '1.25' });
    const [saved] = await instancesOf(user.userId);
    expect(saved?.gpuListingId).toBe(chosen.id);

    const other = await create(user.cookie, { gpu_listing_id: chosen.id, gpu_type: 'RTX 4090' });
    expect(other.statusCode).toBe(400);
    expect(other.json().error.details.fields.gpu_listing_id).toEqual([
      `Listing ${chosen.id} offers A40, not RTX 4090`,
    ]);
    const missing = await create(user.cookie, { gpu_listing_id: 2_000_000_000 });
    expect(missing.statusCode).toBe(404);
    const bad = await create(user.cookie, { gpu_listing_id: 'x' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details.fields.gpu_listing_id).toBeDefined();
    // Its share still bounds the create, the maximum in the message.
    const big = await create(user.cookie, { gpu_listing_id: chosen.id, cpu_cores: 6, ram_gb: 8 });
    expect(big.statusCode).toBe(400);
    expect(big.json().error.message).toContain('at most 4 vCPUs');
  });
});

describe('isDemoHost follows where the listing runs', () => {
  it('turns false when a demo listing is placed on a provider’s host; the database refuses both', async () => {
    const owner = await w.provider();
    const host = await createHost(db(), { providerId: owner.providerId });
    const listing = await createListing(db(), {
      providerId: owner.providerId,
      model: 'RTX 4090',
      hourlyRate: '1.00',
      isDemoHost: true,
    });
    expect(listing.isDemoHost).toBe(true);
    const moved = await api(owner.cookie, 'PATCH', `/api/gpu-listings/${listing.id}`, {
      hostId: host.id,
    });
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toMatchObject({
      hostId: host.id,
      isDemoHost: false,
      hostStatus: 'online',
    });
    expect(moved.json().gpuShare).toEqual({ vcpus: 16, memoryGb: 51.1 });
    await expect(
      db().update(gpuListings).set({ isDemoHost: true }).where(eq(gpuListings.id, listing.id)),
    ).rejects.toThrow();
  });
});
