import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_OFFLINE_AFTER_MS } from '../../../shared/contracts/agent-protocol';
import {
  createHostResponse as createHostResponseSchema,
  ENROLMENT_TOKEN_PATTERN,
  ENROLMENT_TOKEN_TTL_MS,
  hostsResponse,
  installCommand,
} from '../../../shared/contracts/hosts';
import { gpuListings, hostOutages, hosts, instances } from '../../db/schema';
import { sha256 } from '../../lib/crypto';
import { createProvider } from '../../seed/factories';
import { createTestApp, type TestApp } from '../../test/app';
import { gpuInventory, hostInventory } from '../../test/hosts';
import { world } from '../../test/world';

/** What install commands name (ADR 014): the configured address, never a request's headers. */
const PUBLIC_URL = 'https://rentgpu.example';

let t: TestApp;
let w: ReturnType<typeof world>;
beforeAll(async () => {
  t = await createTestApp({ env: { PUBLIC_URL } });
  w = world(t);
});
afterAll(async () => {
  await t.close();
});

const db = () => t.database.db;

function addHost(cookie: string | undefined, payload: unknown) {
  return t.request({
    method: 'POST',
    url: '/api/providers/hosts',
    payload: payload as Record<string, unknown>,
    ...(cookie ? { cookie } : {}),
  });
}

async function listHosts(cookie: string) {
  const res = await t.request({ method: 'GET', url: '/api/providers/hosts', cookie });
  expect(res.statusCode).toBe(200);
  return hostsResponse.parse(res.json()).hosts;
}

async function newHost(cookie: string, name = 'rack-1') {
  const res = await addHost(cookie, { name });
  expect(res.statusCode).toBe(201);
  return createHostResponseSchema.parse(res.json());
}

async function hostRow(id: string) {
  const [row] = await db().select().from(hosts).where(eq(hosts.id, id));
  if (!row) throw new Error('host row missing');
  return row;
}

/** What the agent's enrol does to the row (server/modules/hosts/service.ts, built elsewhere). */
async function enrol(id: string, at: Date) {
  await db()
    .update(hosts)
    .set({
      enrolTokenHash: null,
      enrolTokenExpiresAt: null,
      enrolledAt: at,
      credentialHash: sha256(`credential-${id}`),
      lastHeartbeatAt: at,
      hostname: 'gpu-box-01',
      agentVersion: '0.1.0',
      accelerator: 'kvm',
      inventory: {
        host: hostInventory({ hostname: 'gpu-box-01' }),
        gpus: gpuInventory(),
      },
    })
    .where(eq(hosts.id, id));
}

