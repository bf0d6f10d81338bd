import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentPaths } from '../../../shared/contracts/agent-protocol';
import { createHost, createProvider } from '../../seed/factories';
import { createTestApp, type TestApp } from '../../test/app';
import { heartbeatBody, hostInventory } from '../../test/hosts';
import { world } from '../../test/world';

let t: TestApp;
let w: ReturnType<typeof world>;
let viewer: { cookie: string };
let marker: string;

beforeAll(async () => {
  t = await createTestApp();
  w = world(t);
  viewer = await t.signIn();
  marker = `zq${Date.now().toString(36)}`;
  const acme = await createProvider(t.database.db, {
    companyName: `Acme ${marker} Compute`,
    location: 'Oslo, Norway',
  });
  const base = { providerId: acme.id, location: `Oslo ${marker}` };
  await w.listing({ ...base, model: 'RTX 4090', memory: '24GB', hourlyRate: '1.40' });
  await w.listing({ ...base, model: 'A100 80GB', memory: '80GB', hourlyRate: '3.10' });
  await w.listing({ ...base, model: 'H100', memory: '80GB', hourlyRate: '4.50' });
  await w.listing({ ...base, model: 'RTX 3070', memory: '8GB', hourlyRate: '0.50' });
  await w.listing({ ...base, model: '8x A100 80GB', memory: '640GB', hourlyRate: '22.00' });
  await w.listing({
    ...base,
    model: 'V100',
    memory: '32GB',
    hourlyRate: '2.00',
    status: 'maintenance',
  });
});
afterAll(async () => {
  await t.close();
});

async function list(query: string) {
  const res = await t.request({
    method: 'GET',
    url: `/api/gpu-listings?${query}`,
    cookie: viewer.cookie,
  });
  return {
    res,
    body: res.json() as {
      id: number;
      model: string;
      hourlyRate: string;
      provider: { companyName: string };
    }[],
  };
}

