import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { heartbeatResponse } from '../../../shared/contracts/agent-protocol';
import { hostsResponse } from '../../../shared/contracts/hosts';
import type { Tx } from '../../db/client';
import { gpuListings, instances } from '../../db/schema';
import { testDatabaseUrl } from '../../env';
import { createHost, createListing } from '../../seed/factories';
import type { TestApp } from '../../test/app';
import { agentCalls, gpuInventory } from '../../test/hosts';
import { setupTestApp, type World } from '../../test/suite';
import { listingsService } from '../listings/service';

/**
 * Listings and instances bound to the GPUs a host reported (docs/decisions/020), through the
 * agent protocol: the host's heartbeats report two H100s as the real nvidia-smi names them
 * (shared/fixtures/real-gpu, agent/test/fake-nvidia-smi).
 */
let t: TestApp;
let w: World;
setupTestApp({ env: { PROVISIONING_TIMEOUT_MS: '600000' } }, (app, appWorld) => {
  t = app;
  w = appWorld;
});

const AGENT_ADDRESS = '203.0.113.25';

/** What the real H100 host's agent reads (81559 MiB each), `count` of them. */
function realH100s(count = 2, name = 'NVIDIA H100 80GB HBM3') {
  const two = gpuInventory(name, (index) => ({
    uuid: `GPU-0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4${index}`,
    memoryTotalMib: 81_559,
    memoryUsedMib: 0,
    temperatureC: 44,
  }));
  return { gpus: two.gpus.slice(0, count), error: null };
}

/** A provider (signed in) whose host enrolled and heartbeats `gpus` through the protocol. */
async function providerWithHost(gpus = realH100s()) {
  const provider = await w.provider();
  const host = await createHost(t.database.db, {
    providerId: provider.providerId,
    lastHeartbeatAt: null,
    gpus: null,
  });
  const agent = agentCalls(t, host.credential, AGENT_ADDRESS, gpus);
  const beat = await agent.heartbeat();
  expect(beat.statusCode).toBe(200);
  return { provider, host, agent };
}

const createListingFor = (cookie: string, providerId: number, body: Record<string, unknown>) =>
  t.request({
    method: 'POST',
    url: '/api/gpu-listings',
    cookie,
    payload: {
      providerId,
      model: 'H100',
      memory: '80GB',
      location: 'Oslo, Norway',
      hourlyRate: '3.00',
      ...body,
    },
  });

async function listingRow(id: number) {
  const [row] = await t.database.db.select().from(gpuListings).where(eq(gpuListings.id, id));
  if (!row) throw new Error('listing missing');
  return row;
}

async function instanceRow(id: number) {
  const [row] = await t.database.db.select().from(instances).where(eq(instances.id, id));
  if (!row) throw new Error('instance missing');
  return row;
}

const rent = (cookie: string, listing: Awaited<ReturnType<typeof listingRow>>) =>
  t.request({ method: 'POST', url: '/api/rentals', cookie, payload: w.rentBody(listing, 1) });