describe('POST /api/providers/hosts', () => {
  it('adds a host awaiting enrolment and shows its one-time token and install command once', async () => {
    const provider = await w.provider();
    const res = await addHost(provider.cookie, { name: '  rack-1  ' });
    expect(res.statusCode).toBe(201);
    const { host, enrolment } = createHostResponseSchema.parse(res.json());
    expect(host).toMatchObject({
      name: 'rack-1',
      status: 'awaiting_enrolment',
      hostname: null,
      uptimePercent: null,
      gpus: [],
      listings: 0,
      liveInstances: 0,
      enrolmentExpiresAt: enrolment.expiresAt,
    });
    expect(enrolment.token).toMatch(ENROLMENT_TOKEN_PATTERN);
    expect(new Date(enrolment.expiresAt).getTime() - t.clock.now().getTime()).toBe(
      ENROLMENT_TOKEN_TTL_MS,
    );
    expect(enrolment.installCommand).toBe(installCommand(PUBLIC_URL, enrolment.token));

    // Only the hash is stored; the list never shows the token again.
    const row = await hostRow(host.id);
    expect(row.enrolTokenHash).toBe(sha256(enrolment.token));
    expect(JSON.stringify(row)).not.toContain(enrolment.token);
    const listed = await listHosts(provider.cookie);
    expect(listed.map((h) => h.id)).toEqual([host.id]);
    expect(JSON.stringify(listed)).not.toContain(enrolment.token);
  });

  it('names PUBLIC_URL in the install command, whatever Host and Origin the request says', async () => {
    const provider = await w.provider();
    const res = await t.request({
      method: 'POST',
      url: '/api/providers/hosts',
      payload: { name: 'box' },
      cookie: provider.cookie,
      headers: { host: 'evil.example', origin: 'http://evil.example' },
    });
    expect(res.statusCode).toBe(201);
    const { enrolment } = createHostResponseSchema.parse(res.json());
    expect(enrolment.installCommand).toBe(installCommand(PUBLIC_URL, enrolment.token));
    expect(enrolment.installCommand).toContain(`'${PUBLIC_URL}/api/providers/agent/download'`);
    expect(enrolment.installCommand).not.toContain('evil');
    expect(enrolment.installCommand).not.toContain('http:');
    // The token is the here-string's, on the installer's standard input: in no argument.
    expect(enrolment.installCommand.endsWith(`--token-stdin <<< '${enrolment.token}'`)).toBe(true);
    expect(enrolment.installCommand.split(enrolment.token)).toHaveLength(2);

    const renewed = await t.request({
      method: 'POST',
      url: `/api/providers/hosts/${createHostResponseSchema.parse(res.json()).host.id}/enrolment`,
      cookie: provider.cookie,
      headers: { host: 'evil.example:8080', 'x-forwarded-host': 'evil.example' },
    });
    expect(renewed.statusCode).toBe(201);
    expect(renewed.json().enrolment.installCommand).not.toContain('evil');
    expect(renewed.json().enrolment.installCommand).toContain(PUBLIC_URL);
  });

  it('refuses a missing or too long name with the field named', async () => {
    const provider = await w.provider();
    for (const payload of [{}, { name: '   ' }, { name: 'x'.repeat(65) }, { name: 42 }]) {
      const res = await addHost(provider.cookie, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_FAILED');
      expect(Object.keys(res.json().error.details.fields)).toEqual(['name']);
    }
    expect(await listHosts(provider.cookie)).toEqual([]);
  });

  it('a demo visitor with a sandbox provider may add hosts too', async () => {
    const visitor = await t.signIn({ isDemo: true });
    await createProvider(db(), { userId: visitor.userId, isSandbox: true });
    expect((await addHost(visitor.cookie, { name: 'demo box' })).statusCode).toBe(201);
  });
});

describe('who may use the hosts routes', () => {
  const ROUTES = [
    ['GET', '/api/providers/hosts', undefined],
    ['POST', '/api/providers/hosts', { name: 'x' }],
    ['POST', '/api/providers/hosts/:id/enrolment', undefined],
    ['DELETE', '/api/providers/hosts/:id', undefined],
  ] as const;

  it.each(ROUTES)('%s %s signed out: 401', async (method, path, payload) => {
    const owner = await w.provider();
    const { host } = await newHost(owner.cookie);
    const res = await t.request({
      method,
      url: path.replace(':id', host.id),
      ...(payload ? { payload } : {}),
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('UNAUTHENTICATED');
  });

  it.each(ROUTES)(
    '%s %s as a renter without a provider profile: 403',
    async (method, path, payload) => {
      const owner = await w.provider();
      const { host } = await newHost(owner.cookie);
      const renter = await t.signIn();
      const res = await t.request({
        method,
        url: path.replace(':id', host.id),
        cookie: renter.cookie,
        ...(payload ? { payload } : {}),
      });
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('NOT_A_PROVIDER');
    },
  );

  it.each(ROUTES.filter(([, path]) => path.includes(':id')))(
    "%s %s on another provider's host: 404, and nothing changes",
    async (method, path) => {
      const owner = await w.provider();
      const { host } = await newHost(owner.cookie);
      const before = await hostRow(host.id);
      const mallory = await w.provider();
      const res = await t.request({
        method,
        url: path.replace(':id', host.id),
        cookie: mallory.cookie,
      });
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('NOT_FOUND');
      expect(await hostRow(host.id)).toEqual(before);
      expect(await listHosts(mallory.cookie)).toEqual([]);
      expect((await listHosts(owner.cookie)).map((h) => h.id)).toEqual([host.id]);
    },
  );

  it.each(ROUTES.filter(([, path]) => path.includes(':id')))(
    '%s %s with an id that does not exist: 404; a malformed id: 400',
    async (method, path) => {
      const owner = await w.provider();
      const missing = await t.request({
        method,
        url: path.replace(':id', '00000000-0000-4000-8000-000000000000'),
        cookie: owner.cookie,
      });
      expect(missing.statusCode).toBe(404);
      const malformed = await t.request({
        method,
        url: path.replace(':id', 'demo'),
        cookie: owner.cookie,
      });
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json().error.code).toBe('VALIDATION_FAILED');
    },
  );
});

describe('enrolment tokens', () => {
  it('a new token replaces the old one and restarts the hour; the old hash is gone', async () => {
    const provider = await w.provider();
    const { host, enrolment } = await newHost(provider.cookie);
    t.clock.advance(ENROLMENT_TOKEN_TTL_MS + 1);
    const res = await t.request({
      method: 'POST',
      url: `/api/providers/hosts/${host.id}/enrolment`,
      cookie: provider.cookie,
    });
    expect(res.statusCode).toBe(201);
    const renewed = createHostResponseSchema.parse(res.json());
    expect(renewed.enrolment.token).not.toBe(enrolment.token);
    expect(renewed.enrolment.token).toMatch(ENROLMENT_TOKEN_PATTERN);
    expect(renewed.enrolment.expiresAt).toBe(
      new Date(t.clock.now().getTime() + ENROLMENT_TOKEN_TTL_MS).toISOString(),
    );
    expect(renewed.host.enrolmentExpiresAt).toBe(renewed.enrolment.expiresAt);
    const row = await hostRow(host.id);
    expect(row.enrolTokenHash).toBe(sha256(renewed.enrolment.token));
    expect(row.enrolTokenExpiresAt?.toISOString()).toBe(renewed.enrolment.expiresAt);
  });

  it('stores an expiry one hour ahead, which the agent enrol checks against', async () => {
    const provider = await w.provider();
    const { host } = await newHost(provider.cookie);
    const row = await hostRow(host.id);
    expect(row.enrolTokenExpiresAt?.getTime()).toBe(
      t.clock.now().getTime() + ENROLMENT_TOKEN_TTL_MS,
    );
    expect(row.enrolledAt).toBeNull();
    expect(row.credentialHash).toBeNull();
  });

  it('refuses a new token once the host has enrolled (409)', async () => {
    const provider = await w.provider();
    const { host } = await newHost(provider.cookie);
    await enrol(host.id, t.clock.now());
    const res = await t.request({
      method: 'POST',
      url: `/api/providers/hosts/${host.id}/enrolment`,
      cookie: provider.cookie,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('CONFLICT');
    expect((await hostRow(host.id)).enrolTokenHash).toBeNull();
  });
});

describe('the host view', () => {
  it('shows an enrolled host online with its inventory, then offline after 90 s of silence', async () => {
    const provider = await w.provider();
    const { host } = await newHost(provider.cookie, 'rack-2');
    await enrol(host.id, t.clock.now());
    let [view] = await listHosts(provider.cookie);
    expect(view).toMatchObject({
      status: 'online',
      hostname: 'gpu-box-01',
      agentVersion: '0.1.0',
      accelerator: 'kvm',
      uptimePercent: 100,
      cpuCores: 32,
      memoryTotalBytes: 128 * 2 ** 30,
      diskFreeBytes: 1.5e12,
      gpuError: null,
      enrolmentExpiresAt: null,
    });
    expect(view?.gpus).toEqual([
      {
        index: 0,
        name: 'NVIDIA GeForce RTX 4090',
        model: 'RTX 4090',
        memoryTotalMib: 24_564,
        utilizationPercent: 0,
        temperatureC: 35,
      },
      {
        index: 1,
        name: 'NVIDIA GeForce RTX 4090',
        model: 'RTX 4090',
        memoryTotalMib: 24_564,
        utilizationPercent: 0,
        temperatureC: 35,
      },
    ]);
    t.clock.advance(AGENT_OFFLINE_AFTER_MS);
    [view] = await listHosts(provider.cookie);
    expect(view?.status).toBe('online');
    t.clock.advance(1);
    [view] = await listHosts(provider.cookie);
    expect(view?.status).toBe('offline');
    // Silent since its last heartbeat: down 90 s of 90 s, though no outage row exists yet.
    expect(view?.uptimePercent).toBe(0);
  });

  it('is offline while the worker has marked it so, and scores uptime from its outages', async () => {
    const provider = await w.provider();
    const { host } = await newHost(provider.cookie);
    const DAY = 24 * 60 * 60 * 1000;
    const now = t.clock.now();
    await enrol(host.id, new Date(now.getTime() - 10 * DAY));
    await db().update(hosts).set({ lastHeartbeatAt: now }).where(eq(hosts.id, host.id));
    await db()
      .insert(hostOutages)
      .values({
        hostId: host.id,
        startedAt: new Date(now.getTime() - 5 * DAY),
        endedAt: new Date(now.getTime() - 4 * DAY),
      });
    let [view] = await listHosts(provider.cookie);
    expect(view).toMatchObject({ status: 'online', uptimePercent: 90 });
    await db().update(hosts).set({ offlineSince: now }).where(eq(hosts.id, host.id));
    [view] = await listHosts(provider.cookie);
    expect(view?.status).toBe('offline');
  });
});

describe('the address renters connect to (PATCH /api/providers/hosts/:id)', () => {
  const patch = (cookie: string, id: string, publicHost: unknown) =>
    t.request({
      method: 'PATCH',
      url: `/api/providers/hosts/${id}`,
      payload: { publicHost },
      cookie,
    });

  it('is set at creation or later by the provider, in canonical form, and cleared', async () => {
    const provider = await w.provider();
    const created = await addHost(provider.cookie, {
      name: 'rack-9',
      publicHost: 'GPU-9.Example.com.',
    });
    expect(created.statusCode).toBe(201);
    const { host } = createHostResponseSchema.parse(created.json());
    expect(host).toMatchObject({ publicHost: 'gpu-9.example.com', agentAddress: null });
    const set = await patch(provider.cookie, host.id, ' 203.0.113.90 ');
    expect(set.statusCode).toBe(200);
    expect(set.json().host.publicHost).toBe('203.0.113.90');
    expect((await hostRow(host.id)).publicHost).toBe('203.0.113.90');
    expect((await patch(provider.cookie, host.id, '')).json().host.publicHost).toBeNull();
  });

  it("refuses what is no address, naming the field; another provider's host is not found", async () => {
    const provider = await w.provider();
    const { host } = await newHost(provider.cookie);
    for (const bad of ['h.example;id;#', '-oProxyCommand=id', '127.1', 'a b', 42]) {
      const res = await patch(provider.cookie, host.id, bad);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'VALIDATION_FAILED' });
      expect(JSON.stringify(res.json().error.details)).toContain('publicHost');
    }
    const other = await w.provider();
    expect((await patch(other.cookie, host.id, 'x.example.com')).statusCode).toBe(404);
    expect((await hostRow(host.id)).publicHost).toBeNull();
  });
});

describe('DELETE /api/providers/hosts/:id', () => {
  it('removes an unused host: gone from the list, credential and token cleared', async () => {
    const provider = await w.provider();
    const { host } = await newHost(provider.cookie);
    await enrol(host.id, t.clock.now());
    const res = await t.request({
      method: 'DELETE',
      url: `/api/providers/hosts/${host.id}`,
      cookie: provider.cookie,
    });
    expect(res.statusCode).toBe(204);
    expect(await listHosts(provider.cookie)).toEqual([]);
    const row = await hostRow(host.id);
    expect(row.removedAt).not.toBeNull();
    expect(row.credentialHash).toBeNull();
    expect(row.enrolTokenHash).toBeNull();
    const again = await t.request({
      method: 'DELETE',
      url: `/api/providers/hosts/${host.id}`,
      cookie: provider.cookie,
    });
    expect(again.statusCode).toBe(404);
  });

  it('refuses 409 HOST_IN_USE while a listing or a live instance uses it', async () => {
    const provider = await w.provider({ credits: '50.00' });
    const { host } = await newHost(provider.cookie);
    const listing = await w.listing({
      providerId: provider.providerId,
      totalCount: 2,
      hostId: host.id,
    });
    const remove = () =>
      t.request({
        method: 'DELETE',
        url: `/api/providers/hosts/${host.id}`,
        cookie: provider.cookie,
      });

    let res = await remove();
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatchObject({
      code: 'HOST_IN_USE',
      details: { listings: 1, liveInstances: 0 },
    });
    expect((await listHosts(provider.cookie))[0]).toMatchObject({ listings: 1 });

    // The host enrols and heartbeats; a rental is placed on it, then the listing removed.
    await enrol(host.id, t.clock.now());
    const rented = await w.rentAs(provider.cookie, listing, 1);
    expect(rented.statusCode).toBe(201);
    await db()
      .update(instances)
      .set({ hostId: host.id })
      .where(eq(instances.gpuListingId, listing.id));
    await db()
      .update(gpuListings)
      .set({ removedAt: t.clock.now() })
      .where(eq(gpuListings.id, listing.id));
    res = await remove();
    expect(res.statusCode).toBe(409);
    expect(res.json().error.details).toEqual({ listings: 0, liveInstances: 1 });
    expect((await hostRow(host.id)).removedAt).toBeNull();

    await db()
      .update(instances)
      .set({ status: 'terminated', endTime: t.clock.now() })
      .where(eq(instances.gpuListingId, listing.id));
    res = await remove();
    expect(res.statusCode).toBe(204);
  });
});

describe('listings on a host', () => {
  const listingBody = (providerId: number, extra: Record<string, unknown> = {}) => ({
    providerId,
    model: 'RTX 4090',
    memory: '24GB',
    location: 'Oslo, Norway',
    hourlyRate: '1.20',
    availableCount: 2,
    ...extra,
  });
  const row = async (id: number) => {
    const [r] = await db().select().from(gpuListings).where(eq(gpuListings.id, id));
    if (!r) throw new Error('listing missing');
    return r;
  };

  it('places a new listing on GPUs its host reported, by default the free ones', async () => {
    const provider = await w.provider();
    const { host } = await newHost(provider.cookie);
    const create = (extra: Record<string, unknown>) =>
      t.request({
        method: 'POST',
        url: '/api/gpu-listings',
        payload: listingBody(provider.providerId, { availableCount: 1, ...extra }),
        cookie: provider.cookie,
      });
    // Before its agent reported any GPU, a host takes no listing.
    const early = await create({ hostId: host.id });
    expect(early.statusCode).toBe(409);
    expect(early.json().error.details.fields.hostId).toHaveLength(1);

    await enrol(host.id, t.clock.now()); // 2 × RTX 4090
    const res = await create({ hostId: host.id });
    expect(res.statusCode).toBe(201);
    expect(await row(res.json().id)).toMatchObject({ hostId: host.id, hostGpuIndexes: [0] });

    const chosen = await create({ hostId: host.id, hostGpuIndexes: [1] });
    expect(chosen.statusCode).toBe(201);
    expect(await row(chosen.json().id)).toMatchObject({ hostId: host.id, hostGpuIndexes: [1] });

    const full = await create({ hostId: host.id });
    expect(full.statusCode).toBe(409);
    expect(full.json().error).toMatchObject({
      code: 'CONFLICT',
      message:
        'This host has 2 × RTX 4090 24GB; 2 are already listed. This listing can offer at most 0 RTX 4090 24GB.',
      details: { hostGpus: { model: 'RTX 4090', count: 2, listed: 2 } },
    });

    const none = await create({});
    expect(await row(none.json().id)).toMatchObject({ hostId: null, hostGpuIndexes: [] });
  });

  it("refuses another provider's host, a removed host and too many GPU indexes, naming the field", async () => {
    const provider = await w.provider();
    const other = await w.provider();
    const { host: theirs } = await newHost(other.cookie);
    const { host: gone } = await newHost(provider.cookie);
    await t.request({
      method: 'DELETE',
      url: `/api/providers/hosts/${gone.id}`,
      cookie: provider.cookie,
    });
    const { host: mine } = await newHost(provider.cookie);
    await enrol(mine.id, t.clock.now());
    const cases: [Record<string, unknown>, string][] = [
      [{ hostId: theirs.id }, 'hostId'],
      [{ hostId: gone.id }, 'hostId'],
      [{ hostId: '00000000-0000-4000-8000-000000000000' }, 'hostId'],
      [{ hostId: 'demo' }, 'hostId'],
      [{ hostId: mine.id, hostGpuIndexes: [0, 1, 2] }, 'hostGpuIndexes'],
      [{ hostId: mine.id, hostGpuIndexes: [1, 1] }, 'hostGpuIndexes'],
      [{ hostId: mine.id, hostGpuIndexes: [-1] }, 'hostGpuIndexes.0'],
      [{ hostGpuIndexes: [0] }, 'hostGpuIndexes'],
    ];
    for (const [extra, field] of cases) {
      const res = await t.request({
        method: 'POST',
        url: '/api/gpu-listings',
        payload: listingBody(provider.providerId, extra),
        cookie: provider.cookie,
      });
      expect(res.statusCode, JSON.stringify(extra)).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_FAILED');
      expect(Object.keys(res.json().error.details.fields)).toEqual([field]);
    }
  });

  it('moves a listing to a host and off it again; a new total keeps the GPUs it had', async () => {
    const provider = await w.provider();
    const { host } = await newHost(provider.cookie);
    await enrol(host.id, t.clock.now()); // 2 × RTX 4090
    const created = await t.request({
      method: 'POST',
      url: '/api/gpu-listings',
      payload: listingBody(provider.providerId),
      cookie: provider.cookie,
    });
    const id = created.json().id as number;
    const patch = (payload: Record<string, unknown>) =>
      t.request({
        method: 'PATCH',
        url: `/api/gpu-listings/${id}`,
        payload,
        cookie: provider.cookie,
      });

    expect((await patch({ hostId: host.id })).statusCode).toBe(200);
    expect(await row(id)).toMatchObject({ hostId: host.id, hostGpuIndexes: [0, 1] });
    expect((await patch({ totalCount: 1 })).statusCode).toBe(200);
    expect(await row(id)).toMatchObject({ hostGpuIndexes: [0] });
    expect((await patch({ hostGpuIndexes: [1] })).statusCode).toBe(200);
    expect(await row(id)).toMatchObject({ hostId: host.id, hostGpuIndexes: [1] });
    expect((await patch({ totalCount: 2 })).statusCode).toBe(200);
    expect(await row(id)).toMatchObject({ hostGpuIndexes: [0, 1] });
    const tooMany = await patch({ totalCount: 3 });
    expect(tooMany.statusCode).toBe(409);
    expect(tooMany.json().error.message).toBe(
      'This host has 2 × RTX 4090 24GB; 0 are already listed. This listing can offer at most 2 RTX 4090 24GB.',
    );
    const wrongModel = await patch({ model: 'H100', memory: '80GB' });
    expect(wrongModel.statusCode).toBe(409);
    expect(wrongModel.json().error.message).toBe(
      'This host has 2 × RTX 4090 24GB and no H100 80GB.',
    );
    expect(await row(id)).toMatchObject({ model: 'RTX 4090', hostGpuIndexes: [0, 1] });
    expect((await patch({ hostId: null })).statusCode).toBe(200);
    expect(await row(id)).toMatchObject({ hostId: null, hostGpuIndexes: [] });
  });
});

describe('closing the account', () => {
  it("removes the provider's idle hosts and refuses their agents; a host still running someone's instance stays", async () => {
    const provider = await w.provider();
    const { host: idle } = await newHost(provider.cookie, 'idle');
    const { host: busy } = await newHost(provider.cookie, 'busy');
    await enrol(idle.id, t.clock.now());
    await enrol(busy.id, t.clock.now());
    // Someone else's rental on the busy host.
    const renter = await t.signIn({ credits: '50.00' });
    const listing = await w.listing({ providerId: provider.providerId, totalCount: 1 });
    const rented = await w.rentAs(renter.cookie, listing, 1);
    expect(rented.statusCode).toBe(201);
    await db()
      .update(instances)
      .set({ hostId: busy.id })
      .where(eq(instances.gpuListingId, listing.id));

    const closed = await t.request({
      method: 'DELETE',
      url: `/api/users/${provider.userId}`,
      cookie: provider.cookie,
    });
    expect(closed.statusCode).toBe(204);
    expect(await hostRow(idle.id)).toMatchObject({ credentialHash: null });
    expect((await hostRow(idle.id)).removedAt).not.toBeNull();
    expect((await hostRow(busy.id)).removedAt).toBeNull();
    expect((await hostRow(busy.id)).credentialHash).not.toBeNull();
  });
});