describe('GET /api/gpu-listings', () => {
  it('finds text in model, location and provider name, case-insensitively', async () => {
    const byLocation = await list(`model=${marker.toUpperCase()}`);
    expect(byLocation.body.map((l) => l.model).sort()).toEqual([
      '8x A100 80GB',
      'A100 80GB',
      'H100',
      'RTX 3070',
      'RTX 4090',
    ]);
    expect(byLocation.body[0]?.provider.companyName).toBe(`Acme ${marker} Compute`);
    const byModel = await list(`model=a100&providerId=${await listProviderId()}`);
    expect(byModel.body.map((l) => l.model).sort()).toEqual(['8x A100 80GB', 'A100 80GB']);
  });

  it('filters by GPU type and ignores All GPU Types', async () => {
    const h100 = await list(`model=${marker}&gpuType=H100`);
    expect(h100.body.map((l) => l.model)).toEqual(['H100']);
    const all = await list(`model=${marker}&gpuType=All%20GPU%20Types`);
    expect(all.body).toHaveLength(5);
  });

  it('filters by a catalogue GPU name, written into its statement, as by any other text', async () => {
    // The marketplace sends a chosen type as its search text too (model=A100&gpuType=A100).
    const own = `providerId=${await listProviderId()}`;
    const models = async (query: string) =>
      (await list(`${own}&${query}`)).body.map((l) => l.model).sort();
    const a100 = ['8x A100 80GB', 'A100 80GB'];
    expect(await models('model=A100&gpuType=A100')).toEqual(a100);
    expect(await models('model=a100&gpuType=a100&sort=price-desc')).toEqual(a100);
    expect(await models('gpuType=A100%2080GB')).toEqual(a100);
    expect(await models('model=rtx%204090')).toEqual(['RTX 4090']);
    expect(await models('gpuType=H100&model=RTX%204090')).toEqual([]);
    // A text that is not a catalogue name is matched the same way, as a value.
    expect(await models(`gpuType=A100&model=${marker}`)).toEqual(a100);
  });

  it('answers a text asked often as it did the first time, once it is written into a statement of its own', async () => {
    // After a few asks a text is written into its page's statement (page-statements.ts,
    // askedOften): its quote doubled, its LIKE characters still literal.
    const place = [...marker].reverse().join(''); // not the marker the other tests search for
    const other = await createProvider(t.database.db, { companyName: `Quay ${place} GPUs` });
    const own = `providerId=${other.id}`;
    await w.listing({
      providerId: other.id,
      location: `St John's ${place}-q 50%`,
      model: 'L4',
      memory: '24GB',
      hourlyRate: '0.80',
    });
    const ask = async (text: string) =>
      (await list(`${own}&sort=price-asc&model=${encodeURIComponent(text)}`)).body.map(
        (l) => l.model,
      );
    for (let i = 0; i < 5; i++) {
      expect(await ask(`JOHN'S ${place.toUpperCase()}-Q 50%`)).toEqual(['L4']);
      // `_` and `%` match themselves only: the location has `50%`, not `5_%` nor `5%%`.
      expect(await ask(`john's ${place}-q 5_%`)).toEqual([]);
      expect(await ask(`'; select 1; --`)).toEqual([]);
    }
  });

  it('sorts by price both ways, memory and performance', async () => {
    const models = async (sort: string) =>
      (await list(`model=${marker}&sort=${sort}`)).body.map((l) => l.model);
    expect(await models('price-asc')).toEqual([
      'RTX 3070',
      'RTX 4090',
      'A100 80GB',
      'H100',
      '8x A100 80GB',
    ]);
    expect(await models('price-desc')).toEqual([
      '8x A100 80GB',
      'H100',
      'A100 80GB',
      'RTX 4090',
      'RTX 3070',
    ]);
    expect(await models('memory')).toEqual([
      '8x A100 80GB',
      'A100 80GB',
      'H100',
      'RTX 4090',
      'RTX 3070',
    ]);
    expect(await models('performance')).toEqual([
      '8x A100 80GB',
      'H100',
      'A100 80GB',
      'RTX 4090',
      'RTX 3070',
    ]);
  });

  it('hides maintenance listings from the marketplace but shows them to their provider filter', async () => {
    expect((await list(`model=${marker}`)).body.some((l) => l.model === 'V100')).toBe(false);
    expect(
      (await list(`providerId=${await listProviderId()}`)).body.some((l) => l.model === 'V100'),
    ).toBe(true);
  });

  it('pages with a limit and a cursor header, keeping the list shape', async () => {
    for (const sort of ['', 'price-asc', 'price-desc', 'memory', 'performance']) {
      const seen: number[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 10; page += 1) {
        const { res, body } = await list(
          `model=${marker}&limit=2${sort ? `&sort=${sort}` : ''}${cursor ? `&cursor=${cursor}` : ''}`,
        );
        expect(Array.isArray(body)).toBe(true);
        seen.push(...body.map((l) => l.id));
        cursor = res.headers['x-next-cursor'] as string | undefined;
        if (!cursor) break;
      }
      expect(seen).toHaveLength(5);
      expect(new Set(seen).size).toBe(5);
    }
  });

  it('answers 400 for a bad sort, limit or cursor', async () => {
    expect((await list('sort=cheapest')).res.statusCode).toBe(400);
    expect((await list('limit=0')).res.statusCode).toBe(400);
    expect((await list('limit=1000')).res.statusCode).toBe(400);
    expect((await list('cursor=garbage')).res.statusCode).toBe(400);
  });

  it('is readable signed out', async () => {
    const res = await t.request({ method: 'GET', url: '/api/gpu-listings?limit=1' });
    expect(res.statusCode).toBe(200);
  });
});

async function listProviderId(): Promise<number> {
  const res = await t.request({ method: 'GET', url: `/api/gpu-listings?model=${marker}&limit=1` });
  return res.json()[0].providerId;
}

