import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { heartbeatResponse } from '../../../shared/contracts/agent-protocol';
import { hosts, instances } from '../../db/schema';
import { parseEnv } from '../../env';
import { type Resolve, systemResolve } from '../../lib/outbound-address';
import { createHost, createProvider } from '../../seed/factories';
import { createTestApp, type TestApp } from '../../test/app';
import { agentCalls } from '../../test/hosts';
import { world } from '../../test/world';

/**
 * Addresses a host may use (issue 39, docs/decisions/013-hosts-are-untrusted.md): the public
 * name a provider sets and the addresses its host reports pass one rule
 * (shared/rules/target-address.ts) — no loopback, private, link-local or metadata address,
 * nor another provider's host's — unless the operator runs a lab (ALLOW_PRIVATE_HOST_ADDRESSES,
 * off by default in tests too). The console's side is in instances/console.test.ts.
 */

/** Names of this test's own, as DNS would answer them; any other goes to the system's resolver. */
const names: Record<string, string[]> = {
  'loop.example.com': ['127.0.0.1'],
  'mixed.example.com': ['203.0.113.40', '::1'],
  'metadata-alias.example.com': ['169.254.169.254'],
  'inside.example.com': ['10.1.2.3'],
  'gpu-9.example.com': ['203.0.113.9'],
  'alias-of-b.example.com': ['198.51.100.61'],
};
const resolve: Resolve = async (name) =>
  names[name] ? (names[name] ?? []).map((address) => ({ address })) : systemResolve(name);

let t: TestApp;
let lab: TestApp;
beforeAll(async () => {
  [t, lab] = await Promise.all([
    createTestApp({ resolve }),
    createTestApp({ resolve, env: { ALLOW_PRIVATE_HOST_ADDRESSES: '1' } }),
  ]);
});
afterAll(async () => {
  await Promise.all([t?.close(), lab?.close()]);
});

async function hostRow(on: TestApp, id: string) {
  const [row] = await on.database.db.select().from(hosts).where(eq(hosts.id, id));
  return row;
}

/** A provider with one host added through the dashboard's API. */
async function providerWithHost(on: TestApp) {
  const provider = await world(on).provider();
  const res = await on.request({
    method: 'POST',
    url: '/api/providers/hosts',
    payload: { name: 'rack-1' },
    cookie: provider.cookie,
  });
  expect(res.statusCode).toBe(201);
  const hostId = res.json().host.id as string;
  const setPublicHost = (publicHost: string) =>
    on.request({
      method: 'PATCH',
      url: `/api/providers/hosts/${hostId}`,
      payload: { publicHost },
      cookie: provider.cookie,
    });
  return { ...provider, hostId, setPublicHost };
}

