import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { heartbeatResponse } from '../../../shared/contracts/agent-protocol';
import { DEFAULT_SETTINGS, type UserSettings } from '../../../shared/contracts/settings';
import { instances } from '../../db/schema';
import type { TestApp } from '../../test/app';
import { type agentCalls, hostWithAgent } from '../../test/hosts';
import { createApiKey, v1Request } from '../../test/public-api';
import { setupTestApp, type World } from '../../test/suite';
import { type Receiver, startReceiver, verifyDelivery } from '../../test/webhooks';
import { ledgerService } from '../ledger/service';
import { eventHintOf } from './hints';
import { eventLog } from './service';

/**
 * The event log (issue 40, docs/decisions/027): an instance's whole life, whoever moved it
 * (its renter, its host, a deadline, a spend cap), read back by cursor in order with one
 * sequence per subject; the wallet's events add up to its ledger balance. PGlite here, and
 * PostgreSQL in CI (money tests).
 */
let t: TestApp;
let w: World;
// A lab (ALLOW_PRIVATE_HOST_ADDRESSES): the webhook receiver listens on 127.0.0.1.
setupTestApp({ env: { ALLOW_PRIVATE_HOST_ADDRESSES: '1' } }, (app, world) => {
  t = app;
  w = world;
});

const MIN = 60_000;
const AGENT_ADDRESS = '203.0.113.77';
const SSH = { host: AGENT_ADDRESS, port: 22001, user: 'ubuntu' };
let models = 0;

async function agentHost(hourlyRate = '1.20') {
  models += 1;
  return hostWithAgent(t, (await w.provider()).providerId, {
    model: `Gpu Events ${models}`,
    hourlyRate,
    from: AGENT_ADDRESS,
  });
}

async function told(calls: ReturnType<typeof agentCalls>, id: number) {
  const answer = heartbeatResponse.parse((await calls.heartbeat()).json());
  return answer.instances.find((i) => i.id === String(id))?.generation ?? 0;
}

