import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bundleServer,
  killServer,
  type ServerProcess,
  scratchDatabase,
  startServer,
} from '../scripts/server-processes';
import { type Database, openDatabase } from '../server/db/client';
import { generateSshKeyPair } from '../server/lib/ssh-keypair';
import { AUTH_CACHE_MS } from '../server/modules/api-keys/service';
import {
  MAX_CONSOLES_PER_USER,
  tooManyConsolesMessage,
} from '../server/modules/instances/console/guards';
import { checkInvariants } from '../server/modules/ledger/invariants';
import { DEMO_PROVIDERS } from '../server/seed/demo-data';
import { type Dropbear, dropbearUsable, startDropbear } from '../server/test/dropbear';
import { heartbeatBody } from '../server/test/hosts';
import { type ConsoleClient, openConsoleSocket } from '../server/test/ws-client';
import { CONSOLE_CLOSE } from '../shared/contracts/console';
import {
  ADMIN_URL,
  type Answer,
  call,
  demoListing,
  hostWithListing,
  postgresOrSkip,
  REDIS_URL,
  rentBody,
  rows,
  serverEnv,
  signedInUser,
  sql,
  within,
} from './two-processes';

/**
 * The deployment the design promises (docs/architecture.md): stateless server processes on
 * one PostgreSQL (and Redis when there is one). Two real server processes — server/main.ts
 * bundled as `npm start` runs it — are started at the same moment on a new, empty database with
 * the demo data on, each on its own port; then what one process does must hold on the other.
 *
 * PostgreSQL: TEST_DATABASE_URL's server, else the one CI starts on 127.0.0.1:5432. In CI a
 * missing PostgreSQL fails this file; elsewhere it is skipped, saying so in its name.
 */
const POSTGRES = await postgresOrSkip('the multi-process test');
const JOURNAL = JSON.parse(
  readFileSync(
    path.resolve(import.meta.dirname, '../server/db/migrations/meta/_journal.json'),
    'utf8',
  ),
) as { entries: unknown[] };

let scratch: Awaited<ReturnType<typeof scratchDatabase>> | null = null;
let database: Database;
let dataDir: string;
let bundle: string;
let a: ServerProcess;
let b: ServerProcess | null = null;
/** How each process's first start went (both at the same moment): null, or why it failed. */
const firstStart: Record<'A' | 'B', string | null> = { A: null, B: null };
const figures: string[] = [];

