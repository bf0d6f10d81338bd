import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  AGENT_HEARTBEAT_LIST_MAX,
  agentPaths,
  heartbeatResponse,
  type InstanceStatus,
} from '../../../shared/contracts/agent-protocol';
import { instances } from '../../db/schema';
import { createHost, createProvider } from '../../seed/factories';
import type { TestApp } from '../../test/app';
import { agentCalls, gpuInventory, heartbeatBody } from '../../test/hosts';
import { type World, withTestApp } from '../../test/suite';
import { world } from '../../test/world';

/**
 * The agent protocol at its limits: a port another live instance holds is a 409 (never a
 * 500), and a host with more instances than one heartbeat answer carries reads them in pages.
 */

let t: TestApp;
let w: World;
withTestApp({ env: { PROVISIONING_TIMEOUT_MS: '600000' } }, (app) => {
  t = app;
  w = world(t);
});

/** A provider's enrolled host whose agent calls from `from`, with a listing of two GPUs. */
async function hostAt(from: string, model = 'RTX 4090') {
  const providerId = (await createProvider(t.database.db, {})).id;
  // Its two GPUs are of the listing's model (a test model: a card of that name).
  const gpuName = model === 'RTX 4090' ? 'NVIDIA GeForce RTX 4090' : model;
  const host = await createHost(t.database.db, {
    providerId,
    lastHeartbeatAt: t.clock.now(),
    gpus: { name: gpuName, count: 2 },
  });
  const listing = await w.listing({
    providerId,
    hostId: host.id,
    hourlyRate: '1.00',
    totalCount: 2,
    model,
    memory: '24GB',
  });
  return { host, listing, ...agentCalls(t, host.credential, from, gpuInventory(gpuName)) };
}

const running = (generation: number, ssh: InstanceStatus['ssh']) => ({
  generation,
  state: 'running' as const,
  ssh,
});

async function row(id: number) {
  const [found] = await t.database.db.select().from(instances).where(eq(instances.id, id));
  return found;
}

const portInUse = (port: number) => ({
  error: {
    code: 'SSH_PORT_IN_USE',
    message: `SSH port ${port} is in use by another instance on this host.`,
    details: { field: 'ssh.port', port },
  },
});

describe('an SSH port another live instance on the host holds', () => {
  it('is a 409 with the error body for a VM starting again, and for a heartbeat entry only that entry is refused', async () => {
    const h = await hostAt('203.0.113.90', 'Gpu Port');
    const user = await t.signIn({ credits: '100.00' });
    const create = async () => {
      const res = await t.request({
        method: 'POST',
        url: '/api/kvm/instances',
        cookie: user.cookie,
        payload: { gpu_type: 'Gpu Port' },
      });
      expect(res.statusCode).toBe(201);
      return res.json().vm_id as number;
    };
    const a = await create();
    const b = await create();
    const generation = async (id: number) =>
      heartbeatResponse
        .parse((await h.heartbeat()).json())
        .instances.find((i) => i.id === String(id))?.generation ?? 0;
    const ssh = (port: number) => ({ host: '203.0.113.90', port, user: 'ubuntu' });
    expect((await h.report(a, running(await generation(a), ssh(22001)))).statusCode).toBe(200);
    expect((await h.report(b, running(await generation(b), ssh(22002)))).statusCode).toBe(200);

    // A stopped VM keeps its port: a new instance may not report it.
    const vm = (action: 'stop' | 'start') =>
      t.request({
        method: 'POST',
        url: `/api/kvm/instances/${a}/${action}`,
        cookie: user.cookie,
        payload: {},
      });
    expect((await vm('stop')).statusCode).toBe(200);
    await h.report(a, { generation: await generation(a), state: 'stopped' });
    expect((await vm('start')).statusCode).toBe(200);
    // Started again, it comes up on the port b holds: refused, b keeps it.
    const clash = await h.report(a, running(await generation(a), ssh(22002)));
    expect(clash.statusCode).toBe(409);
    expect(clash.json()).toEqual(portInUse(22002));
    expect(await row(a)).toMatchObject({ status: 'starting' });
    expect(await row(b)).toMatchObject({ status: 'running', sshPort: 22002 });

    const beat = await h.heartbeat([
      { id: String(a), ...running(await generation(a), ssh(22002)), vnc: null, error: null },
    ]);
    expect(beat.statusCode).toBe(200);
    expect(await row(a)).toMatchObject({ status: 'starting' });
    // On its own port it is running.
    const own = await h.report(a, running(await generation(a), ssh(22003)));
    expect(own.json()).toEqual({ accepted: true });
    expect(await row(a)).toMatchObject({ status: 'running', sshPort: 22003 });
    for (const id of [a, b]) {
      await t.request({ method: 'DELETE', url: `/api/kvm/instances/${id}`, cookie: user.cookie });
    }
  });

  it('is a 409 for each of two reports of one port at once but one', async () => {
    const h = await hostAt('203.0.113.91');
    const renter = await t.signIn({ credits: '100.00' });
    const ids: number[] = [];
    for (let i = 0; i < 2; i += 1) {
      const rent = await w.rentAs(renter.cookie, h.listing, 1);
      expect(rent.statusCode).toBe(201);
      ids.push(rent.json().id as number);
    }
    const answer = heartbeatResponse.parse((await h.heartbeat()).json());
    const ssh = { host: '203.0.113.91', port: 22001, user: 'ubuntu' };
    const results = await Promise.all(
      ids.map((id) => {
        const generation = answer.instances.find((i) => i.id === String(id))?.generation ?? 0;
        return h.report(id, running(generation, ssh));
      }),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.statusCode === 409)?.json()).toEqual(portInUse(22001));
  });
});

