import { afterAll, beforeAll, expect, it } from 'vitest';
import { heartbeatResponse, type InstanceStatus } from '../../../shared/contracts/agent-protocol';
import { createHost, createListing } from '../../seed/factories';
import { createTestApp, type TestApp } from '../../test/app';
import { describeOnPostgres, openTestDatabase } from '../../test/database';
import { fillHistory } from '../../test/history';
import { agentCalls, gpuInventory } from '../../test/hosts';
import { explainAll, StatementLog, seqScannedTables } from '../../test/idle-plans';
import { world } from '../../test/world';

/** Instances that ended long ago, as a marketplace a year old has them. */
const HISTORY = 20_000;
/** A table this big read whole on every request is what no request may do. */
const BIG = 1_000;
const AGENT_ADDRESS = '203.0.113.60';

const describeHere = describeOnPostgres(
  'server/modules/instances/request-plans.test.ts',
  'it checks PostgreSQL query plans',
);

/**
 * A request costs the same on a marketplace with a long past (issue 20): every statement that
 * a renter's requests (rent, VM create, stop, start, terminate, their lists and summaries) and
 * their host's agent (heartbeat, reports) send is planned on indexes, never as a Seq Scan of a
 * big table. The statements are the ones the app really sends (openDatabase's logger); the
 * worker's jobs are checked the same way in server/worker/idle-plans.test.ts.
 */
describeHere('requests read no history (PostgreSQL plans)', () => {
  const log = new StatementLog();
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  let t: TestApp;

  beforeAll(async () => {
    database = await openTestDatabase({ logger: log });
    await fillHistory(database.db, HISTORY, new Date());
    t = await createTestApp({ database, env: { PROVISIONING_TIMEOUT_MS: '600000' } });
  });
  afterAll(async () => {
    await t?.close();
    await database?.close();
  });

  it("a renter's day and their host's agent plan every statement on indexes", async () => {
    const { url } = database;
    if (!url) throw new Error('no PostgreSQL URL');
    const postgres: string = url;
    const w = world(t);
    const provider = await w.provider();
    const demo = await createListing(database.db, {
      providerId: provider.providerId,
      model: 'RTX 4090',
      memory: '24GB',
      hourlyRate: '1.00',
      totalCount: 2,
    });
    const host = await createHost(database.db, {
      providerId: provider.providerId,
      lastHeartbeatAt: t.clock.now(),
      gpus: { name: 'NVIDIA A40', count: 1 },
    });
    await createListing(database.db, {
      providerId: provider.providerId,
      model: 'A40',
      memory: '48GB',
      hourlyRate: '1.00',
      hostId: host.id,
      totalCount: 1,
      hostGpuIndexes: [0],
    });
    const agent = agentCalls(t, host.credential, AGENT_ADDRESS, {
      gpus: gpuInventory('NVIDIA A40').gpus.slice(0, 1),
      error: null,
    });
    const renter = await t.signIn({ credits: '100.00' });
    const as = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, payload?: object) =>
      t.request({ method, url: path, cookie: renter.cookie, ...(payload ? { payload } : {}) });
    const generation = async (id: number) =>
      heartbeatResponse
        .parse((await agent.heartbeat()).json())
        .instances.find((i) => i.id === String(id))?.generation ?? 0;
    const ssh: InstanceStatus['ssh'] = { host: AGENT_ADDRESS, port: 22010, user: 'ubuntu' };

    const found: Record<string, string[]> = {};
    /** Runs one step, expecting `status`, and keeps every Seq Scan of a big table it planned. */
    async function step<T>(
      name: string,
      status: number,
      send: () => Promise<{ statusCode: number; body: string; json(): T }>,
    ) {
      let answer: { statusCode: number; body: string; json(): T } | undefined;
      const statements = await log.during(async () => {
        answer = await send();
      });
      expect(`${answer?.statusCode} ${answer?.body}`, name).toMatch(new RegExp(`^${status} `));
      for (const plan of await explainAll(postgres, statements)) {
        const big = seqScannedTables(plan.scans).filter((s) => (plan.rows.get(s) ?? 0) >= BIG);
        if (big.length > 0)
          found[name] = [...(found[name] ?? []), `Seq Scan on ${big.join(', ')}: ${plan.sql}`];
      }
      return answer?.json() as T;
    }

    const rental = await step<{ id: number }>('rent', 201, () =>
      as('POST', '/api/rentals', w.rentBody(demo, 1)),
    );
    const vm = await step<{ vm_id: number }>('VM create', 201, () =>
      as('POST', '/api/kvm/instances', { gpu_type: 'A40', disk_gb: 50 }),
    );
    const id = vm.vm_id;
    await step('heartbeat', 200, () => agent.heartbeat());
    const g = await generation(id);
    await step('report running', 200, () =>
      agent.report(id, { generation: g, state: 'running', ssh }),
    );
    for (const path of [
      `/api/rentals/user/${renter.userId}`,
      '/api/kvm/instances',
      '/api/kvm/gpus',
      '/api/deploy/gpus',
      '/api/kvm/billing/summary',
      '/api/payments/history',
      '/api/payments/summary',
      '/api/payments/limits',
      '/api/marketplace/stats',
      '/api/gpu-listings',
    ])
      await step(`GET ${path}`, 200, () => as('GET', path));
    await step('rental stop', 200, () => as('PATCH', `/api/rentals/${rental.id}/stop`));
    await step('VM stop', 200, () => as('POST', `/api/kvm/instances/${id}/stop`, {}));
    const stopping = await generation(id);
    await step('report stopped', 200, () =>
      agent.report(id, { generation: stopping, state: 'stopped' }),
    );
    await step('VM start', 200, () => as('POST', `/api/kvm/instances/${id}/start`, {}));
    await step('VM terminate', 200, () => as('DELETE', `/api/kvm/instances/${id}`));
    await step('heartbeat after', 200, () => agent.heartbeat());
    expect(found).toEqual({});
    // The history is really there, as the planner sees it.
    const [plan] = await explainAll(url, [{ sql: 'select 1', params: [] }]);
    expect(plan?.rows.get('instances') ?? 0).toBeGreaterThanOrEqual(HISTORY);
  });
});
