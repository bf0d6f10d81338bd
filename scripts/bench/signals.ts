// `node --import tsx scripts/bench/signals.ts` (not part of `npm test`; PostgreSQL only):
// two apps on one fresh PostgreSQL database, each with its own pool and listener, listening
// on ports in this one Node process (docs/decisions/017-cross-process-signals.md). Prints
// - wake latency: a renter's rent or stop sent to A → the agent's long poll held by B answers
//   (100 actions), and the signal alone (A publishes → B hears it);
// - revocation propagation: DELETE /api/auth/api-keys/:id sent to A → B first refuses the key
//   (B is asked in a tight loop), and how many requests sent to B after A answered it accepted.
// BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres) names the server;
// a database is made for the run and dropped after it.
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { createApp } from '../../server/app';
import { type Database, openDatabase } from '../../server/db/client';
import { parseEnv } from '../../server/env';
import { randomToken } from '../../server/lib/crypto';
import { hashSessionToken, SESSION_TTL_MS } from '../../server/modules/auth/service';
import { sessionsRepo } from '../../server/modules/auth/sessions-repo';
import { eventHintOf } from '../../server/modules/events/hints';
import { SESSION_COOKIE } from '../../server/plugins/session';
import { createHost, createListing, createProvider, createUser } from '../../server/seed/factories';
import { agentPaths } from '../../shared/contracts/agent-protocol';
import { microsToDollars } from '../../shared/rules/money';

