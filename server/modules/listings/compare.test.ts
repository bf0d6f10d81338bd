import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GpuListingView } from '../../../shared/contracts/listings';
import { dollarsToMicros } from '../../../shared/rules/money';
import { hostOutages, hosts } from '../../db/schema';
import { DEMO_MACHINES } from '../../seed/demo-data';
import {
  createListing,
  createProvider,
  gpuInventory,
  hostInventory,
  recordDemoOutages,
} from '../../seed/factories';
import { createTestApp, type TestApp } from '../../test/app';
import { apiKeysService } from '../api-keys/service';

/**
 * Issue 42: what a renter compares listings by — the reliability measured from recorded
 * outages (a host with too little history says so), disk and versions from the machine, the
 * price per GPU-hour — and the marketplace's filters and sort on them, page by page.
 */
let t: TestApp;
let marker: string;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

beforeAll(async () => {
  t = await createTestApp();
  marker = `cmp${Date.now().toString(36)}`;
});
afterAll(async () => {
  await t.close();
});

async function page(query: string) {
  const res = await t.request({ method: 'GET', url: `/api/gpu-listings?${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return {
    listings: res.json() as GpuListingView[],
    cursor: res.headers['x-next-cursor'] as string | undefined,
  };
}

/** Every listing of this test's world for a query, `limit` at a time, following the cursor. */
async function walk(query: string, limit = 2) {
  const seen: GpuListingView[] = [];
  let cursor: string | undefined;
  for (let n = 0; n < 50; n += 1) {
    const next = await page(
      `model=filters%20${marker}&${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`,
    );
    seen.push(...next.listings);
    cursor = next.cursor;
    if (!cursor) return seen;
  }
  throw new Error('the cursor never ended');
}

/** An online host of `providerId`, enrolled `enrolledDaysAgo` days ago, with 2 GPUs. */
async function onlineHost(providerId: number, name: string, enrolledDaysAgo: number) {
  const now = t.clock.now();
  const id = `${name}-${marker}`;
  await t.database.db.insert(hosts).values({
    id,
    providerId,
    name,
    enrolledAt: new Date(now.getTime() - enrolledDaysAgo * DAY),
    lastHeartbeatAt: now,
    inventory: {
      host: hostInventory({
        cpu: { model: 'x', cores: 32 },
        disk: { path: '/var/lib/rentgpu-agent', totalBytes: 4 * 1024 ** 4, freeBytes: 1e12 },
      }),
      gpus: {
        ...gpuInventory('NVIDIA H100 80GB HBM3', () => ({}), 2),
        driverVersion: '550.54.15',
        cudaVersion: '12.4',
      },
    },
  });
  return id;
}

describe('reliability measured from recorded outages', () => {
  it('is the uptime of the last 30 days; an outage before them does not count; a new host has too little history', async () => {
    const db = t.database.db;
    const now = t.clock.now();
    const provider = await createProvider(db, { companyName: `Uptime ${marker}` });
    const veteran = await onlineHost(provider.id, 'veteran', 60);
    const newcomer = await onlineHost(provider.id, 'newcomer', 1);
    await db.insert(hostOutages).values([
      // Inside the window: 36 hours of 30 days is 5%.
      {
        hostId: veteran,
        startedAt: new Date(now.getTime() - 10 * DAY),
        endedAt: new Date(now.getTime() - 10 * DAY + 36 * HOUR),
      },
      // Before the window: not counted.
      {
        hostId: veteran,
        startedAt: new Date(now.getTime() - 45 * DAY),
        endedAt: new Date(now.getTime() - 40 * DAY),
      },
    ]);
    const base = { providerId: provider.id, location: `Uptime ${marker}`, model: 'H100' };
    const onVeteran = await createListing(db, { ...base, memory: '80GB', hostId: veteran });
    const onNewcomer = await createListing(db, { ...base, memory: '80GB', hostId: newcomer });
    // A demo listing listed 10 days ago whose machine was down a day: 90%.
    const demo = await createListing(db, {
      ...base,
      memory: '80GB',
      demoMachine: DEMO_MACHINES.hgx,
      createdAt: new Date(now.getTime() - 10 * DAY),
    });
    await recordDemoOutages(db, demo.id, [
      { startedAt: new Date(now.getTime() - 5 * DAY), endedAt: new Date(now.getTime() - 4 * DAY) },
    ]);

    const listed = (await page(`model=uptime%20${marker}&limit=10`)).listings;
    const of = (id: number) => listed.find((l) => l.id === id);
    expect(of(onVeteran.id)?.reliability).toEqual({
      uptimePercent: 95,
      windowDays: 30,
      observedDays: 30,
    });
    expect(of(onNewcomer.id)?.reliability).toEqual({
      uptimePercent: null,
      windowDays: 30,
      observedDays: 1,
    });
    expect(of(demo.id)?.reliability).toEqual({
      uptimePercent: 90,
      windowDays: 30,
      observedDays: 10,
    });
    // The machine's disk and versions: a GPU's share of the host's 4 TiB (2 GPUs), as reported.
    expect(of(onVeteran.id)).toMatchObject({
      diskGb: 2048,
      driverVersion: '550.54.15',
      cudaVersion: '12.4',
      gpuShare: { vcpus: 16 },
    });
    // The demo machine's: an 8-GPU HGX node of 192 cores, 2 TB and 30 TB.
    expect(of(demo.id)).toMatchObject({
      diskGb: 3840,
      driverVersion: '550.54.15',
      cudaVersion: '12.4',
      // 1.6 TB of guest memory over 8 GPUs is 204,799 MiB each, shown rounded down.
      gpuShare: { vcpus: 24, memoryGb: 204.7 },
    });

    // An outage still open counts until now.
    await db.insert(hostOutages).values({
      hostId: veteran,
      startedAt: new Date(now.getTime() - 36 * HOUR),
      endedAt: null,
    });
    t.app.deps.readCache.invalidate();
    const again = (await page(`model=uptime%20${marker}&limit=10`)).listings;
    expect(again.find((l) => l.id === onVeteran.id)?.reliability.uptimePercent).toBe(90);

    // A listing with no host (its provider's own page shows it): nothing was measured.
    const hostless = await createListing(db, { ...base, memory: '80GB', isDemoHost: false });
    const own = (await page(`providerId=${provider.id}&limit=10`)).listings;
    expect(own.find((l) => l.id === hostless.id)?.reliability).toEqual({
      uptimePercent: null,
      windowDays: 30,
      observedDays: 0,
    });
  });
});

describe('filters and the price per GPU-hour sort', () => {
  let ids: Record<string, number>;

  beforeAll(async () => {
    const db = t.database.db;
    const provider = await createProvider(db, { companyName: `Filters ${marker}` });
    const now = t.clock.now();
    const location = `Filters ${marker}`;
    const steady = {
      demoMachine: DEMO_MACHINES.server8,
      createdAt: new Date(now.getTime() - 40 * DAY),
    };
    const make = async (
      name: string,
      input: { model: string; memory: string; hourlyRate: string },
      downHours: number,
    ) => {
      const row = await createListing(db, {
        providerId: provider.id,
        location,
        ...steady,
        ...input,
      });
      if (downHours > 0) {
        await recordDemoOutages(db, row.id, [
          {
            startedAt: new Date(now.getTime() - 3 * DAY),
            endedAt: new Date(now.getTime() - 3 * DAY + downHours * HOUR),
          },
        ]);
      }
      return [name, row.id] as const;
    };
    ids = Object.fromEntries([
      // $/GPU-hour: 4.50, 4.125, 3.90, 2.75, 1.60, 0.90
      await make('h100', { model: 'H100', memory: '80GB', hourlyRate: '4.50' }, 0),
      await make('h100x4', { model: '4x H100', memory: '320GB', hourlyRate: '16.50' }, 0),
      await make('h100cheap', { model: 'H100', memory: '80GB', hourlyRate: '3.90' }, 72),
      await make('a100x8', { model: '8x A100 80GB', memory: '640GB', hourlyRate: '22.00' }, 7),
      await make('4090x2', { model: '2x RTX 4090', memory: '48GB', hourlyRate: '3.20' }, 0),
      await make('3070', { model: 'RTX 3070', memory: '8GB', hourlyRate: '0.90' }, 0),
    ]);
  });

  const idsOf = (listings: GpuListingView[]) =>
    listings.map((l) => Object.entries(ids).find(([, id]) => id === l.id)?.[0]);

  it('sorts by the price per GPU-hour, cheapest first, across pages', async () => {
    const sorted = await walk('sort=gpu-price-asc', 2);
    expect(idsOf(sorted)).toEqual(['3070', '4090x2', 'a100x8', 'h100cheap', 'h100x4', 'h100']);
    expect(sorted.map((l) => l.pricePerGpuHour)).toEqual([
      '0.90',
      '1.60',
      '2.75',
      '3.90',
      '4.13',
      '4.50',
    ]);
    expect(sorted.find((l) => l.id === ids.h100x4)).toMatchObject({
      gpuCount: 4,
      gpuMemoryGb: 80,
      hourlyRate: '16.50',
    });
    // One page at a time gives the same as one page of all.
    expect((await walk('sort=gpu-price-asc', 100)).map((l) => l.id)).toEqual(
      sorted.map((l) => l.id),
    );
    // The other sorts still page completely.
    expect((await walk('sort=price-desc', 4)).map((l) => l.id)).toHaveLength(6);
  });

  it('filters by GPU count, memory per GPU, reliability and price per GPU-hour', async () => {
    expect(idsOf(await walk('gpuCount=1&sort=gpu-price-asc'))).toEqual([
      '3070',
      'h100cheap',
      'h100',
    ]);
    expect(idsOf(await walk('gpuCount=4'))).toEqual(['h100x4']);
    expect(idsOf(await walk('minVramGb=80&sort=gpu-price-asc'))).toEqual([
      'a100x8',
      'h100cheap',
      'h100x4',
      'h100',
    ]);
    expect(idsOf(await walk('minVramGb=24&maxGpuHourPrice=3&sort=gpu-price-asc'))).toEqual([
      '4090x2',
      'a100x8',
    ]);
    // 72 hours down in 40 days of a 30-day window is 90%; 7 hours 99.0%.
    expect(idsOf(await walk('minReliability=99&sort=gpu-price-asc'))).toEqual([
      '3070',
      '4090x2',
      'a100x8',
      'h100x4',
      'h100',
    ]);
    expect(idsOf(await walk('minReliability=99.5&sort=gpu-price-asc'))).toEqual([
      '3070',
      '4090x2',
      'h100x4',
      'h100',
    ]);
    const cheapH100 = await walk('gpuCount=1&minVramGb=80&maxGpuHourPrice=4&sort=gpu-price-asc');
    expect(idsOf(cheapH100)).toEqual(['h100cheap']);
    expect(cheapH100[0]?.reliability.uptimePercent).toBe(90);
    expect(dollarsToMicros(cheapH100[0]?.pricePerGpuHour ?? '0')).toBe(3_900_000n);
  });

  it('v1 takes the same filters and sort', async () => {
    const reader = await t.signIn();
    const { key } = await t.database.db.transaction((tx) =>
      apiKeysService.create(tx, reader.userId, { name: 'cmp', permissions: ['read'] }, new Date()),
    );
    const res = await t.request({
      method: 'GET',
      url: `/api/v1/gpu-listings?model=filters%20${marker}&minVramGb=80&minReliability=99&sort=gpu-price-asc`,
      headers: { authorization: `Bearer ${key}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    const gpus = res.json().gpus as GpuListingView[];
    expect(idsOf(gpus)).toEqual(['a100x8', 'h100x4', 'h100']);
    expect(gpus[0]).toMatchObject({
      gpuCount: 8,
      gpuMemoryGb: 80,
      pricePerGpuHour: '2.75',
      reliability: { uptimePercent: 99, windowDays: 30 },
      driverVersion: '550.54.15',
    });
  });

  it('answers 400 for a filter out of range', async () => {
    for (const query of [
      'gpuCount=0',
      'gpuCount=1.5',
      'minVramGb=-1',
      'minReliability=101',
      'maxGpuHourPrice=abc',
      'sort=cheapest',
    ]) {
      const res = await t.request({ method: 'GET', url: `/api/gpu-listings?${query}` });
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_FAILED');
    }
  });

  it('takes an empty filter as none on the page, and refuses it on v1, whose document says number', async () => {
    const empty = 'gpuCount=&minVramGb=&minReliability=&maxGpuHourPrice=';
    const page = await t.request({ method: 'GET', url: `/api/gpu-listings?${empty}` });
    expect(page.statusCode, page.body).toBe(200);
    const reader = await t.signIn();
    const { key } = await t.database.db.transaction((tx) =>
      apiKeysService.create(
        tx,
        reader.userId,
        { name: 'empty', permissions: ['read'] },
        new Date(),
      ),
    );
    for (const [name, message] of [
      ['gpuCount', 'gpuCount must be a whole number from 1 to 64'],
      ['minVramGb', 'minVramGb must be a number of GB from 0 to 1024'],
      ['minReliability', 'minReliability must be a percent from 0 to 100'],
      ['maxGpuHourPrice', 'maxGpuHourPrice must be a price in dollars from 0 to 10000'],
    ]) {
      const res = await t.request({
        method: 'GET',
        url: `/api/v1/gpu-listings?${name}=`,
        headers: { authorization: `Bearer ${key}` },
      });
      expect(res.statusCode, `${name}=`).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_FAILED');
      expect(res.body, name).toContain(message);
      const given = await t.request({
        method: 'GET',
        url: `/api/v1/gpu-listings?${name}=1`,
        headers: { authorization: `Bearer ${key}` },
      });
      expect(given.statusCode, `${name}=1`).toBe(200);
    }
  });
});