function expectRefused(res: { statusCode: number; json(): unknown }, words: RegExp) {
  expect(res.statusCode).toBe(400);
  const { error } = res.json() as {
    error: { code: string; message: string; details: { fields: Record<string, string[]> } };
  };
  expect(error.code).toBe('VALIDATION_FAILED');
  expect(error.message).toMatch(/^publicHost: Public address must be this host's own address/);
  expect(error.details.fields.publicHost?.[0]).toMatch(words);
}

describe("a provider's public name for its host", () => {
  let next = 0;
  it.each([
    ['127.0.0.1', /127\.0\.0\.1 is a loopback address/],
    ['::1', /::1 is a loopback address/],
    ['::ffff:127.0.0.1', /is a loopback address/],
    ['localhost', /localhost is a loopback address/],
    ['169.254.169.254', /169\.254\.169\.254 is a cloud metadata service's address/],
    ['metadata.google.internal', /metadata\.google\.internal is a cloud metadata service's/],
    ['10.0.0.5', /10\.0\.0\.5 is a private network address/],
    ['192.168.1.20', /a private network address/],
    ['100.64.1.1', /a shared \(carrier-grade NAT\) address/],
    ['fe80::1', /a link-local address/],
    ['0.0.0.0', /an unspecified address/],
    ['loop.example.com', /loop\.example\.com resolves to 127\.0\.0\.1, a loopback address/],
    ['mixed.example.com', /mixed\.example\.com resolves to ::1, a loopback address/],
    ['metadata-alias.example.com', /resolves to 169\.254\.169\.254, a cloud metadata/],
    ['inside.example.com', /resolves to 10\.1\.2\.3, a private network address/],
  ])('refuses %s with 400 naming the field, and keeps what was set', async (address, words) => {
    const p = await providerWithHost(t);
    // Each provider's own: another's public name would be refused for that.
    next += 1;
    const before = `203.0.113.${100 + next}`;
    expect((await p.setPublicHost(before)).statusCode).toBe(200);
    expectRefused(await p.setPublicHost(address), words);
    expect((await hostRow(t, p.hostId))?.publicHost).toBe(before);
  });

  it('is refused when the host is added with it, too: nothing is created', async () => {
    const provider = await world(t).provider();
    const add = (publicHost: string) =>
      t.request({
        method: 'POST',
        url: '/api/providers/hosts',
        payload: { name: 'rack-2', publicHost },
        cookie: provider.cookie,
      });
    expectRefused(await add('169.254.169.254'), /cloud metadata/);
    expectRefused(await add('loop.example.com'), /resolves to 127\.0\.0\.1/);
    const list = await t.request({
      method: 'GET',
      url: '/api/providers/hosts',
      cookie: provider.cookie,
    });
    expect(list.json().hosts).toEqual([]);
  });

  it('accepts a public address, a name that resolves to one, and a name not in DNS yet', async () => {
    const p = await providerWithHost(t);
    for (const address of ['203.0.113.91', 'gpu-9.example.com', 'not-yet.example.invalid']) {
      const res = await p.setPublicHost(address);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().host.publicHost).toBe(address);
    }
  });

  it("refuses another provider's host's public name or agent address, in any spelling or by a name that resolves to it", async () => {
    const providerB = await createProvider(t.database.db, {});
    const hostB = await createHost(t.database.db, {
      providerId: providerB.id,
      publicHost: 'box-b.example.net',
    });
    await t.database.db
      .update(hosts)
      .set({ agentAddress: '198.51.100.61' })
      .where(eq(hosts.id, hostB.id));
    const a = await providerWithHost(t);
    for (const address of ['box-b.example.net', 'BOX-B.example.net.', '198.51.100.61']) {
      expectRefused(await a.setPublicHost(address), /another provider's host's address/);
    }
    expectRefused(await a.setPublicHost('::ffff:198.51.100.61'), /another provider's host/);
    expectRefused(
      await a.setPublicHost('alias-of-b.example.com'),
      /alias-of-b\.example\.com resolves to 198\.51\.100\.61, another provider's host's address/,
    );
    // Its own other host's address is its own: two hosts of one provider behind one NAT.
    const own = await createHost(t.database.db, { providerId: a.providerId });
    await t.database.db
      .update(hosts)
      .set({ agentAddress: '198.51.100.62' })
      .where(eq(hosts.id, own.id));
    expect((await a.setPublicHost('198.51.100.62')).statusCode).toBe(200);
  });

  it('in a lab (ALLOW_PRIVATE_HOST_ADDRESSES=1) takes private addresses, never a metadata service', async () => {
    const p = await providerWithHost(lab);
    for (const address of ['10.0.0.5', '127.0.0.1', 'loop.example.com', 'gpu-box.lan']) {
      const res = await p.setPublicHost(address);
      expect(res.statusCode, res.body).toBe(200);
    }
    expectRefused(await p.setPublicHost('169.254.169.254'), /cloud metadata/);
    expectRefused(await p.setPublicHost('metadata.google.internal'), /cloud metadata/);
    expectRefused(await p.setPublicHost('metadata-alias.example.com'), /cloud metadata/);
  });
});

/** A provider's enrolled host whose agent calls from `from`, a listing, and a rental on it. */
async function rentedOn(on: TestApp, from: string, publicHost: string | null = null) {
  const w = world(on);
  const providerId = (await createProvider(on.database.db, {})).id;
  const host = await createHost(on.database.db, {
    providerId,
    lastHeartbeatAt: on.clock.now(),
    publicHost,
  });
  const listing = await w.listing({ providerId, hostId: host.id, hourlyRate: '1.00' });
  const calls = agentCalls(on, host.credential, from);
  const renter = await on.signIn({ credits: '100.00' });
  const rent = await on.request({
    method: 'POST',
    url: '/api/rentals',
    payload: w.rentBody(listing, 1),
    cookie: renter.cookie,
  });
  expect(rent.statusCode).toBe(201);
  const id = rent.json().id as number;
  const answer = heartbeatResponse.parse((await calls.heartbeat()).json());
  const generation = answer.instances.find((i) => i.id === String(id))?.generation ?? 0;
  const report = (host: string, vnc: { host: string; port: number } | null = null) =>
    calls.report(id, {
      generation,
      state: 'running',
      ssh: { host, port: 22001, user: 'ubuntu' },
      vnc,
    });
  return { id, report };
}

async function instanceRow(on: TestApp, id: number) {
  const [row] = await on.database.db.select().from(instances).where(eq(instances.id, id));
  return row;
}

describe("a host's reports of its instances' addresses", () => {
  it.each([
    ['10.2.0.1', null, '10.2.0.1', /10\.2\.0\.1 is a private network address/],
    ['127.0.0.1', null, '127.0.0.1', /127\.0\.0\.1 is a loopback address/],
    ['::ffff:192.168.7.7', null, '192.168.7.7', /a private network address/],
    ['203.0.113.80', 'localhost', 'localhost', /localhost is a loopback address/],
    ['203.0.113.81', 'metadata.google.internal', 'metadata.google.internal', /cloud metadata/],
  ])(
    'refuses its own address when it is one renters cannot be sent to (agent at %s, public name %s, reports %s)',
    async (from, publicHost, reported, words) => {
      const r = await rentedOn(t, from, publicHost);
      const res = await r.report(reported);
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toMatchObject({
        code: 'HOST_ADDRESS_REFUSED',
        details: { field: 'ssh.host', address: reported },
      });
      expect(res.json().error.message).toMatch(words);
      expect(await instanceRow(t, r.id)).toMatchObject({ status: 'provisioning', sshHost: null });
    },
  );

  it('refuses a private VNC address the same way', async () => {
    // SSH under its public name; VNC at the private address its agent calls from.
    const r = await rentedOn(t, '10.2.0.9', 'box-84.example.net');
    const res = await r.report('box-84.example.net', { host: '10.2.0.9', port: 5901 });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatchObject({
      code: 'HOST_ADDRESS_REFUSED',
      details: { field: 'vnc.host', address: '10.2.0.9' },
    });
  });

  it('accepts its own public address', async () => {
    const r = await rentedOn(t, '203.0.113.82');
    expect((await r.report('203.0.113.82')).json()).toEqual({ accepted: true });
    expect(await instanceRow(t, r.id)).toMatchObject({
      status: 'running',
      sshHost: '203.0.113.82',
    });
  });

  it('in a lab accepts its own loopback address, but never a metadata name', async () => {
    const r = await rentedOn(lab, '127.0.0.1');
    expect((await r.report('127.0.0.1')).json()).toEqual({ accepted: true });
    const m = await rentedOn(lab, '203.0.113.83', 'metadata.google.internal');
    expect((await m.report('metadata.google.internal')).statusCode).toBe(409);
  });
});

describe('ALLOW_PRIVATE_HOST_ADDRESSES', () => {
  it('is off by default in every environment, on with 1 or true', () => {
    for (const NODE_ENV of ['development', 'test', 'production']) {
      const base = { NODE_ENV, PUBLIC_URL: 'https://rentgpu.example' };
      expect(parseEnv(base).ALLOW_PRIVATE_HOST_ADDRESSES).toBe(false);
      expect(
        parseEnv({ ...base, ALLOW_PRIVATE_HOST_ADDRESSES: '1' }).ALLOW_PRIVATE_HOST_ADDRESSES,
      ).toBe(true);
      expect(
        parseEnv({ ...base, ALLOW_PRIVATE_HOST_ADDRESSES: 'true' }).ALLOW_PRIVATE_HOST_ADDRESSES,
      ).toBe(true);
      expect(
        parseEnv({ ...base, ALLOW_PRIVATE_HOST_ADDRESSES: '0' }).ALLOW_PRIVATE_HOST_ADDRESSES,
      ).toBe(false);
    }
    expect(() => parseEnv({ ALLOW_PRIVATE_HOST_ADDRESSES: 'yes' })).toThrow(
      /ALLOW_PRIVATE_HOST_ADDRESSES/,
    );
  });

  it('takes the old CONSOLE_PRIVATE_TARGETS=allow as a deprecated alias; the new setting wins', () => {
    expect(parseEnv({ CONSOLE_PRIVATE_TARGETS: 'allow' }).ALLOW_PRIVATE_HOST_ADDRESSES).toBe(true);
    expect(parseEnv({ CONSOLE_PRIVATE_TARGETS: 'deny' }).ALLOW_PRIVATE_HOST_ADDRESSES).toBe(false);
    expect(
      parseEnv({ CONSOLE_PRIVATE_TARGETS: 'allow', ALLOW_PRIVATE_HOST_ADDRESSES: '0' })
        .ALLOW_PRIVATE_HOST_ADDRESSES,
    ).toBe(false);
  });

  it('stops start-up when HOST_ADDRESS_ALLOWLIST names an address the rule refuses', () => {
    expect(() => parseEnv({ HOST_ADDRESS_ALLOWLIST: '127.0.0.1' })).toThrow(
      /HOST_ADDRESS_ALLOWLIST: 127\.0\.0\.1 is a loopback address.*set ALLOW_PRIVATE_HOST_ADDRESSES=1/,
    );
    expect(
      parseEnv({ HOST_ADDRESS_ALLOWLIST: '127.0.0.1', ALLOW_PRIVATE_HOST_ADDRESSES: '1' })
        .HOST_ADDRESS_ALLOWLIST,
    ).toEqual(['127.0.0.1']);
    expect(() =>
      parseEnv({ HOST_ADDRESS_ALLOWLIST: '169.254.169.254', ALLOW_PRIVATE_HOST_ADDRESSES: '1' }),
    ).toThrow(/cloud metadata service's address$/);
  });
});
