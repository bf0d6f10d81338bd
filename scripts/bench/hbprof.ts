import { sql } from 'drizzle-orm';
import pg from 'pg';
import { createApp } from '../../server/app';
import { openDatabase } from '../../server/db/client';
import { parseEnv } from '../../server/env';

const url = 'postgres://postgres@127.0.0.1:5432/postgres';
const scratch = `rentgpu_prof_${process.pid}`;
const admin = new pg.Client({ connectionString: url });
await admin.connect();
await admin.query(`create database ${scratch}`);
const database = await openDatabase({ kind: 'postgres', url: `postgres://postgres@127.0.0.1:5432/${scratch}`, poolSize: 20 });
try {
  await database.migrate();
  const db = database.db;
  await db.execute(sql`insert into providers (company_name, location) select 'P' || g, 'x' from generate_series(1, 200) g`);
  await db.execute(sql`
    insert into hosts (id, provider_id, name, enrolled_at, credential_hash, hostname, agent_version, accelerator, last_heartbeat_at)
    select 'bench-host-' || g, (select id from providers order by id offset (g % 200) limit 1),
      'host ' || g, now(), encode(sha256(convert_to('bench-host-' || g || '-credential', 'UTF8')), 'hex'),
      'host-' || g, 'bench', 'kvm', now()
    from generate_series(1, 10000) g`);
  const env = parseEnv({ NODE_ENV: 'production', LOG_LEVEL: 'silent', SEED_DEMO_DATA: 'false' });
  const app = await createApp({ env, database, logger: false, webDir: null, mailer: { send: async () => {}, close: () => {} } });
  const body = (n: number) => ({
    agentVersion: 'bench', sentAt: new Date().toISOString(),
    host: { hostname: `host-${n}`, cpu: { model: 'x', cores: 64 }, memory: { totalBytes: 2e11, availableBytes: 1e11 }, disk: { path: '/x', totalBytes: 4e12, freeBytes: 3e12 }, accelerator: 'kvm' },
    gpus: { gpus: [], error: null }, instances: [],
  });
  const times: number[] = [];
  for (let i = 1; i <= 300; i++) {
    const t0 = performance.now();
    const res = await app.inject({ method: 'POST', url: '/api/v1/agents/heartbeat', headers: { authorization: `Bearer bench-host-${i}-credential` }, payload: body(i) });
    times.push(performance.now() - t0);
    if (res.statusCode !== 200) { console.log(res.statusCode, res.body); break; }
  }
  times.sort((a, b) => a - b);
  console.log('sequential inject heartbeat ms p50', times[150]?.toFixed(2), 'p99', times[296]?.toFixed(2));
  for (const q of [
    sql`explain analyze select id, provider_id, offline_since from hosts where credential_hash = encode(sha256(convert_to('bench-host-5-credential','UTF8')),'hex') and removed_at is null`,
    sql`explain analyze update hosts h set last_heartbeat_at = now(), heartbeat_count = h.heartbeat_count + 1, offline_since = null from (select offline_since from hosts where id = 'bench-host-5' for update) as before where h.id = 'bench-host-5' returning before.offline_since`,
    sql`explain analyze select * from instances where host_id = 'bench-host-5' and (status in ('provisioning','running','stopping','stopped','starting','terminating') or (status = 'failed' and host_released_at is null))`,
  ]) {
    const r = await db.execute(q);
    console.log((r as unknown as { rows: Record<string, string>[] }).rows.map((x) => Object.values(x)[0]).join('\n'));
  }
  await app.close();
} finally {
  await database.close();
  await admin.query(`drop database if exists ${scratch} with (force)`);
  await admin.end();
}