describe('GET /api/marketplace/stats', () => {
  it('counts free units, average price, active rentals and providers with free units', async () => {
    const fresh = await createTestApp();
    try {
      const fw = world(fresh);
      const p = await fw.provider();
      await fw.listing({ providerId: p.providerId, hourlyRate: '1.00', totalCount: 3 });
      const second = await fw.listing({
        providerId: p.providerId,
        hourlyRate: '3.00',
        totalCount: 1,
      });
      await fw.listing({ hourlyRate: '9.00', totalCount: 2, status: 'maintenance' });
      const renter = await fresh.signIn({ credits: '100.00' });
      await fresh.request({
        method: 'POST',
        url: '/api/rentals',
        payload: fw.rentBody(second, 1),
        cookie: renter.cookie,
      });
      const res = await fresh.request({ method: 'GET', url: '/api/marketplace/stats' });
      expect(res.json()).toEqual({
        availableGPUs: 3,
        avgPrice: '1.00',
        activeRentals: 1,
        providersOnline: 1,
      });
    } finally {
      await fresh.close();
    }
  });
});

describe('POST /api/gpu-listings', () => {
  const valid = (providerId: number) => ({
    providerId,
    model: 'RTX 4090',
    memory: '24GB',
    cudaCores: '16384',
    location: 'Pune, India',
    bandwidth: '10 Gbps',
    hourlyRate: '1.25',
    dailyRate: '30.00',
    status: 'available',
    availableCount: 3,
    totalCount: 3,
    specifications: JSON.stringify({
      bandwidth: '10 Gbps',
      pcieLanes: '16x',
      powerConsumption: '450W',
      cooling: 'Liquid Cooled',
      additionalSpecs: '',
    }),
  });

  it('creates an available listing with total = available and daily = hourly × 24', async () => {
    const owner = await w.provider();
    const res = await t.request({
      method: 'POST',
      url: '/api/gpu-listings',
      payload: valid(owner.providerId),
      cookie: owner.cookie,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      status: 'available',
      availableCount: 3,
      totalCount: 3,
      hourlyRate: '1.25',
      dailyRate: '30.00',
      cudaCores: 16384,
      isDemoHost: false,
    });
    expect(JSON.parse(res.json().specifications)).toMatchObject({
      cooling: 'Liquid Cooled',
      bandwidth: '10 Gbps',
    });
  });

  it('falls back to null CUDA cores and default specifications', async () => {
    const owner = await w.provider();
    const { cudaCores: _c, specifications: _s, bandwidth: _b, ...rest } = valid(owner.providerId);
    const res = await t.request({
      method: 'POST',
      url: '/api/gpu-listings',
      payload: { ...rest, cudaCores: '' },
      cookie: owner.cookie,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ cudaCores: null, bandwidth: '1 Gbps' });
    expect(JSON.parse(res.json().specifications)).toMatchObject({
      pcieLanes: '16x',
      cooling: 'Air Cooled',
    });
  });

  it.each([
    ['model', 'RTX 9999'],
    ['model', ''],
    ['memory', '20GB'],
    ['location', ''],
    ['hourlyRate', ''],
    ['hourlyRate', '0'],
    ['hourlyRate', '-1'],
    ['hourlyRate', '1.234'],
    ['availableCount', 0],
    ['bandwidth', '5 Gbps'],
    ['cudaCores', 'many'],
    ['specifications', '{not json'],
  ])('refuses %s = %j with 400', async (field, value) => {
    const owner = await w.provider();
    const res = await t.request({
      method: 'POST',
      url: '/api/gpu-listings',
      payload: { ...valid(owner.providerId), [field]: value },
      cookie: owner.cookie,
    });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().error.details.fields).join()).toContain(field);
  });

  it('refuses a user without a provider profile, and another provider’s id', async () => {
    const renter = await t.signIn();
    const owner = await w.provider();
    const other = await w.provider();
    const none = await t.request({
      method: 'POST',
      url: '/api/gpu-listings',
      payload: valid(owner.providerId),
      cookie: renter.cookie,
    });
    expect(none.statusCode).toBe(403);
    expect(none.json().error.code).toBe('NOT_A_PROVIDER');
    const foreign = await t.request({
      method: 'POST',
      url: '/api/gpu-listings',
      payload: valid(owner.providerId),
      cookie: other.cookie,
    });
    expect(foreign.statusCode).toBe(403);
    expect(
      (
        await t.request({
          method: 'POST',
          url: '/api/gpu-listings',
          payload: valid(owner.providerId),
        })
      ).statusCode,
    ).toBe(401);
  });
});

