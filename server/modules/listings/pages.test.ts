import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GpuListingView } from '../../../shared/contracts/listings';
import { dollarsToMicros } from '../../../shared/rules/money';
import { gpuListings, hostOutages, hosts, providers } from '../../db/schema';
import { createListing, createProvider, gpuInventory, hostInventory } from '../../seed/factories';
import { createTestApp, type TestApp } from '../../test/app';
import { apiKeysService } from '../api-keys/service';
import { providerHostsService } from '../hosts/provider-hosts';
import { presentPublicListing } from '../public-api/presenter';
import { encodeCursor } from './cursor';
import { gpuRepo } from './gpu-repo';
import { presentListing } from './presenter';
import { listingsRepo } from './repo';
import { derivedListingColumns } from './service';

/**
 * Marketplace pages as the database writes them (page-query.ts): every sort's keyset pages,
 * search by provider name, the sandbox branch, and the JSON against the presenters.
 */
let t: TestApp;
let marker: string;

beforeAll(async () => {
  t = await createTestApp();
  marker = `pq${Date.now().toString(36)}`;
});
afterAll(async () => {
  await t.close();
});

async function page(query: string, cookie?: string) {
  const res = await t.request({
    method: 'GET',
    url: `/api/gpu-listings?${query}`,
    ...(cookie ? { cookie } : {}),
  });
  expect(res.statusCode).toBe(200);
  return {
    listings: res.json() as GpuListingView[],
    cursor: res.headers['x-next-cursor'] as string | undefined,
  };
}

/** Every page of a query, `limit` at a time, following the cursor. */
async function walk(query: string, limit: number, cookie?: string) {
  const seen: GpuListingView[] = [];
  let cursor: string | undefined;
  for (let n = 0; n < 100; n += 1) {
    const next = await page(`${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`, cookie);
    seen.push(...next.listings);
    cursor = next.cursor;
    if (!cursor) return seen;
  }
  throw new Error('the cursor never ended');
}

const SORTS = ['', 'price-asc', 'price-desc', 'memory', 'performance'] as const;

/** The order a sort promises: its key (descending for all but price-asc), then id. */
function expectedOrder(listings: GpuListingView[], sort: (typeof SORTS)[number]) {
  const key = (l: GpuListingView): bigint => {
    const derived = derivedListingColumns(l.model, l.memory);
    if (sort === 'price-asc') return dollarsToMicros(l.hourlyRate);
    if (sort === 'price-desc') return -dollarsToMicros(l.hourlyRate);
    if (sort === 'memory') return BigInt(-derived.memoryGb);
    if (sort === 'performance') return BigInt(-derived.performanceScore);
    return 0n;
  };
  return [...listings]
    .sort((a, b) => {
      const ka = key(a);
      const kb = key(b);
      return ka === kb ? a.id - b.id : ka < kb ? -1 : 1;
    })
    .map((l) => l.id);
}