const ACTIONS = Number(process.env.BENCH_WAKES ?? 100);
const REVOCATIONS = Number(process.env.BENCH_REVOCATIONS ?? 30);
const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const name = `rentgpu_bench_signals_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: serverUrl });
await admin.connect();
await admin.query(`create database ${name}`);
const url = new URL(serverUrl);
url.pathname = `/${name}`;

const env = parseEnv({ NODE_ENV: 'development', LOG_LEVEL: 'warn' });
const databases: Database[] = [];
const apps: FastifyInstance[] = [];
async function serve(): Promise<{ app: FastifyInstance; base: string; database: Database }> {
  const database = await openDatabase({ kind: 'postgres', url: url.toString() });
  databases.push(database);
  if (databases.length === 1) await database.migrate();
  const app = await createApp({ env, database, logger: false, webDir: null });
  apps.push(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, database, base: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
};
const summary = (values: number[]) =>
  `p50 ${percentile(values, 50).toFixed(1)} ms  p99 ${percentile(values, 99).toFixed(1)} ms  max ${Math.max(...values).toFixed(1)} ms  (n=${values.length})`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

try {
  const a = await serve();
  const b = await serve();
  const db = a.database.db;

  // A renter (with a session both apps accept), a provider's enrolled host and its listing.
  const renter = await db.transaction((tx) => createUser(tx, { credits: '100000.00' }));
  const token = randomToken();
  await sessionsRepo.insert(db, {
    tokenHash: hashSessionToken(token),
    userId: renter.id,
    expiresAt: new Date(Date.now() + SESSION_TTL_MS),
    userAgent: 'bench',
    ip: '127.0.0.1',
  });
  const cookie = `${SESSION_COOKIE}=${token}`;
  const provider = await createProvider(db, {});
  const host = await createHost(db, { providerId: provider.id });
  const listing = await createListing(db, {
    providerId: provider.id,
    hostId: host.id,
    totalCount: 2,
  });
  const rentBody = {
    gpuListingId: listing.id,
    providerId: provider.id,
    durationHours: 1,
    hourlyRate: microsToDollars(listing.hourlyRateMicros),
    totalCost: microsToDollars(listing.hourlyRateMicros),
  };
  const json = { 'content-type': 'application/json', cookie };
  const waitOnB = async (maxMs: number) => {
    const res = await fetch(`${b.base}${agentPaths.wait}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${host.credential}` },
      body: JSON.stringify({ maxMs }),
    });
    return ((await res.json()) as { work: boolean }).work;
  };
  // B hears signals here (its own handlers run as they arrive): the instance's event names the
  // host in the id of the `events` signal its writer sends at commit (events/hints.ts).
  let heardAt = 0;
  b.app.deps.signals.on('events', (id) => {
    if (heardAt === 0 && eventHintOf(id)?.wakeHost === host.id) heardAt = performance.now();
  });
  await waitOnB(0);

  // ── Wake: rent and stop through A, the agent's wait held by B. ──
  const actionToWait: number[] = [];
  const actionToHeard: number[] = [];
  const answerToWait: number[] = [];
  let rentalId: number | null = null;
  for (let i = 0; i < ACTIONS; i++) {
    heardAt = 0;
    const held = waitOnB(25_000).then((work) => ({ work, at: performance.now() }));
    await sleep(15); // the wait is held by B before the action is sent
    const sent = performance.now();
    const res =
      rentalId === null
        ? await fetch(`${a.base}/api/rentals`, {
            method: 'POST',
            headers: json,
            body: JSON.stringify(rentBody),
          })
        : await fetch(`${a.base}/api/rentals/${rentalId}/stop`, { method: 'PATCH', headers: json });
    const answered = performance.now();
    if (!res.ok) throw new Error(`action ${i}: ${res.status} ${await res.text()}`);
    const body = (await res.json()) as { id: number };
    if (rentalId !== null) {
      // The host's part (its agent): the instance stopped, so its GPU is free for the next rent.
      const read = (await db.execute(
        sql`select generation, status from instances where id = ${rentalId}`,
      )) as unknown as { rows: { generation: number; status: string }[] };
      const [stopped] = read.rows;
      heardAt = 0;
      await a.app.deps.hosts.report({
        instanceId: rentalId,
        generation: Number(stopped?.generation ?? 0),
        state: stopped?.status === 'terminating' ? 'terminated' : 'stopped',
      });
      // Its event wakes the host too: once B has heard it, the kept wake is taken here, so
      // the next action's wait is held until that action wakes it.
      while (heardAt === 0) await sleep(1);
      await waitOnB(0);
    }
    rentalId = rentalId === null ? body.id : null;
    const woke = await held;
    if (!woke.work) throw new Error(`action ${i}: B's wait was not woken`);
    actionToWait.push(woke.at - sent);
    actionToHeard.push(heardAt - sent);
    answerToWait.push(woke.at - answered);
  }

  // The signal alone: A publishes, B hears.
  const signalOnly: number[] = [];
  for (let i = 0; i < ACTIONS; i++) {
    heardAt = 0;
    const sent = performance.now();
    await a.app.deps.signals.publish('events', `instance ${host.id}`);
    while (heardAt === 0) await sleep(0);
    signalOnly.push(heardAt - sent);
  }
  await waitOnB(0);

  // ── Revocation: revoke through A, B asked in a tight loop until it refuses. ──
  const revokeToRefused: number[] = [];
  const answerToRefused: number[] = [];
  let acceptedAfterAnswer = 0;
  for (let i = 0; i < REVOCATIONS; i++) {
    const created = await a.app.deps.apiKeys.create(
      renter.id,
      { name: `bench ${i}`, permissions: ['read'] },
      new Date(),
    );
    const bearer = { authorization: `Bearer ${created.key}` };
    const onB = () => fetch(`${b.base}/api/v1/gpu-listings?limit=1`, { headers: bearer });
    const warm = await onB();
    await warm.arrayBuffer();
    if (warm.status !== 200) throw new Error(`key ${i}: B answered ${warm.status}`);
    const sent = performance.now();
    let answered = 0;
    const revoke = fetch(`${a.base}/api/auth/api-keys/${created.row.id}`, {
      method: 'DELETE',
      headers: { cookie },
    }).then((res) => {
      answered = performance.now();
      if (res.status !== 204) throw new Error(`revoke ${i}: ${res.status}`);
    });
    for (;;) {
      const asked = performance.now();
      const res = await onB();
      await res.arrayBuffer();
      if (res.status === 401) break;
      if (answered > 0 && asked > answered) acceptedAfterAnswer += 1;
    }
    const refused = performance.now();
    await revoke;
    revokeToRefused.push(refused - sent);
    answerToRefused.push(refused - answered);
  }

  console.log(
    `Cross-process signals: two apps on one PostgreSQL (${(await admin.query('show server_version')).rows[0].server_version}), one Node process, ${os.cpus().length} cores`,
  );
  console.log(
    `wake, ${ACTIONS} renter actions (rent, stop, …) sent to A, the agent's wait held by B:`,
  );
  console.log(`  action sent → B's wait answered     ${summary(actionToWait)}`);
  console.log(`  action sent → B heard the signal    ${summary(actionToHeard)}`);
  console.log(`  A answered  → B's wait answered     ${summary(answerToWait)}`);
  console.log(`  signal alone: A publishes → B hears ${summary(signalOnly)}`);
  console.log(`revocation, ${REVOCATIONS} keys cached by B, revoked through A:`);
  console.log(`  revoke sent → B refuses             ${summary(revokeToRefused)}`);
  console.log(`  A answered  → B refuses             ${summary(answerToRefused)}`);
  console.log(`  requests sent to B after A answered that B accepted: ${acceptedAfterAnswer}`);
} finally {
  for (const app of apps.reverse()) await app.close();
  for (const database of databases) await database.close();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
}