describe('PATCH and DELETE /api/gpu-listings/:id', () => {
  it('lets the owner edit price, status and count; others get 403, unknown ids 404', async () => {
    const owner = await w.provider();
    const listing = await w.listing({ providerId: owner.providerId, totalCount: 2 });
    const url = `/api/gpu-listings/${listing.id}`;
    const ok = await t.request({
      method: 'PATCH',
      url,
      payload: { hourlyRate: '2.10', totalCount: 5, status: 'maintenance' },
      cookie: owner.cookie,
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      hourlyRate: '2.10',
      dailyRate: '50.40',
      totalCount: 5,
      availableCount: 5,
      status: 'maintenance',
    });

    const stranger = await w.provider();
    expect(
      (
        await t.request({
          method: 'PATCH',
          url,
          payload: { hourlyRate: '0.10' },
          cookie: stranger.cookie,
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await t.request({
          method: 'PATCH',
          url: '/api/gpu-listings/999999',
          payload: { hourlyRate: '1' },
          cookie: owner.cookie,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await t.request({ method: 'PATCH', url, payload: {}, cookie: owner.cookie })).statusCode,
    ).toBe(400);
    expect(
      (
        await t.request({
          method: 'PATCH',
          url,
          payload: { status: 'rented' },
          cookie: owner.cookie,
        })
      ).statusCode,
    ).toBe(400);
  });

  it('keeps counts consistent with active rentals when the total changes', async () => {
    const owner = await w.provider();
    const listing = await w.listing({ providerId: owner.providerId, totalCount: 3 });
    const renter = await t.signIn({ credits: '100.00' });
    await w.rentAs(renter.cookie, listing, 1);
    await w.rentAs(renter.cookie, listing, 1);
    const url = `/api/gpu-listings/${listing.id}`;
    const low = await t.request({
      method: 'PATCH',
      url,
      payload: { totalCount: 1 },
      cookie: owner.cookie,
    });
    expect(low.statusCode).toBe(400);
    const exact = await t.request({
      method: 'PATCH',
      url,
      payload: { totalCount: 2 },
      cookie: owner.cookie,
    });
    expect(exact.json()).toMatchObject({ totalCount: 2, availableCount: 0, status: 'rented' });
    expect(await w.invariants()).toEqual([]);
  });

  it('refuses to remove a listing with active rentals; removal keeps history', async () => {
    const owner = await w.provider();
    const listing = await w.listing({ providerId: owner.providerId, model: 'A40', memory: '48GB' });
    const renter = await t.signIn({ credits: '100.00' });
    const rental = (await w.rentAs(renter.cookie, listing, 1)).json();
    const url = `/api/gpu-listings/${listing.id}`;
    const refused = await t.request({ method: 'DELETE', url, cookie: owner.cookie });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({
      code: 'LISTING_HAS_ACTIVE_RENTALS',
      details: { activeRentals: 1 },
    });

    await t.request({
      method: 'PATCH',
      url: `/api/rentals/${rental.id}/stop`,
      cookie: renter.cookie,
    });
    expect(
      (await t.request({ method: 'DELETE', url, cookie: (await w.provider()).cookie })).statusCode,
    ).toBe(403);
    expect((await t.request({ method: 'DELETE', url, cookie: owner.cookie })).statusCode).toBe(204);
    expect((await t.request({ method: 'DELETE', url, cookie: owner.cookie })).statusCode).toBe(404);
    const mine = await t.request({
      method: 'GET',
      url: `/api/gpu-listings?providerId=${owner.providerId}`,
    });
    expect(mine.json()).toEqual([]);
    const history = await t.request({
      method: 'GET',
      url: `/api/rentals/user/${renter.userId}`,
      cookie: renter.cookie,
    });
    expect(history.json()[0]).toMatchObject({ id: rental.id, gpuListing: { model: 'A40' } });
  });
});

describe('GET /api/providers/user/:userId', () => {
  it('answers the caller’s own provider profile only', async () => {
    const owner = await w.provider();
    const renter = await t.signIn();
    const own = await t.request({
      method: 'GET',
      url: `/api/providers/user/${owner.userId}`,
      cookie: owner.cookie,
    });
    expect(own.json()).toMatchObject({ id: owner.providerId, isVerified: true });
    expect(
      (
        await t.request({
          method: 'GET',
          url: `/api/providers/user/${owner.userId}`,
          cookie: renter.cookie,
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await t.request({
          method: 'GET',
          url: `/api/providers/user/${renter.userId}`,
          cookie: renter.cookie,
        })
      ).statusCode,
    ).toBe(404);
  });
});

describe('read cache', () => {
  it('serves listing pages and stats from memory until a rent changes them', async () => {
    const cached = await createTestApp({ env: { READ_CACHE_TTL_MS: '60000' } });
    try {
      const cw = world(cached);
      const listing = await cw.listing({ totalCount: 2 });
      const read = async () =>
        (await cached.request({ method: 'GET', url: '/api/gpu-listings' })).json()[0]
          .availableCount;
      const stats = async () =>
        (await cached.request({ method: 'GET', url: '/api/marketplace/stats' })).json()
          .activeRentals;
      expect(await read()).toBe(2);
      expect(await stats()).toBe(0);
      const renter = await cached.signIn({ credits: '50.00' });
      await cached.request({
        method: 'POST',
        url: '/api/rentals',
        payload: cw.rentBody(listing, 1),
        cookie: renter.cookie,
      });
      // Every process, this one too, drops its cache when it hears the rent's `events` signal,
      // sent by the database at the commit with its hint (migration 0043).
      await cached.signalsHeard();
      expect(await read()).toBe(1);
      expect(await stats()).toBe(1);
    } finally {
      await cached.close();
    }
  });

  it('shows at once what a heartbeat or a silent host changes: online, not ready, offline', async () => {
    const cached = await createTestApp({
      env: { READ_CACHE_TTL_MS: '60000', HOST_OFFLINE_AFTER_MS: '15000' },
    });
    try {
      const cw = world(cached);
      const provider = await cw.provider();
      // Enrolled, never heard: offline in the marketplace until its first heartbeat.
      const host = await createHost(cached.database.db, {
        providerId: provider.providerId,
        lastHeartbeatAt: null,
      });
      const listing = await cw.listing({
        providerId: provider.providerId,
        hostId: host.id,
        model: 'RTX 4090',
        totalCount: 2,
      });
      const shown = async () => {
        const page = await cached.request({
          method: 'GET',
          url: `/api/gpu-listings?providerId=${provider.providerId}`,
        });
        const found = (
          page.json() as { id: number; hostStatus: string; availableCount: number }[]
        ).find((l) => l.id === listing.id);
        return `${found?.hostStatus} ${found?.availableCount}`;
      };
      const heartbeat = async (accelerator: 'kvm' | 'none') => {
        const res = await cached.request({
          method: 'POST',
          url: agentPaths.heartbeat,
          payload: heartbeatBody({ host: hostInventory({ accelerator }) }),
          headers: { authorization: `Bearer ${host.credential}` },
          remoteAddress: '203.0.113.30',
        });
        expect(res.statusCode).toBe(200);
      };
      expect(await shown()).toBe('offline 2');
      await heartbeat('kvm');
      expect(await shown()).toBe('online 2');
      // The same verdict again changes nothing the page shows.
      await heartbeat('kvm');
      expect(await shown()).toBe('online 2');
      await heartbeat('none');
      expect(await shown()).toBe('not_ready 0');
      await heartbeat('kvm');
      expect(await shown()).toBe('online 2');
      // Silent past HOST_OFFLINE_AFTER_MS (the server up throughout, its worker passing every
      // second): the worker marks it offline, and the page says so.
      await cached.passTime(15_000, 1_000);
      cached.clock.advance(1_000);
      expect(await cached.app.deps.hosts.markSilentHostsOffline(cached.clock.now())).toBe(1);
      expect(await shown()).toBe('offline 2');
      await heartbeat('kvm');
      expect(await shown()).toBe('online 2');
    } finally {
      await cached.close();
    }
  });
});