describe('marketplace pages', () => {
  const tied = [
    { model: 'RTX 4090', memory: '24GB', hourlyRate: '1.00' },
    { model: 'H100', memory: '80GB', hourlyRate: '2.00' },
    { model: 'A100 80GB', memory: '80GB', hourlyRate: '1.00' },
    { model: 'RTX 3090', memory: '24GB', hourlyRate: '3.00' },
    { model: 'H100', memory: '80GB', hourlyRate: '2.00' },
    { model: 'RTX 4090', memory: '24GB', hourlyRate: '1.00' },
    { model: 'V100', memory: '32GB', hourlyRate: '2.00' },
    { model: 'RTX 4090', memory: '24GB', hourlyRate: '4.00' },
    { model: 'A100 80GB', memory: '80GB', hourlyRate: '1.00' },
    { model: 'H100', memory: '80GB', hourlyRate: '3.00' },
    { model: 'RTX 3090', memory: '24GB', hourlyRate: '1.00' },
  ];
  let visitor: { cookie: string };
  let sandboxIds: number[];

  beforeAll(async () => {
    const db = t.database.db;
    const one = await createProvider(db, { companyName: `Tie ${marker} One` });
    const two = await createProvider(db, { companyName: `Tie ${marker} Two` });
    for (const [i, listing] of tied.entries()) {
      await createListing(db, { ...listing, providerId: i % 2 ? one.id : two.id });
    }
    // Not in the marketplace: in maintenance, removed, a demo visitor's sandbox.
    await createListing(db, { providerId: one.id, status: 'maintenance', hourlyRate: '1.00' });
    const removed = await createListing(db, { providerId: two.id, hourlyRate: '1.00' });
    await listingsRepo.update(db, removed.id, { removedAt: new Date() });
    const signedIn = await t.signIn();
    visitor = signedIn;
    const sandbox = await createProvider(db, {
      userId: signedIn.userId,
      companyName: `Tie ${marker} Sandbox`,
      isSandbox: true,
    });
    sandboxIds = [];
    for (const hourlyRate of ['1.00', '2.50', '5.00']) {
      const own = await createListing(db, { providerId: sandbox.id, model: 'H100', hourlyRate });
      sandboxIds.push(own.id);
    }
  });

  it('pages each sort completely, in order (ties by id), without overlap', async () => {
    for (const sort of SORTS) {
      const query = `model=tie%20${marker}${sort ? `&sort=${sort}` : ''}`;
      const all = (await page(`${query}&limit=100`)).listings;
      expect(all).toHaveLength(tied.length);
      expect(all.map((l) => l.id)).toEqual(expectedOrder(all, sort));
      for (const limit of [1, 3, 4]) {
        expect((await walk(query, limit)).map((l) => l.id)).toEqual(all.map((l) => l.id));
      }
    }
  });

  it('merges a demo visitor’s own sandbox listings into every sort, page by page', async () => {
    for (const sort of SORTS) {
      const query = `model=tie%20${marker}${sort ? `&sort=${sort}` : ''}`;
      const all = (await page(`${query}&limit=100`, visitor.cookie)).listings;
      expect(all).toHaveLength(tied.length + sandboxIds.length);
      expect(all.map((l) => l.id)).toEqual(expectedOrder(all, sort));
      expect(sandboxIds.every((id) => all.some((l) => l.id === id))).toBe(true);
      const walked = await walk(query, 2, visitor.cookie);
      expect(walked.map((l) => l.id)).toEqual(all.map((l) => l.id));
    }
    // Nobody else sees them, not even by the sandbox provider's id.
    const anonymous = (await page(`model=tie%20${marker}&limit=100`)).listings;
    expect(anonymous.some((l) => sandboxIds.includes(l.id))).toBe(false);
    const sandboxProvider = (
      await page(`model=tie%20${marker}&limit=100`, visitor.cookie)
    ).listings.find((l) => sandboxIds.includes(l.id))?.providerId;
    expect((await page(`providerId=${sandboxProvider}`)).listings).toEqual([]);
    expect((await page(`providerId=${sandboxProvider}`, visitor.cookie)).listings).toHaveLength(3);
  });

  it('filters by GPU type within a sort, across pages', async () => {
    const h100 = await walk(`model=tie%20${marker}&gpuType=h100&sort=price-desc`, 2);
    expect(h100.map((l) => l.model)).toEqual(['H100', 'H100', 'H100']);
    expect(h100.map((l) => l.hourlyRate)).toEqual(['3.00', '2.00', '2.00']);
  });
});

describe('search', () => {
  it('finds a listing by its provider’s name in any case, and by the new name after a rename', async () => {
    const db = t.database.db;
    const provider = await createProvider(db, {
      companyName: `Zephyr ${marker} Cloud`,
      location: 'Lisbon, Portugal',
    });
    const listing = await createListing(db, {
      providerId: provider.id,
      model: 'A100 80GB',
      location: 'Porto, Portugal',
    });
    for (const text of [`ZEPHYR ${marker.toUpperCase()}`, `zephyr ${marker} cloud`]) {
      const found = (await page(`model=${encodeURIComponent(text)}`)).listings;
      expect(found.map((l) => l.id)).toEqual([listing.id]);
    }
    await db
      .update(providers)
      .set({ companyName: `Boreal ${marker} Cloud` })
      .where(eq(providers.id, provider.id));
    expect((await page(`model=zephyr%20${marker}`)).listings).toEqual([]);
    const renamed = (await page(`model=BOREAL%20${marker}`)).listings;
    expect(renamed.map((l) => l.id)).toEqual([listing.id]);
    expect(renamed[0]?.provider.companyName).toBe(`Boreal ${marker} Cloud`);
    // A match lies inside one field: model, location or provider name, never across two.
    expect((await page(`model=${encodeURIComponent('80GB Porto')}`)).listings).toEqual([]);
    expect((await page(`model=${encodeURIComponent('porto, PORTUGAL')}`)).listings).toHaveLength(1);
  });

  it('answers 400 for search text with a line break and for a cursor out of range', async () => {
    for (const query of [
      'model=a%0Ab',
      'gpuType=H1%0A00',
      `cursor=${encodeCursor({ value: '9223372036854775808', id: 1 })}`,
      `sort=price-desc&cursor=${encodeCursor({ value: '-9223372036854775808', id: 1 })}`,
    ]) {
      const res = await t.request({ method: 'GET', url: `/api/gpu-listings?${query}` });
      expect(res.statusCode).toBe(400);
    }
  });
});