describe('a listing sells GPUs its host reported', () => {
  it('refuses more units than the host has and a model it has not, naming what it has', async () => {
    const { provider, host } = await providerWithHost();
    const four = await createListingFor(provider.cookie, provider.providerId, {
      hostId: host.id,
      availableCount: 4,
    });
    expect(four.statusCode).toBe(409);
    expect(four.json().error).toEqual({
      code: 'CONFLICT',
      message:
        'This host has 2 × H100 80GB; 0 are already listed. This listing can offer at most 2 H100 80GB.',
      details: {
        fields: {
          hostId: [
            'This host has 2 × H100 80GB; 0 are already listed. This listing can offer at most 2 H100 80GB.',
          ],
        },
        hostGpus: { model: 'H100', count: 2, listed: 0 },
      },
    });
    const wrong = await createListingFor(provider.cookie, provider.providerId, {
      hostId: host.id,
      model: 'RTX 4090',
      memory: '24GB',
      availableCount: 1,
    });
    expect(wrong.statusCode).toBe(409);
    expect(wrong.json().error.message).toBe('This host has 2 × H100 80GB and no RTX 4090 24GB.');

    const two = await createListingFor(provider.cookie, provider.providerId, {
      hostId: host.id,
      availableCount: 2,
    });
    expect(two.statusCode).toBe(201);
    expect(await listingRow(two.json().id)).toMatchObject({ hostGpuIndexes: [0, 1] });
    const more = await createListingFor(provider.cookie, provider.providerId, {
      hostId: host.id,
      availableCount: 1,
    });
    expect(more.statusCode).toBe(409);
    expect(more.json().error.message).toMatch(/^This host has 2 × H100 80GB; 2 are already listed/);
    // An edit is held to the same rule.
    const grow = await t.request({
      method: 'PATCH',
      url: `/api/gpu-listings/${two.json().id}`,
      cookie: provider.cookie,
      payload: { totalCount: 3 },
    });
    expect(grow.statusCode).toBe(409);
    expect((await listingRow(two.json().id)).totalCount).toBe(2);
  });

  it('gives rentals GPUs 0 and 1 and refuses a third; a lost GPU stops the listing and says why', async () => {
    const { provider, host, agent } = await providerWithHost();
    const created = await createListingFor(provider.cookie, provider.providerId, {
      hostId: host.id,
      availableCount: 2,
    });
    const listing = await listingRow(created.json().id);
    const renter = await t.signIn({ credits: '100.00' });
    const first = await rent(renter.cookie, listing);
    const second = await rent(renter.cookie, listing);
    expect([first.statusCode, second.statusCode]).toEqual([201, 201]);
    expect((await instanceRow(first.json().id)).gpuIndexes).toEqual([0]);
    expect((await instanceRow(second.json().id)).gpuIndexes).toEqual([1]);
    const third = await rent(renter.cookie, listing);
    expect(third.statusCode).toBe(409);
    // The host is told which GPU each instance has.
    const answer = heartbeatResponse.parse((await agent.heartbeat()).json());
    expect(answer.instances.map((i) => i.gpuIndexes).sort()).toEqual([[0], [1]]);

    // Both end; then the host's heartbeat reports GPU 1 gone.
    for (const id of [first.json().id, second.json().id]) {
      const res = await t.request({
        method: 'PATCH',
        url: `/api/rentals/${id}/stop`,
        cookie: renter.cookie,
      });
      expect(res.statusCode).toBe(200);
    }
    // The host lets both go (a stopping or terminating instance keeps its GPU until then).
    const letGo = heartbeatResponse.parse((await agent.heartbeat()).json());
    for (const i of letGo.instances) {
      const res = await agent.report(Number(i.id), {
        generation: i.generation,
        state: 'terminated',
      });
      expect(res.statusCode).toBe(200);
    }
    const lost = agentCalls(t, host.credential, AGENT_ADDRESS, realH100s(1));
    expect((await lost.heartbeat()).statusCode).toBe(200);
    const problem =
      'GPU 1 (H100 80GB) is no longer reported by this host, so this listing cannot be rented. Bring the GPU back or edit the listing.';
    expect((await listingRow(listing.id)).gpuProblem).toBe(problem);
    const before = await w.balance(renter.cookie);
    const refused = await rent(renter.cookie, await listingRow(listing.id));
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({
      code: 'LISTING_UNAVAILABLE',
      details: { reason: problem },
    });
    expect(await w.balance(renter.cookie)).toBe(before);
    const hosts = hostsResponse.parse(
      (
        await t.request({ method: 'GET', url: '/api/providers/hosts', cookie: provider.cookie })
      ).json(),
    ).hosts;
    expect(hosts[0]?.listingProblems).toEqual([{ listingId: listing.id, model: 'H100', problem }]);
    expect(hosts[0]?.gpus.map((g) => g.model)).toEqual(['H100']);

    // The GPU comes back: the listing is rentable again.
    expect((await agent.heartbeat()).statusCode).toBe(200);
    expect((await listingRow(listing.id)).gpuProblem).toBeNull();
    expect((await rent(renter.cookie, await listingRow(listing.id))).statusCode).toBe(201);
  });

  it('never gives one GPU twice, even to listings that both claim it (written before ADR 020)', async () => {
    const { provider, host } = await providerWithHost();
    // Two 2-unit listings on the same two GPUs, as the product accepted before.
    const a = await createListing(t.database.db, {
      providerId: provider.providerId,
      model: 'H100',
      memory: '80GB',
      hostId: host.id,
      totalCount: 2,
    });
    const b = await createListing(t.database.db, {
      providerId: provider.providerId,
      model: 'H100',
      memory: '80GB',
      hostId: host.id,
      totalCount: 2,
    });
    const renter = await t.signIn({ credits: '100.00' });
    expect((await rent(renter.cookie, a)).statusCode).toBe(201);
    expect((await rent(renter.cookie, b)).statusCode).toBe(201);
    const before = await w.balance(renter.cookie);
    const third = await rent(renter.cookie, await listingRow(a.id));
    expect(third.statusCode).toBe(409);
    expect(third.json().error).toMatchObject({
      code: 'CAPACITY_UNAVAILABLE',
      message:
        'Every GPU of this listing is in use right now, so nothing was rented or charged. Please choose another or try again later.',
    });
    expect(await w.balance(renter.cookie)).toBe(before);
    const live = await t.database.db.select().from(instances).where(eq(instances.hostId, host.id));
    expect(live.map((i) => i.gpuIndexes).sort()).toEqual([[0], [1]]);
  });
});