describe.skipIf(!POSTGRES)(
  `two server processes on one PostgreSQL${REDIS_URL ? ' and Redis' : ''} (needs PostgreSQL: TEST_DATABASE_URL or 127.0.0.1:5432)`,
  () => {
    beforeAll(async () => {
      dataDir = await mkdtemp(path.join(os.tmpdir(), 'rg-two-'));
      bundle = await bundleServer();
      scratch = await scratchDatabase(ADMIN_URL, `rentgpu_two_${process.pid}`);
      const env = serverEnv(scratch.url, dataDir, true);
      // Both at the same moment, on the empty database.
      const started = await Promise.allSettled([
        startServer('A', bundle, env),
        startServer('B', bundle, env),
      ]);
      const [first, second] = started;
      if (first?.status === 'fulfilled') a = first.value;
      else firstStart.A = String(first?.reason);
      if (second?.status === 'fulfilled') b = second.value;
      else firstStart.B = String(second?.reason);
      // One that crashed is started again (alone), so the cases after the first still run.
      if (firstStart.A !== null) a = await startServer('A', bundle, env);
      if (firstStart.B !== null) b = await startServer('B', bundle, env);
      database = await openDatabase({ kind: 'postgres', url: scratch.url, poolSize: 4 });
    }, 120_000);

    afterAll(async () => {
      if (figures.length) console.log(`[two processes] measured:\n  ${figures.join('\n  ')}`);
      await killServer(a);
      await killServer(b);
      await database?.close();
      await scratch?.drop();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    const B = () => {
      if (!b) throw new Error('process B is not running');
      return b;
    };

    it('both start at the same moment on an empty database: migrations and demo data once, no crash', async () => {
      // Soft: the rest is checked too (a crashed process was started again, alone).
      expect.soft(firstStart, 'a process crashed at its first start').toEqual({ A: null, B: null });
      for (const server of [a, B()]) {
        expect((await call(server.url, 'GET', '/api/health')).status).toBe(200);
      }
      const applied = await rows(
        database.db,
        sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
      );
      expect(applied[0]?.n).toBe(JOURNAL.entries.length);
      const twice = await rows(
        database.db,
        sql`select company_name from providers group by company_name having count(*) > 1`,
      );
      expect(twice).toEqual([]);
      const listings = await rows(database.db, sql`select count(*)::int as n from gpu_listings`);
      expect(listings[0]?.n).toBe(DEMO_PROVIDERS.reduce((n, p) => n + p.listings.length, 0));
    });

    it('rents and stops through both processes, each rental stopped on the other one', async () => {
      const listing = await demoListing(database.db);
      const renters = await Promise.all(Array.from({ length: 6 }, () => signedInUser(database.db)));
      const answers: Answer[] = [];
      await Promise.all(
        renters.map(async (renter, n) => {
          for (let i = 0; i < 3; i += 1) {
            const [on, off] = (n + i) % 2 === 0 ? [a, B()] : [B(), a];
            const rent = await call(on.url, 'POST', '/api/rentals', {
              cookie: renter.cookie,
              body: rentBody(listing),
            });
            answers.push(rent);
            if (rent.status !== 201) continue;
            const id = (rent.body as { id: number }).id;
            answers.push(
              await call(off.url, 'PATCH', `/api/rentals/${id}/stop`, { cookie: renter.cookie }),
            );
          }
        }),
      );
      expect(answers.map((r) => r.status).filter((s) => s !== 201 && s !== 200)).toEqual([]);
      expect(answers).toHaveLength(36);
      const live = await rows(
        database.db,
        sql`select count(*)::int as n from instances where gpu_listing_id = ${listing.id} and end_time is null`,
      );
      expect(live[0]?.n).toBe(0);
    });

    it('an agent long-polling process B is woken by a stop sent to process A', async () => {
      const { host, listing } = await hostWithListing(database.db);
      const agent = { authorization: `Bearer ${host.credential}` };
      const renter = await signedInUser(database.db);
      const rent = await call(a.url, 'POST', '/api/rentals', {
        cookie: renter.cookie,
        body: rentBody(listing),
      });
      expect(rent.status).toBe(201);
      const id = (rent.body as { id: number }).id;
      // The host hears of the rental on B, and B keeps no wake for it any more.
      const beat = await call(B().url, 'POST', '/api/v1/agents/heartbeat', {
        headers: agent,
        body: heartbeatBody(),
      });
      expect(beat.status).toBe(200);
      const idle = await within(
        5000,
        async () => {
          const wait = await call(B().url, 'POST', '/api/v1/agents/wait', {
            headers: agent,
            body: { maxMs: 50 },
          });
          return (wait.body as { work: boolean }).work === false;
        },
        0,
      );
      expect(idle, 'B kept waking the host with nothing new').toBe(true);

      // Held on B; the renter stops on A. Without a wake across processes B answers
      // `work: false` after maxMs and the agent acts at its next heartbeat.
      const held = call(B().url, 'POST', '/api/v1/agents/wait', {
        headers: agent,
        body: { maxMs: 5000 },
      });
      await sleep(300);
      const stoppedAt = performance.now();
      const stop = await call(a.url, 'PATCH', `/api/rentals/${id}/stop`, { cookie: renter.cookie });
      expect(stop.status).toBe(200);
      const woken = await held;
      figures.push(
        `wake across processes (stop on A → wait answered on B): ${Math.round(performance.now() - stoppedAt)} ms`,
      );
      expect(woken.body).toEqual({ work: true });
    });

    it('an API key revoked on A is refused on B before B would have forgotten it by itself', async () => {
      const user = await signedInUser(database.db);
      const made = await call(a.url, 'POST', '/api/auth/api-keys', {
        cookie: user.cookie,
        body: { name: 'two processes', permissions: ['read'] },
      });
      expect(made.status).toBe(201);
      const { id, key } = made.body as { id: string; key: string };
      const bearer = { authorization: `Bearer ${key}` };
      // B authenticates the key now, and would remember it for AUTH_CACHE_MS from here.
      const rememberedFrom = performance.now();
      expect((await call(B().url, 'GET', '/api/v1/account', { headers: bearer })).status).toBe(200);
      expect(
        (await call(a.url, 'DELETE', `/api/auth/api-keys/${id}`, { cookie: user.cookie })).status,
      ).toBe(204);
      const revokedAt = performance.now();
      let acceptedAfter = 0;
      const refused = await within(AUTH_CACHE_MS + 2000, async () => {
        const res = await call(B().url, 'GET', '/api/v1/account', { headers: bearer });
        if (res.status === 200) acceptedAfter += 1;
        return res.status === 401 ? performance.now() : null;
      });
      expect(refused, 'B never refused the revoked key').not.toBeNull();
      figures.push(
        `key revocation A → B: refused ${Math.round((refused ?? 0) - revokedAt)} ms after the revoke answered (${acceptedAfter} requests accepted meanwhile)`,
      );
      // Refused while B's own memory of the key was still good: told, not timed out.
      expect((refused ?? Number.POSITIVE_INFINITY) - rememberedFrom).toBeLessThan(AUTH_CACHE_MS);
    });

    describe.skipIf(!dropbearUsable())('web consoles (needs dropbear, root and unshare)', () => {
      let sshd: Dropbear | null = null;
      const open: ConsoleClient[] = [];
      afterAll(async () => {
        for (const term of open) term.socket.close(1000, 'done');
        await sshd?.stop();
      });

      it(`a user's ${MAX_CONSOLES_PER_USER + 1}th web console across the two processes is refused`, async () => {
        const key = generateSshKeyPair();
        sshd = await startDropbear(key.publicKey);
        const user = await signedInUser(database.db);
        // A provider's own host (a demo host has no console): the test's dropbear.
        const listing = await demoListing(database.db, {
          totalCount: 1,
          availableCount: 0,
          isDemoHost: false,
        });
        // A running VM at the test's SSH server, as its host reported it (addresses, host key);
        // paid for the hour, so no minute is charged while the test runs.
        const [vm] = await rows<{ id: number }>(
          database.db,
          sql`insert into instances (user_id, gpu_listing_id, provider_id, source, billing_plan, status,
            hourly_rate_micros, start_time, paid_through, provisioning_deadline, ready_at, ssh_host,
            ssh_port, ssh_username, ssh_host_key, platform_ssh_public_key, platform_ssh_private_key)
          values (${user.userId}, ${listing.id}, ${listing.providerId}, 'vm', 'metered', 'running',
            ${listing.hourlyRateMicros}, now(), now() + interval '1 hour', now(), now(), '127.0.0.1',
            ${sshd.port}, ${sshd.username}, ${sshd.hostPublicKey}, ${key.publicKey}, ${key.privateKey})
          returning id`,
        );
        const consoleOf = (server: ServerProcess) => ({
          path: `/api/kvm/instances/${vm?.id}/console`,
          ws: `${server.url.replace('http:', 'ws:')}/api/kvm/instances/${vm?.id}/console`,
          headers: { cookie: user.cookie, origin: server.url },
        });
        for (let i = 0; i < MAX_CONSOLES_PER_USER; i += 1) {
          const on = consoleOf(i % 2 === 0 ? a : B());
          const term = await openConsoleSocket(on.ws, on.headers);
          open.push(term);
          term.type(`echo tab-${i}-$((6*7))\r`);
          await term.waitFor(`tab-${i}-42`);
        }
        for (const server of [a, B()]) {
          const on = consoleOf(server);
          const ask = await call(server.url, 'GET', on.path, { headers: on.headers });
          expect(ask.status, `the plain GET on ${server.name}`).toBe(429);
          expect(ask.body).toMatchObject({
            error: { code: 'RATE_LIMITED', message: tooManyConsolesMessage(MAX_CONSOLES_PER_USER) },
          });
          const fifth = await openConsoleSocket(on.ws, on.headers).then(
            async (term) => {
              open.push(term);
              return (await term.closed).code;
            },
            (error: { status?: number }) => error.status,
          );
          expect([429, CONSOLE_CLOSE.tooManySessions], `the upgrade on ${server.name}`).toContain(
            fifth,
          );
        }
        for (const term of open.splice(0)) term.socket.close(1000, 'done');
        // The fixture's VM ends, its unit back (the ledger's invariants read it at the end).
        await database.db.execute(
          sql`update instances set status = 'terminated', end_time = now() where id = ${vm?.id}`,
        );
        await database.db.execute(
          sql`update gpu_listings set available_count = available_count + 1 where id = ${listing.id}`,
        );
      });
    });

    it('process B is SIGKILLed mid-load; retries with the same Idempotency-Key succeed on A', async () => {
      const listing = await demoListing(database.db);
      const held = await demoListing(database.db);
      const renters = await Promise.all(Array.from({ length: 6 }, () => signedInUser(database.db)));
      /** A keyed rent; its key starts with its renter's index. */
      type Keyed = { renter: number; key: string; body: ReturnType<typeof rentBody> };
      const unanswered: Keyed[] = [];
      /** Key → the instance its 201 named. */
      const answered = new Map<string, number>();
      const rentOn = async (server: ServerProcess, request: Keyed): Promise<Answer | null> => {
        const res = await call(server.url, 'POST', '/api/rentals', {
          cookie: renters[request.renter]?.cookie ?? '',
          body: request.body,
          headers: { 'idempotency-key': request.key },
        }).catch(() => null);
        if (res?.status === 201) answered.set(request.key, (res.body as { id: number }).id);
        return res;
      };
      // Three rents are sure to be mid-request when B dies: their keys are claimed, then they
      // wait for a listing row this test holds locked (B's transactions die with B).
      const locker = new pg.Client({ connectionString: scratch?.url });
      await locker.connect();
      await locker.query('begin');
      await locker.query('select id from gpu_listings where id = $1 for update', [held.id]);
      const blocked = [0, 1, 2].map(async (renter) => {
        const request = { renter, key: `${renter}-held`, body: rentBody(held) };
        if (!(await rentOn(B(), request))) unanswered.push(request);
      });
      // The other three rent and stop on B, keyed, until B dies.
      let running = true;
      const load = [3, 4, 5].map(async (renter) => {
        for (let i = 0; running; i += 1) {
          const request = { renter, key: `${renter}-load-${i}`, body: rentBody(listing) };
          const res = await rentOn(B(), request);
          if (!res) {
            unanswered.push(request);
            return;
          }
          const id = (res.body as { id?: number }).id;
          if (res.status !== 201 || !id) continue;
          const cookie = renters[renter]?.cookie ?? '';
          await call(B().url, 'PATCH', `/api/rentals/${id}/stop`, { cookie }).catch(() => null);
        }
      });
      const claimed = await within(10_000, async () => {
        const [row] = await rows<{ n: number }>(
          database.db,
          sql`select count(*)::int as n from idempotency_keys where key like '%-held' and state = 'in_progress'`,
        );
        return row?.n === 3;
      });
      expect(claimed, 'the three held rents claimed their keys').toBe(true);
      await sleep(500);
      await killServer(b);
      const killedAt = performance.now();
      running = false;
      await locker.query('rollback');
      await locker.end();
      await Promise.all([...blocked, ...load]);
      b = null;

      // Each unanswered rent again on A, with its key, while A says the key is in use.
      const retried = await Promise.all(
        unanswered.map(async (request) => {
          for (;;) {
            const res = await rentOn(a, request);
            const code = (res?.body as { error?: { code?: string } } | null)?.error?.code;
            const busy = res?.status === 409 && code === 'IDEMPOTENCY_KEY_IN_USE';
            const ms = Math.round(performance.now() - killedAt);
            if (!busy || ms > 10_000) return { key: request.key, status: res?.status, code, ms };
            await sleep(250);
          }
        }),
      );
      figures.push(
        `SIGKILL of B mid-load: ${unanswered.length} keyed rents unanswered; on A: ${retried.map((r) => `${r.status}${r.code ? ` ${r.code}` : ''} ${r.ms} ms after the kill`).join(', ')}`,
      );
      expect(unanswered.length).toBeGreaterThanOrEqual(3);
      expect(retried.filter((r) => r.status !== 201)).toEqual([]);
      // Nothing done twice: each renter has exactly the instances its keys' 201s named.
      for (const [n, renter] of renters.entries()) {
        const ids = new Set(
          [...answered].filter(([key]) => key.startsWith(`${n}-`)).map(([, id]) => id),
        );
        const [row] = await rows<{ n: number }>(
          database.db,
          sql`select count(*)::int as n from instances where user_id = ${renter.userId}`,
        );
        expect(row?.n, `instances of renter ${n}`).toBe(ids.size);
      }
    });

    it('the ledger invariants hold at the end', async () => {
      const problems = await database.db.transaction((tx) => checkInvariants(tx), {
        isolationLevel: 'repeatable read',
      });
      expect(problems).toEqual([]);
    });

    it('the event log agrees with every change after the SIGKILL: no change without its event, no event without its change (issue 40)', async () => {
      const read = (q: ReturnType<typeof sql>) =>
        database.db.transaction((tx) => rows<Record<string, unknown>>(tx, q), {
          isolationLevel: 'repeatable read',
        });
      // Every instance: its events numbered 1…event_seq with no gap, the last state its state.
      const instanceGaps = await read(sql`
        select i.id, i.status, i.event_seq,
          (select count(*) from events e where e.subject_kind = 'instance' and e.subject_id = i.id::text) as n,
          (select max(subject_seq) from events e where e.subject_kind = 'instance' and e.subject_id = i.id::text) as top,
          (select e.data->>'state' from events e where e.subject_kind = 'instance' and e.subject_id = i.id::text
             and e.type not in ('instance.host_unreachable', 'instance.host_reachable', 'instance.idle_warning')
             order by e.subject_seq desc limit 1) as last_state
        from instances i`);
      expect(instanceGaps.length).toBeGreaterThan(0);
      expect(
        instanceGaps.filter(
          (r) =>
            Number(r.n) !== Number(r.event_seq) ||
            Number(r.top) !== Number(r.event_seq) ||
            r.last_state !== r.status,
        ),
      ).toEqual([]);
      // Every wallet and earnings account: one event per ledger line, their sum the ledger's.
      const accounts = await read(sql`
        select a.id, a.kind, a.event_seq,
          (select count(*) from ledger_entries l where l.account_id = a.id) as lines,
          (select coalesce(sum(l.amount_micros), 0) from ledger_entries l where l.account_id = a.id)::text as ledger,
          (select count(*) from events e where e.subject_kind = (case a.kind when 'wallet' then 'wallet' else 'earnings' end)
             and e.subject_id = coalesce(a.user_id::text, a.provider_id::text) and e.type <> 'wallet.low_balance') as told,
          (select coalesce(sum((e.data->>'amountMicros')::bigint), 0) from events e
             where e.subject_kind = (case a.kind when 'wallet' then 'wallet' else 'earnings' end)
             and e.subject_id = coalesce(a.user_id::text, a.provider_id::text))::text as told_sum
        from ledger_accounts a where a.kind in ('wallet', 'provider_earnings')`);
      expect(
        accounts.filter((a) => Number(a.lines) !== Number(a.told) || a.ledger !== a.told_sum),
      ).toEqual([]);
      figures.push(
        `event log after the SIGKILL: ${instanceGaps.length} instances and ${accounts.length} wallets/earnings agree with their events`,
      );
    });
  },
);