describe('a page written by the database', () => {
  it('presents each listing as presentListing does, host uptime included, and the public API as presentPublicListing', async () => {
    const db = t.database.db;
    const now = t.clock.now();
    const provider = await createProvider(db, {
      companyName: `Parity ${marker} "Quoted" \\ Co`,
      reputation: '3.7',
    });
    const hostId = (name: string) => `${name}-${marker}`;
    const hour = 3_600_000;
    await db.insert(hosts).values([
      {
        id: hostId('online'),
        providerId: provider.id,
        name: 'online',
        enrolledAt: new Date(now.getTime() - 48 * hour),
        lastHeartbeatAt: now,
        // 16 cores, 64 GB, 2 GPUs: each GPU's share is 8 vCPUs and 25.5 GB (80%, rounded down).
        inventory: {
          host: hostInventory({
            cpu: { model: 'x', cores: 16 },
            memory: {
              totalBytes: 64 * 1024 ** 3,
              availableBytes: 64 * 1024 ** 3,
            },
          }),
          gpus: gpuInventory('NVIDIA GeForce RTX 4090', () => ({}), 2),
        },
      },
      {
        id: hostId('offline'),
        providerId: provider.id,
        name: 'offline',
        enrolledAt: new Date(now.getTime() - 48 * hour),
        lastHeartbeatAt: new Date(now.getTime() - 2 * hour),
        offlineSince: new Date(now.getTime() - hour),
      },
    ]);
    await db.insert(hostOutages).values({
      hostId: hostId('online'),
      startedAt: new Date(now.getTime() - 10 * hour),
      endedAt: new Date(now.getTime() - 5 * hour),
    });
    const base = { providerId: provider.id, location: `Parity ${marker}` };
    const made = [
      await createListing(db, { ...base, hostId: hostId('online'), hourlyRate: '0.005' }),
      await createListing(db, { ...base, hostId: hostId('offline'), hourlyRate: '1234.565' }),
      await createListing(db, { ...base, isDemoHost: false, cudaCores: null, tensorCores: null }),
      await createListing(db, { ...base, model: 'H100', memory: '80GB', hourlyRate: '2.999999' }),
    ];
    // Specifications whose bandwidth differs from the column's, and text that needs escaping.
    await listingsRepo.update(db, made[3]?.id ?? 0, {
      specifications: { bandwidth: '1 Gbps', cooling: 'Liquid "cold"\n', extra: [1, { a: null }] },
    });

    // Its provider sees all four; the marketplace only those whose host can run them now (the
    // online host's and the demo host's), not the offline host's nor the one without a host.
    const listed = (await page(`providerId=${provider.id}&limit=100`)).listings;
    expect(listed.map((l) => l.id).sort()).toEqual(made.map((l) => l.id).sort());
    const market = (await page(`model=parity%20${marker}&limit=100`)).listings;
    expect(market.map((l) => l.id).sort()).toEqual([made[0]?.id, made[3]?.id].sort());
    expect(market).toEqual(listed.filter((l) => market.some((m) => m.id === l.id)));
    const reliability = await listingsRepo.reliabilityOf(
      db,
      made.map((l) => l.id),
      now,
    );
    const uptime = await providerHostsService.uptimeOf(
      db,
      [hostId('online'), hostId('offline')],
      now,
    );
    expect(uptime.get(hostId('online'))).toBeLessThan(100);
    const reader = await t.signIn();
    const { key } = await db.transaction((tx) =>
      apiKeysService.create(tx, reader.userId, { name: 'pages', permissions: ['read'] }, now),
    );
    const publicPage = await t.request({
      method: 'GET',
      url: `/api/v1/gpu-listings?model=parity%20${marker}&limit=100`,
      headers: { authorization: `Bearer ${key}` },
    });
    expect(publicPage.statusCode).toBe(200);
    const publicGpus = publicPage.json().gpus as { id: number }[];
    expect(publicGpus.map((l) => l.id)).toEqual(market.map((l) => l.id));

    for (const shown of listed) {
      const row = await listingsRepo.findById(db, shown.id);
      if (!row) throw new Error('listing vanished');
      const expected = presentListing(row, uptime, reliability.get(shown.id));
      expect({ ...shown, specifications: JSON.parse(shown.specifications) }).toEqual({
        ...expected,
        specifications: JSON.parse(expected.specifications),
      });
      const onPublic = publicGpus.find((l) => l.id === shown.id);
      if (onPublic) expect(onPublic).toEqual(presentPublicListing(expected));
    }
    expect(listed.find((l) => l.hostId === hostId('online'))?.hostUptimePercent).toBe(
      uptime.get(hostId('online')),
    );
    // One GPU's share of its host: the host's, the demo host's, none before a host reports.
    const shareOf = (l: GpuListingView | undefined) => l?.gpuShare;
    expect(shareOf(listed.find((l) => l.hostId === hostId('online')))).toEqual({
      vcpus: 8,
      memoryGb: 25.5,
    });
    expect(shareOf(listed.find((l) => l.hostId === hostId('offline')))).toBeNull();
    expect(shareOf(listed.find((l) => l.isDemoHost))).toEqual({ vcpus: 16, memoryGb: 128 });
    expect(shareOf(listed.find((l) => l.hostId === null && !l.isDemoHost))).toBeNull();
  });

  it('writes a listing again when it, its provider, its status, its counts or its host change', async () => {
    const db = t.database.db;
    const provider = await createProvider(db, {
      companyName: `Stored ${marker}`,
      reputation: '2.0',
    });
    const made = await createListing(db, {
      providerId: provider.id,
      location: `Stored ${marker}`,
      totalCount: 4,
    });
    const reader = await t.signIn();
    const { key } = await db.transaction((tx) =>
      apiKeysService.create(
        tx,
        reader.userId,
        { name: 'stored', permissions: ['read'] },
        new Date(),
      ),
    );
    // The marketplace's view and the public API's, each as its presenter writes it.
    const shown = async () => {
      // Its provider's view shows it whatever its host's state.
      const listed = (await page(`providerId=${provider.id}&limit=100`)).listings;
      expect(listed).toHaveLength(1);
      const row = await listingsRepo.findById(db, made.id);
      if (!row) throw new Error('listing vanished');
      const { hostId } = row.listing;
      const uptime = hostId
        ? await providerHostsService.uptimeOf(db, [hostId], t.clock.now())
        : undefined;
      const reliability = await listingsRepo.reliabilityOf(db, [made.id], t.clock.now());
      const expected = presentListing(row, uptime, reliability.get(made.id));
      const [listing] = listed;
      expect({ ...listing, specifications: JSON.parse(listing?.specifications ?? '') }).toEqual({
        ...expected,
        specifications: JSON.parse(expected.specifications),
      });
      const publicPage = await t.request({
        method: 'GET',
        url: `/api/v1/gpu-listings?model=stored%20${marker}&limit=100`,
        headers: { authorization: `Bearer ${key}` },
      });
      // The public API's (the marketplace's) only while its host can run it.
      const ready = expected.hostStatus === 'demo' || expected.hostStatus === 'online';
      expect(publicPage.json().gpus).toEqual(ready ? [presentPublicListing(expected)] : []);
      const market = (await page(`model=stored%20${marker}&limit=100`)).listings;
      expect(market.map((l) => l.id)).toEqual(ready ? [made.id] : []);
      return listing;
    };
    // The texts a count's write left (only their ends written again, migration 0047) are those
    // built whole from the row: a write of the stored JSON itself builds them so.
    const storedAsBuilt = async () => {
      const texts = () =>
        db
          .select({ market: gpuListings.marketJson, public: gpuListings.publicJson })
          .from(gpuListings)
          .where(eq(gpuListings.id, made.id));
      const stored = await texts();
      await listingsRepo.update(db, made.id, { marketJson: '' });
      expect(await texts()).toEqual(stored);
    };
    await shown();
    await db
      .update(providers)
      .set({ companyName: `Stored ${marker} "Renamed"`, location: 'Elsewhere', isVerified: true })
      .where(eq(providers.id, provider.id));
    expect((await shown())?.provider).toMatchObject({
      companyName: `Stored ${marker} "Renamed"`,
      location: 'Elsewhere',
      isVerified: true,
    });
    await db.update(providers).set({ reputation: '4.5' }).where(eq(providers.id, provider.id));
    expect((await shown())?.provider.reputation).toBe('4.5');
    await listingsRepo.update(db, made.id, {
      model: 'H100',
      memory: '80GB',
      hourlyRateMicros: dollarsToMicros('3.005'),
      specifications: { cooling: 'Liquid' },
      // A write of the stored JSON itself is replaced.
      marketJson: '{"id":0',
    });
    expect(await shown()).toMatchObject({ model: 'H100', memory: '80GB', hourlyRate: '3.01' });
    // A rental's write (the unit), a host's readiness verdict and a status change write the
    // counts again (migration 0032); a write that changes none of them leaves them.
    await listingsRepo.reserveForLaunch(db, { id: made.id, renterId: randomUUID(), kind: 'vm' });
    expect((await shown())?.availableCount).toBe(made.availableCount - 1);
    await storedAsBuilt();
    await gpuRepo.setGpuState(db, made.id, { gpuProblem: null, unreadyGpus: 1 });
    expect((await shown())?.availableCount).toBe(made.availableCount - 2);
    await storedAsBuilt();
    await db.update(gpuListings).set({ status: 'rented' }).where(eq(gpuListings.id, made.id));
    expect((await shown())?.status).toBe('rented');
    await storedAsBuilt();
    await db
      .update(gpuListings)
      .set({
        status: 'available',
        totalCount: made.totalCount + 1,
        availableCount: made.availableCount,
      })
      .where(eq(gpuListings.id, made.id));
    expect(await shown()).toMatchObject({
      status: 'available',
      availableCount: made.availableCount - 1,
      totalCount: made.totalCount + 1,
    });
    await storedAsBuilt();
    // Its host's state: put on a host (read from the host), the host goes offline and comes
    // back (the host's trigger), a move to another host.
    const now = t.clock.now();
    const hostOf = (name: string) => `${name}-stored-${marker}`;
    await db.insert(hosts).values([
      {
        id: hostOf('a'),
        providerId: provider.id,
        name: 'a',
        enrolledAt: now,
        lastHeartbeatAt: now,
      },
      { id: hostOf('b'), providerId: provider.id, name: 'b', enrolledAt: now },
    ]);
    await db
      .update(gpuListings)
      .set({ hostId: hostOf('a'), isDemoHost: false, unreadyGpus: 0 })
      .where(eq(gpuListings.id, made.id));
    expect((await shown())?.hostStatus).toBe('online');
    await db
      .update(hosts)
      .set({ offlineSince: now })
      .where(eq(hosts.id, hostOf('a')));
    expect((await shown())?.hostStatus).toBe('offline');
    await storedAsBuilt();
    await db
      .update(hosts)
      .set({ offlineSince: null })
      .where(eq(hosts.id, hostOf('a')));
    expect((await shown())?.hostStatus).toBe('online');
    await gpuRepo.setGpuState(db, made.id, { gpuProblem: null, unreadyGpus: made.totalCount + 1 });
    expect((await shown())?.hostStatus).toBe('not_ready');
    await storedAsBuilt();
    await db
      .update(gpuListings)
      .set({ hostId: hostOf('b') })
      .where(eq(gpuListings.id, made.id));
    expect((await shown())?.hostStatus).toBe('offline');
    await db
      .update(hosts)
      .set({ lastHeartbeatAt: now })
      .where(eq(hosts.id, hostOf('b')));
    expect((await shown())?.hostStatus).toBe('not_ready');
    await db
      .update(hosts)
      .set({ removedAt: now })
      .where(eq(hosts.id, hostOf('b')));
    expect((await shown())?.hostStatus).toBe('offline');
  });
});
