import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { heartbeatResponse, type InstanceStatus } from '../../../shared/contracts/agent-protocol';
import { instances } from '../../db/schema';
import { createHost, createProvider } from '../../seed/factories';
import type { TestApp } from '../../test/app';
import { agentCalls } from '../../test/hosts';
import { setupTestApp, type World } from '../../test/suite';

/**
 * A provider's host is untrusted (docs/decisions/013-hosts-are-untrusted.md): what it reports
 * is checked against what the platform knows of it, and one bad report or stored value never
 * breaks anything beyond that one instance. Each test sends what an outside probe sent.
 */

let t: TestApp;
let w: World;
setupTestApp({ env: { PROVISIONING_TIMEOUT_MS: '600000' } }, (app, appWorld) => {
  t = app;
  w = appWorld;
});

/** A provider's enrolled host whose agent calls from `from`, with a listing of two GPUs. */
async function hostAt(from: string, publicHost: string | null = null) {
  const providerId = (await createProvider(t.database.db, {})).id;
  const host = await createHost(t.database.db, {
    providerId,
    lastHeartbeatAt: t.clock.now(),
    publicHost,
  });
  const listing = await w.listing({
    providerId,
    hostId: host.id,
    hourlyRate: '1.00',
    totalCount: 2,
  });
  const { heartbeat, report } = agentCalls(t, host.credential, from);
  return { host, listing, heartbeat, report, from };
}

/** A renter rents one GPU of the listing; the host learns of it at its next heartbeat. */
async function rented(h: Awaited<ReturnType<typeof hostAt>>) {
  const { renter, res: rent } = await w.rent(h.listing, 1, '100.00');
  expect(rent.statusCode).toBe(201);
  const id = rent.json().id as number;
  const answer = heartbeatResponse.parse((await h.heartbeat()).json());
  const generation = answer.instances.find((i) => i.id === String(id))?.generation ?? 0;
  return { id, generation, renter };
}

async function row(id: number) {
  const [found] = await t.database.db.select().from(instances).where(eq(instances.id, id));
  return found;
}

const running = (generation: number, ssh: InstanceStatus['ssh']) => ({
  generation,
  state: 'running' as const,
  ssh,
});

describe('host reports are validated at the door', () => {
  it.each([
    ['a host with shell text', { host: 'h.example;id;#', port: 22001, user: 'ubuntu' }, 'ssh.host'],
    [
      'a host that is an ssh option',
      { host: '-oProxyCommand=id', port: 22001, user: 'ubuntu' },
      'ssh.host',
    ],
    [
      'a numeric shorthand for loopback',
      { host: '127.1', port: 22001, user: 'ubuntu' },
      'ssh.host',
    ],
    [
      'a user that is an ssh option',
      { host: '203.0.113.50', port: 22001, user: '-oProxyCommand=touch /tmp/x;#' },
      'ssh.user',
    ],
    [
      'a user with a command substitution',
      { host: '203.0.113.50', port: 22001, user: 'u$(id)' },
      'ssh.user',
    ],
  ])('refuses %s with 400 naming the field, and stores nothing', async (_, ssh, field) => {
    const h = await hostAt('203.0.113.50');
    const { id, generation } = await rented(h);
    const res = await h.report(id, running(generation, ssh));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('VALIDATION_FAILED');
    expect(JSON.stringify(res.json().error.details)).toContain(field.split('.')[1]);
    expect(await row(id)).toMatchObject({ status: 'provisioning', sshHost: null });
  });

  it("accepts the host's own addresses: the one its agent calls from and its public name", async () => {
    const h = await hostAt('203.0.113.51', 'box-51.example.net');
    const a = await rented(h);
    const b = await rented(h);
    const viaCaller = await h.report(
      a.id,
      running(a.generation, { host: '203.0.113.51', port: 22001, user: 'ubuntu' }),
    );
    expect(viaCaller.json()).toEqual({ accepted: true });
    const viaName = await h.report(
      b.id,
      running(b.generation, { host: 'Box-51.Example.NET.', port: 22002, user: 'ubuntu' }),
    );
    expect(viaName.json()).toEqual({ accepted: true });
    expect(await row(a.id)).toMatchObject({ status: 'running', sshHost: '203.0.113.51' });
    // Stored in canonical form: what renters are shown and the console connects to.
    expect(await row(b.id)).toMatchObject({ status: 'running', sshHost: 'box-51.example.net' });
  });

  it("refuses an address that is not the host's own with 409, and the instance waits", async () => {
    const h = await hostAt('203.0.113.52');
    const { id, generation } = await rented(h);
    for (const host of ['198.51.100.9', '127.0.0.1', 'internal.example', '::1']) {
      const res = await h.report(id, running(generation, { host, port: 22001, user: 'ubuntu' }));
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toMatchObject({
        code: 'HOST_ADDRESS_REFUSED',
        details: { field: 'ssh.host', address: host },
      });
    }
    const vnc = await h.report(id, {
      ...running(generation, { host: '203.0.113.52', port: 22001, user: 'ubuntu' }),
      vnc: { host: '10.0.0.1', port: 5901 },
    });
    expect(vnc.statusCode).toBe(409);
    expect(vnc.json().error.details.field).toBe('vnc.host');
    expect(await row(id)).toMatchObject({ status: 'provisioning', sshHost: null });
  });
});