describe('a host with more instances than one heartbeat answer lists', () => {
  it('gets them in pages by id, each answer within the contract, the next page at its cursor', async () => {
    const h = await hostAt('203.0.113.92');
    const renter = await t.signIn();
    const now = t.clock.now();
    const total = AGENT_HEARTBEAT_LIST_MAX + 205;
    // Instances being let go of that the host has not acknowledged yet (a host back after a
    // long outage): each is listed, as terminated, until the host reports it gone.
    await t.database.db.insert(instances).values(
      Array.from({ length: total }, () => ({
        userId: renter.userId,
        gpuListingId: h.listing.id,
        providerId: h.listing.providerId,
        hostId: h.host.id,
        billingPlan: 'metered',
        source: 'vm',
        status: 'terminating',
        hourlyRateMicros: h.listing.hourlyRateMicros,
        startTime: now,
        provisioningDeadline: now,
        endTime: now,
        paidThrough: now,
        vncPassword: 'pw',
      })),
    );
    const first = await h.heartbeat();
    expect(first.statusCode).toBe(200);
    const page1 = heartbeatResponse.parse(first.json());
    expect(page1.instances).toHaveLength(AGENT_HEARTBEAT_LIST_MAX);
    const ids1 = page1.instances.map((i) => Number(i.id));
    expect(ids1).toEqual([...ids1].sort((x, y) => x - y));
    expect(page1.nextCursor).toBe(String(ids1.at(-1)));
    expect(page1.instances.every((i) => i.state === 'terminated')).toBe(true);

    const next = await t.request({
      method: 'POST',
      url: agentPaths.heartbeat,
      payload: { ...heartbeatBody(), cursor: page1.nextCursor },
      headers: { authorization: `Bearer ${h.host.credential}` },
      remoteAddress: '203.0.113.92',
    });
    expect(next.statusCode).toBe(200);
    const page2 = heartbeatResponse.parse(next.json());
    expect(page2.instances).toHaveLength(total - AGENT_HEARTBEAT_LIST_MAX);
    expect(page2.nextCursor).toBeUndefined();
    const all = new Set([...ids1, ...page2.instances.map((i) => Number(i.id))]);
    expect(all.size).toBe(total);

    // Once the host has let the first page go, the next answer fits in one.
    await t.database.db
      .update(instances)
      .set({ status: 'terminated', hostReleasedAt: now })
      .where(inArray(instances.id, ids1));
    const caughtUp = heartbeatResponse.parse((await h.heartbeat()).json());
    expect(caughtUp.instances).toHaveLength(total - AGENT_HEARTBEAT_LIST_MAX);
    expect(caughtUp.nextCursor).toBeUndefined();
  });

  it('refuses a cursor it did not give with 400 naming the field', async () => {
    const h = await hostAt('203.0.113.93');
    const res = await t.request({
      method: 'POST',
      url: agentPaths.heartbeat,
      payload: { ...heartbeatBody(), cursor: 'not-mine' },
      headers: { authorization: `Bearer ${h.host.credential}` },
      remoteAddress: '203.0.113.93',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { fields: { cursor: [expect.any(String)] } },
    });
  });
});