async function hostReports(
  calls: ReturnType<typeof agentCalls>,
  id: number,
  state: 'running' | 'stopped' | 'terminated',
) {
  const generation = await told(calls, id);
  const res = await calls.report(id, {
    generation,
    state,
    ...(state === 'running' ? { ssh: SSH } : {}),
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** Time passes with the host heartbeating every 30 s, its instance running as told. */
async function live(calls: ReturnType<typeof agentCalls>, id: number, ms: number) {
  for (let at = 0; at < ms; at += 30_000) {
    await t.passTime(30_000);
    const generation = await told(calls, id);
    await calls.heartbeat([
      { id: String(id), generation, state: 'running', ssh: SSH, vnc: null, error: null },
    ]);
  }
}

async function status(id: number) {
  const [row] = await t.database.db.select().from(instances).where(eq(instances.id, id));
  return row?.status;
}

interface Ev {
  id: string;
  type: string;
  subject: { kind: string; id: string; seq: number };
  data: Record<string, unknown>;
}

/** Every event the key's account can read, page by page (`limit` each) from the start. */
async function readAll(key: string, query = '', limit = 3): Promise<Ev[]> {
  const all: Ev[] = [];
  let after = '';
  for (;;) {
    const res = await v1Request(
      t,
      key,
      'GET',
      // wait=1: an event written by a transaction still settling is waited for, not missed.
      `/events?limit=${limit}&wait=1${after ? `&after=${after}` : ''}${query}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json() as { data: Ev[]; nextCursor: string | null; hasMore: boolean };
    all.push(...page.data);
    if (page.data.length === 0) {
      expect(page.nextCursor).toBe(after || null);
      return all;
    }
    after = page.nextCursor as string;
  }
}

describe('the event log', () => {
  it('an instance’s whole life, whoever moved it, in order by cursor: create → ready → deadline stop → start → spend-cap stop → terminate', async () => {
    const { listing, calls } = await agentHost('1.20');
    const user = await t.signIn({ credits: '50.00' });
    const { key } = await createApiKey(t, user.cookie, ['read', 'write']);
    const rx: Receiver = await startReceiver(t.clock);
    const hook = await v1Request(t, key, 'POST', '/webhook-endpoints', {
      url: `${rx.url}/rentgpu`,
      types: ['*'],
    });
    expect(hook.statusCode, hook.body).toBe(201);
    const { secret } = hook.json() as { secret: string };
    const stopAt = new Date(t.clock.now().getTime() + 5 * MIN).toISOString();
    const created = await v1Request(t, key, 'POST', '/instances', {
      gpuListingId: listing.id,
      stopAt,
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().instance.id as number;

    await hostReports(calls, id, 'running'); // ready (its host verified a login)
    await live(calls, id, 6 * MIN); // the "stop at" comes: the worker stops it
    expect(await status(id)).toBe('stopping');
    await hostReports(calls, id, 'stopped');

    expect((await v1Request(t, key, 'POST', `/instances/${id}/start`)).statusCode).toBe(200);
    await hostReports(calls, id, 'running');
    // A daily cap a few cents above what is spent: the next minutes cross it.
    const spent = 50_000_000n - (await ledgerService.walletBalance(t.database.db, user.userId));
    const cap = ((Number(spent) / 1e6 + 0.06) * 100) | 0;
    const settings: UserSettings = {
      ...DEFAULT_SETTINGS,
      billing: { ...DEFAULT_SETTINGS.billing, dailySpendCap: (cap / 100).toFixed(2) },
    };
    const capped = await t.request({
      method: 'PATCH',
      url: `/api/users/${user.userId}/settings`,
      cookie: user.cookie,
      payload: settings,
    });
    expect(capped.statusCode, capped.body).toBe(200);
    for (let m = 0; m < 10 && (await status(id)) === 'running'; m += 1) {
      await live(calls, id, MIN);
    }
    expect(await status(id)).toBe('stopping');
    await hostReports(calls, id, 'stopped');
    expect((await v1Request(t, key, 'DELETE', `/instances/${id}`)).statusCode).toBe(200);
    await hostReports(calls, id, 'terminated');

    const mine = await readAll(key, `&subject=instance:${id}`);
    expect(
      mine.map((e) => `${e.type}${e.data.reason ? `(${String(e.data.reason)})` : ''}`),
    ).toEqual([
      'instance.created',
      'instance.ready',
      'instance.stopping(deadline_stop)',
      'instance.stopped(deadline_stop)',
      'instance.starting',
      'instance.ready',
      'instance.stopping(spend_cap)',
      'instance.stopped(spend_cap)',
      'instance.terminating(api)',
      'instance.terminated(api)',
    ]);
    // One sequence per subject, 1, 2, 3… with no gap; ids increase.
    expect(mine.map((e) => e.subject.seq)).toEqual(mine.map((_, i) => i + 1));
    expect(
      mine.every(
        (e, i) => i === 0 || BigInt(e.id.slice(4)) > BigInt(mine[i - 1]?.id.slice(4) ?? 0),
      ),
    ).toBe(true);
    expect(mine[1]?.data).toMatchObject({ state: 'running', previousState: 'provisioning' });
    expect(mine.at(-1)?.data.charged).toMatch(/^\d+\.\d{6}$/);

    // The same events by webhook, with the same ids, in the same order, each one verified.
    const webhookIds = async () => {
      await t.app.deps.eventLog.drain();
      await t.app.deps.webhooks.delivery.runOnce(t.clock.now());
      return rx.requests
        .filter((r) => (JSON.parse(r.body) as Ev).data.subject !== undefined)
        .map((r) => ({
          r,
          body: JSON.parse(r.body) as { data: { id: string; subject: Ev['subject'] } },
        }))
        .filter(
          ({ body }) =>
            body.data.subject.kind === 'instance' && body.data.subject.id === String(id),
        );
    };
    let hooked = await webhookIds();
    for (let i = 0; i < 100 && hooked.length < mine.length; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      hooked = await webhookIds();
    }
    expect(hooked.map(({ r }) => r.headers['webhook-id'])).toEqual(mine.map((e) => e.id));
    expect(hooked.map(({ body }) => body.data.id)).toEqual(mine.map((e) => e.id));
    for (const { r } of hooked) expect(() => verifyDelivery(secret, r)).not.toThrow();
    await rx.close();

    // The whole account by cursor, with types: the same instance events, then the cap's.
    const all = await readAll(key, '', 7);
    expect(all.filter((e) => e.subject.kind === 'instance').map((e) => e.id)).toEqual(
      mine.map((e) => e.id),
    );
    const types = new Set(all.map((e) => e.type));
    for (const type of ['wallet.credited', 'wallet.debited', 'spend_cap.reached']) {
      expect(types).toContain(type);
    }
    const onlyReady = await readAll(key, '&types=instance.ready');
    expect(onlyReady.map((e) => e.id)).toEqual(
      mine.filter((e) => e.type === 'instance.ready').map((e) => e.id),
    );
    const walletOnly = await readAll(key, '&types=wallet.*', 50);
    expect(walletOnly.every((e) => e.subject.kind === 'wallet')).toBe(true);

    // Money: the wallet's events add up to its balance, each one's balance the running sum.
    let sum = 0n;
    for (const e of walletOnly.filter((x) => x.type !== 'wallet.low_balance')) {
      sum += BigInt(String(e.data.amountMicros));
      expect(e.data.balance).toBe(
        `${sum / 1_000_000n}.${(sum % 1_000_000n).toString().padStart(6, '0')}`,
      );
    }
    expect(sum).toBe(await ledgerService.walletBalance(t.database.db, user.userId));
  });

  it('an account reads only its own events; a provider also reads its hosts’ and earnings’', async () => {
    const { listing, calls } = await agentHost('0.90');
    const renter = await t.signIn({ credits: '20.00' });
    const other = await t.signIn({ credits: '20.00' });
    const { key } = await createApiKey(t, renter.cookie, ['read', 'write']);
    const { key: otherKey } = await createApiKey(t, other.cookie, ['read']);
    const created = await v1Request(t, key, 'POST', '/instances', {
      gpuListingId: listing.id,
      hours: 1,
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().instance.id as number;
    await hostReports(calls, id, 'running');
    expect((await v1Request(t, key, 'DELETE', `/instances/${id}`)).statusCode).toBe(200);

    const seen = await readAll(otherKey, `&subject=instance:${id}`);
    expect(seen).toEqual([]);
    const own = await readAll(key, `&subject=instance:${id}`, 50);
    expect(own.length).toBeGreaterThan(2);
    // The provider's earnings were credited at the settlement: an event of the provider's user.
    const [{ user_id: providerUser } = { user_id: '' }] = (
      (await t.database.db.execute(sql`
        select p.user_id from gpu_listings l join providers p on p.id = l.provider_id
        where l.id = ${listing.id}`)) as unknown as { rows: { user_id: string }[] }
    ).rows;
    const earnings = (
      (await t.database.db.execute(sql`
        select type from events where account_user_id = ${providerUser}::uuid
        and subject_kind = 'earnings'`)) as unknown as { rows: { type: string }[] }
    ).rows;
    expect(earnings.map((r) => r.type)).toContain('earnings.credited');
  });

  it('tells every process at the commit what to act on at once: an instance’s event wakes its host and drops cached pages, a wallet’s neither', async () => {
    const { host, listing } = await agentHost('1.10');
    const user = await t.signIn({ credits: '20.00' });
    const { key } = await createApiKey(t, user.cookie, ['read', 'write']);
    const heard: string[] = [];
    const offs = [
      t.app.deps.signals.on('events', (id) => {
        if (!id?.startsWith('heard:')) heard.push(id ?? 'events');
      }),
    ];
    try {
      await t.signalsHeard();
      heard.length = 0;
      const created = await v1Request(t, key, 'POST', '/instances', { gpuListingId: listing.id });
      expect(created.statusCode, created.body).toBe(201);
      await t.signalsHeard();
      // Sent by the database with the event (migration 0043): one notification for the
      // transaction (its wallet's event sends none of its own), naming the host.
      expect(heard).toEqual([`instance ${host.id}`]);
      expect(eventHintOf(heard[0])).toEqual({ dropReads: true, wakeHost: host.id });

      heard.length = 0;
      await t.signIn({ credits: '5.00' }); // a new wallet credited: a `wallet.credited` event
      await t.signalsHeard();
      expect(heard).toEqual(['events']); // the durable readers' wake, nothing asked of the rest
      expect(eventHintOf(undefined)).toBeNull();
    } finally {
      for (const off of offs) off();
    }
  });

  it('keeps events 30 days: the worker’s housekeeping deletes older ones', async () => {
    const user = await t.signIn();
    const day = 86_400_000;
    const now = t.clock.now();
    const ids: bigint[] = [];
    for (const age of [31, 29]) {
      ids.push(
        await eventLog.append(t.database.db, {
          type: 'wallet.low_balance',
          at: new Date(now.getTime() - age * day),
          accountUserId: user.userId,
          subjectKind: 'wallet',
          subjectId: user.userId,
          data: { balance: '0.00', threshold: '1.00' },
        }),
      );
    }
    await t.app.deps.worker.runOnce(now);
    const left = (
      (await t.database.db.execute(
        sql`select id::text from events where id = any(${`{${ids.join(',')}}`}::bigint[])`,
      )) as unknown as { rows: { id: string }[] }
    ).rows.map((r) => BigInt(r.id));
    expect(left).toEqual([ids[1]]);
  });

  it('refuses a bad cursor, type or limit with 400 naming it', async () => {
    const user = await t.signIn();
    const { key } = await createApiKey(t, user.cookie, ['read']);
    for (const [query, field] of [
      ['after=yesterday', 'after'],
      ['types=instance.exploded', 'types'],
      ['limit=0', 'limit'],
      ['wait=31', 'wait'],
      ['subject=instance', 'subject'],
    ] as const) {
      const res = await v1Request(t, key, 'GET', `/events?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error.message).toContain(field);
    }
  });
});
