import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  agentPaths,
  type GpuInventory,
  type HostInventory,
  type ReadinessProbe,
} from '../../../shared/contracts/agent-protocol';
import { hostsResponse } from '../../../shared/contracts/hosts';
import { gpuListings, instances } from '../../db/schema';
import { createHost } from '../../seed/factories';
import type { TestApp } from '../../test/app';
import { gpuInventory, heartbeatBody, hostInventory } from '../../test/hosts';
import { createApiKey, v1Request } from '../../test/public-api';
import { setupTestApp } from '../../test/suite';
import { world } from '../../test/world';

/**
 * Host readiness over the protocol (docs/decisions/021): a host heartbeats what it can really
 * run; one that cannot serve a VM is shown "not ready" with the reason and fix to its provider,
 * and every rent or create on it is 409 HOST_NOT_READY with the reason before anything is
 * charged (the ledger's invariants are checked after each test).
 */
let t: TestApp;
let w: ReturnType<typeof world>;
setupTestApp({}, (app) => {
  t = app;
  w = world(t);
});

const AGENT_ADDRESS = '203.0.113.21';

/** Everything a VM needs: KVM, an IOMMU, both GPUs on vfio-pci, an image. */
const READY: ReadinessProbe = {
  kvmModule: 'kvm_intel',
  devKvm: 'usable',
  softwareEmulation: false,
  gpuPassthrough: true,
  iommuGroups: 40,
  gpus: [
    { index: 0, iommuGroup: '12', driver: 'vfio-pci' },
    { index: 1, iommuGroup: '13', driver: 'vfio-pci' },
  ],
  image: 'held',
};

/** The real H100 host (shared/fixtures/real-gpu/README.md): KVM yes, no IOMMU, GPU on nvidia. */
const REAL_H100 = {
  host: hostInventory({
    readiness: {
      ...READY,
      iommuGroups: 0,
      gpus: [{ index: 0, iommuGroup: null, driver: 'nvidia' }],
    },
  }),
  gpus: {
    gpus: [
      {
        index: 0,
        name: 'NVIDIA H100 80GB HBM3',
        uuid: 'GPU-0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
        memoryTotalMib: 81559,
        memoryUsedMib: 0,
        utilizationPercent: 0,
        temperatureC: 44,
        pciBusId: '00000000:00:06.0',
      },
    ],
    error: null,
  } satisfies GpuInventory,
};

const CASES: Record<string, { host: HostInventory; gpus: GpuInventory; reason: RegExp }> = {
  'no virtualisation': {
    host: hostInventory({ accelerator: 'none', readiness: { ...READY, kvmModule: null } }),
    gpus: gpuInventory(),
    reason: /^No hardware virtualisation: neither kvm_intel nor kvm_amd is loaded\.$/,
  },
  'no IOMMU (the real H100 host)': { ...REAL_H100, reason: /No IOMMU/ },
  'no GPUs (no NVIDIA driver)': {
    host: hostInventory({ readiness: { ...READY, gpus: [] } }),
    gpus: {
      gpus: [],
      error: 'nvidia-smi failed: nvidia-smi not found (no NVIDIA driver installed?)',
    },
    reason: /^The NVIDIA driver does not answer: nvidia-smi failed/,
  },
};

async function providerHost(model: string, totalCount: number) {
  const provider = await w.provider();
  // Its GPUs named as the listing's model (a name of its own, docs/decisions/020), so only
  // readiness can refuse it.
  const host = await createHost(t.database.db, {
    providerId: provider.providerId,
    lastHeartbeatAt: t.clock.now(),
    gpus: { name: model, count: 2 },
  });
  const listing = await w.listing({
    providerId: provider.providerId,
    hostId: host.id,
    model,
    totalCount,
  });
  const credential = host.credential;
  const heartbeat = async (host: HostInventory, gpus: GpuInventory) => {
    const res = await t.request({
      method: 'POST',
      url: agentPaths.heartbeat,
      payload: heartbeatBody({
        host,
        gpus: { ...gpus, gpus: gpus.gpus.map((g) => ({ ...g, name: model })) },
      }),
      headers: { authorization: `Bearer ${credential}` },
      remoteAddress: AGENT_ADDRESS,
    });
    expect(res.statusCode).toBe(200);
  };
  const view = async () => {
    const res = await t.request({
      method: 'GET',
      url: '/api/providers/hosts',
      cookie: provider.cookie,
    });
    expect(res.statusCode).toBe(200);
    return hostsResponse.parse(res.json()).hosts.find((h) => h.id === host.id);
  };
  /** The listing as the marketplace shows it, and as the public API lists it. */
  const market = async () => {
    const path = `gpu-listings?providerId=${provider.providerId}`;
    const page = await t.request({ method: 'GET', url: `/api/${path}` });
    expect(page.statusCode).toBe(200);
    const shown = (page.json() as { id: number }[]).find((l) => l.id === listing.id);
    const { key } = await createApiKey(t, provider.cookie, ['read']);
    const v1 = await v1Request(t, key, 'GET', `/${path}`);
    expect(v1.statusCode, v1.body).toBe(200);
    const listed = (v1.json().gpus as { id: number; availableCount: number }[]).find(
      (l) => l.id === listing.id,
    );
    return { ...shown, v1AvailableCount: listed?.availableCount };
  };
  return { listing, heartbeat, view, market };
}

const availableOf = async (id: number) =>
  (await t.database.db.select().from(gpuListings).where(eq(gpuListings.id, id)))[0]?.availableCount;