describe("the heartbeat answer names the host's address", () => {
  it('the public name its provider set, else the address its agent calls from', async () => {
    const named = await hostAt('::ffff:203.0.113.55', 'Box-55.example.net');
    expect((await named.heartbeat()).json().publicAddress).toBe('box-55.example.net');
    const plain = await hostAt('::ffff:203.0.113.56');
    expect((await plain.heartbeat()).json().publicAddress).toBe('203.0.113.56');
  });
});

describe("a report's time", () => {
  it('is never before the state it leaves began, nor in the future', async () => {
    const h = await hostAt('203.0.113.57');
    const { id, generation } = await rented(h);
    const before = await row(id);
    t.clock.advance(30_000);
    const res = await h.report(id, {
      ...running(generation, { host: '203.0.113.57', port: 22001, user: 'ubuntu' }),
      at: '2001-01-01T00:00:00.000Z',
    });
    expect(res.json()).toEqual({ accepted: true });
    const after = await row(id);
    expect(after?.readyAt?.toISOString()).toBe(before?.stateChangedAt.toISOString());
  });
});

describe('two hosts of two providers', () => {
  it("cannot take each other's address; behind one address they may use the same port", async () => {
    const a = await hostAt('203.0.113.60');
    const c = await hostAt('198.51.100.60');
    const onA = await rented(a);
    const onC = await rented(c);
    // A claims C's address and port first: refused, and C's honest report and heartbeats work.
    const claim = await a.report(
      onA.id,
      running(onA.generation, { host: '198.51.100.60', port: 22001, user: 'ubuntu' }),
    );
    expect(claim.json().error.code).toBe('HOST_ADDRESS_REFUSED');
    const honest = running(onC.generation, { host: '198.51.100.60', port: 22001, user: 'ubuntu' });
    const heartbeat = await c.heartbeat([
      { id: String(onC.id), ...honest, vnc: null, error: null },
    ]);
    expect(heartbeat.statusCode).toBe(200);
    expect(await row(onC.id)).toMatchObject({ status: 'running', sshHost: '198.51.100.60' });

    // Two hosts behind one NAT address: ports are unique per host, not across hosts.
    const b = await hostAt('198.51.100.60');
    const onB = await rented(b);
    const same = await b.report(
      onB.id,
      running(onB.generation, { host: '198.51.100.60', port: 22001, user: 'ubuntu' }),
    );
    expect(same.json()).toEqual({ accepted: true });
  });
});

describe('a port another instance on the same host uses', () => {
  it('is a 409 for that report, and never fails the rest of the heartbeat', async () => {
    const h = await hostAt('203.0.113.70');
    const first = await rented(h);
    const second = await rented(h);
    const ssh = { host: '203.0.113.70', port: 22001, user: 'ubuntu' };
    expect((await h.report(first.id, running(first.generation, ssh))).json()).toEqual({
      accepted: true,
    });
    const taken = await h.report(second.id, running(second.generation, ssh));
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error).toMatchObject({
      code: 'SSH_PORT_IN_USE',
      details: { field: 'ssh.port', port: 22001 },
    });

    // In a heartbeat: the clashing entry is refused, the answer still lists both instances.
    const res = await h.heartbeat([
      { id: String(second.id), ...running(second.generation, ssh), vnc: null, error: null },
    ]);
    expect(res.statusCode).toBe(200);
    const ids = heartbeatResponse.parse(res.json()).instances.map((i) => i.id);
    expect(ids).toEqual(expect.arrayContaining([String(first.id), String(second.id)]));
    expect(await row(second.id)).toMatchObject({ status: 'provisioning' });
  });
});

describe('a bad stored value', () => {
  it('never breaks the heartbeat of the whole host: the host still hears a terminate', async () => {
    const h = await hostAt('203.0.113.80');
    const bad = await rented(h);
    const other = await rented(h);
    // A value stored before the checks existed (the probe's `u$(id)`), and a key with a DEL.
    await t.database.db
      .update(instances)
      .set({ sshUsername: 'u$(id)', sshPublicKeys: ['x'.repeat(20_000)] })
      .where(eq(instances.id, bad.id));
    const stop = await t.request({
      method: 'PATCH',
      url: `/api/rentals/${other.id}/stop`,
      cookie: other.renter.cookie,
    });
    expect(stop.statusCode).toBeLessThan(300);
    const res = await h.heartbeat();
    expect(res.statusCode).toBe(200);
    const answer = heartbeatResponse.parse(res.json());
    const badOne = answer.instances.find((i) => i.id === String(bad.id));
    expect(badOne).toMatchObject({ sshUser: 'ubuntu', sshPublicKeys: [] });
    const stopped = answer.instances.find((i) => i.id === String(other.id));
    expect(stopped?.state).toBe('terminated');
  });
});