describe(`a race for a host's last GPU (${testDatabaseUrl() ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('concurrent rents and creates from two listings of one GPU: exactly one wins, no loser is charged', async () => {
    const provider = await w.provider();
    const host = await createHost(t.database.db, {
      providerId: provider.providerId,
      gpus: { name: 'NVIDIA A40', count: 1 },
    });
    // Each listing has a free unit; only one GPU stands behind both.
    const listings = await Promise.all(
      [0, 1].map(() =>
        createListing(t.database.db, {
          providerId: provider.providerId,
          model: 'A40',
          memory: '48GB',
          hourlyRate: '1.00',
          hostId: host.id,
          totalCount: 1,
          hostGpuIndexes: [0],
        }),
      ),
    );
    const renters = await Promise.all(
      Array.from({ length: 10 }, () => t.signIn({ credits: '100.00' })),
    );
    const results = await Promise.all(
      renters.flatMap((renter, i) => [
        rent(renter.cookie, listings[i % 2] as (typeof listings)[number]),
        t.request({
          method: 'POST',
          url: '/api/kvm/instances',
          cookie: renter.cookie,
          payload: { gpu_type: 'A40', disk_gb: 50 },
        }),
      ]),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 201)).toHaveLength(1);
    expect(codes.filter((c) => c !== 201).every((c) => c === 409)).toBe(true);
    for (const r of results.filter((r) => r.statusCode === 409)) {
      expect(r.json().error.message).not.toBe('');
    }
    const live = await t.database.db.select().from(instances).where(eq(instances.hostId, host.id));
    expect(live.map((i) => i.gpuIndexes)).toEqual([[0]]);
    const winner = live[0]?.userId;
    for (const renter of renters) {
      if (renter.userId !== winner) expect(await w.balance(renter.cookie)).toBe('100.00');
    }
  });
});

describe('the statement that takes a unit locks its GPU pool', () => {
  /** Whether this transaction holds the advisory lock gpuRepo.lockPool takes for `key`. */
  async function holdsPool(tx: Tx, key: string) {
    const result = await tx.execute(sql`select count(*)::int as n from pg_locks
      where locktype = 'advisory' and pid = pg_backend_pid() and objsubid = 1
        and objid::bigint = (hashtext(${`gpu-pool:${key}`})::bigint & 4294967295)`);
    return (result as unknown as { rows: { n: number }[] }).rows[0]?.n === 1;
  }

  it('a reserve and a start hold the pool (host or demo listing) until the transaction ends', async () => {
    const provider = await w.provider();
    const host = await createHost(t.database.db, {
      providerId: provider.providerId,
      gpus: { name: 'NVIDIA A40', count: 2 },
    });
    const onHost = await createListing(t.database.db, {
      providerId: provider.providerId,
      model: 'A40',
      memory: '48GB',
      hourlyRate: '1.00',
      hostId: host.id,
      totalCount: 2,
      hostGpuIndexes: [0, 1],
    });
    const demo = await createListing(t.database.db, {
      providerId: provider.providerId,
      model: 'A40',
      memory: '48GB',
      hourlyRate: '1.00',
      totalCount: 2,
    });
    const rolledBack = new Error('roll back');
    for (const [listing, key] of [
      [onHost, host.id],
      [demo, `listing:${demo.id}`],
    ] as const) {
      for (const take of ['reserve', 'start'] as const) {
        await expect(
          t.database.db.transaction(async (tx) => {
            expect(await holdsPool(tx, key)).toBe(false);
            const pool =
              take === 'reserve'
                ? (
                    await listingsService.reserveForLaunch(tx, {
                      id: listing.id,
                      renterId: randomUUID(),
                      kind: 'vm',
                    })
                  )?.unit.pool
                : await listingsService.takeUnit(tx, listing.id, 'vm');
            expect(pool).toMatchObject({ id: listing.id, locked: true });
            expect(await holdsPool(tx, key)).toBe(true);
            throw rolledBack;
          }),
        ).rejects.toBe(rolledBack);
      }
    }
  });
});