describe('a host that is not ready', () => {
  for (const [name, c] of Object.entries(CASES)) {
    it(`${name}: the provider sees why; rent, v1 and VM create are 409 before any charge`, async () => {
      const { listing, heartbeat, view, market } = await providerHost(`Gpu Ready ${name}`, 1);
      await heartbeat(c.host, c.gpus);
      // Its provider's list says it cannot be had now, not a unit free; the marketplace
      // (v1 included) leaves it out until its host can run it.
      const listed = await market();
      expect(listed).toMatchObject({ hostStatus: 'not_ready', availableCount: 0, totalCount: 1 });
      expect(listed.v1AvailableCount).toBeUndefined();

      const shown = await view();
      expect(shown?.status).toBe('online');
      expect(shown?.readiness?.ready).toBe(false);
      expect(shown?.readiness?.problems[0]?.reason).toMatch(c.reason);
      expect(shown?.readiness?.problems[0]?.fix).not.toBe('');

      const renter = await t.signIn({ credits: '100.00' });
      const before = await w.balance(renter.cookie);
      const rentOnce = async () => {
        const started = performance.now();
        const res = await w.rentAs(renter.cookie, listing, 2);
        return { res, ms: performance.now() - started };
      };
      const { res: rent } = await rentOnce();
      const times: number[] = [];
      for (let i = 0; i < 10; i += 1) times.push((await rentOnce()).ms);
      const refusedMs = times.sort((a, b) => a - b)[5] ?? 0;
      expect(rent.statusCode).toBe(409);
      expect(rent.json().error.code).toBe('HOST_NOT_READY');
      expect(rent.json().error.details.reason).toMatch(c.reason);
      expect(rent.json().error.message).toContain(rent.json().error.details.reason);
      console.log(`[readiness] ${name}: rent refused in ${refusedMs.toFixed(1)} ms (median of 10)`);

      const { key } = await createApiKey(t, renter.cookie, ['read', 'write']);
      const metered = await v1Request(t, key, 'POST', '/instances', { gpuListingId: listing.id });
      expect(metered.statusCode).toBe(409);
      expect(metered.json().error.code).toBe('HOST_NOT_READY');
      const vm = await t.request({
        method: 'POST',
        url: '/api/kvm/instances',
        cookie: renter.cookie,
        payload: { gpu_type: listing.model },
      });
      expect(vm.statusCode).toBe(409);

      expect(await w.balance(renter.cookie)).toBe(before);
      expect(await availableOf(listing.id)).toBe(1);
    });
  }

  it('names each GPU that cannot be passed through, and sells only the ready one', async () => {
    const { listing, heartbeat, view, market } = await providerHost('Gpu Ready half', 2);
    // The lower GPU is the one that cannot serve: the lowest free GPU is not handed out blindly.
    const probe = {
      ...READY,
      gpus: [{ index: 0, iommuGroup: '12', driver: 'nvidia' }, READY.gpus[1]],
    };
    await heartbeat(hostInventory({ readiness: probe as ReadinessProbe }), gpuInventory());
    const shown = await view();
    expect(shown?.readiness?.ready).toBe(true);
    expect(shown?.readiness?.gpus.map((g) => g.ready)).toEqual([false, true]);
    expect(shown?.readiness?.gpus[0]?.problems[0]?.reason).toMatch(
      /GPU 0 .* bound to nvidia, not vfio-pci/,
    );
    // Two units listed, one GPU ready: the marketplace offers one.
    expect(await market()).toMatchObject({
      hostStatus: 'online',
      availableCount: 1,
      totalCount: 2,
      v1AvailableCount: 1,
    });
    const renter = await t.signIn({ credits: '100.00' });
    const rent = () => w.rentAs(renter.cookie, listing, 2);
    const first = await rent();
    expect(first.statusCode, first.body).toBe(201);
    const [placed] = await t.database.db
      .select({ gpuIndexes: instances.gpuIndexes })
      .from(instances)
      .where(eq(instances.id, first.json().id as number));
    expect(placed?.gpuIndexes).toEqual([1]);
    expect(await market()).toMatchObject({ availableCount: 0, v1AvailableCount: 0 });
    // The second unit has no GPU that can serve it: refused before any charge, as a listing
    // rented out is.
    const before = await w.balance(renter.cookie);
    const second = await rent();
    expect(second.statusCode, second.body).toBe(409);
    expect(second.json().error.code).toBe('LISTING_UNAVAILABLE');
    expect(await w.balance(renter.cookie)).toBe(before);
    expect(await availableOf(listing.id)).toBe(1);
  });

  it('takes rentals again once a heartbeat says it is ready; the demo host stays ready', async () => {
    const { listing, heartbeat, view, market } = await providerHost('Gpu Ready later', 1);
    await heartbeat(CASES['no virtualisation']?.host as HostInventory, gpuInventory());
    expect(await market()).toMatchObject({ hostStatus: 'not_ready', availableCount: 0 });
    await heartbeat(hostInventory({ readiness: READY }), gpuInventory());
    expect(await market()).toMatchObject({ hostStatus: 'online', availableCount: 1 });
    expect((await view())?.readiness).toMatchObject({ ready: true, readyGpus: [0, 1] });
    const { renter, res: rent } = await w.rent(listing, 2, '100.00');
    expect(rent.statusCode).toBe(201);

    const demo = await w.listing({ model: 'Gpu Ready demo', isDemoHost: true });
    const onDemo = await w.rentAs(renter.cookie, demo, 1);
    expect(onDemo.statusCode).toBe(201);
  });
});
