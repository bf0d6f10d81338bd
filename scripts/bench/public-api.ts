// `node --import tsx scripts/bench/public-api.ts` (not part of `npm test`): GET /api/v1/gpu-listings
// with an API key against a bare node:http server answering the same bytes (32 connections), and
// the rate limiter's cost per request in memory and, with REDIS_URL, in Redis.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { createApp } from '../../server/app';
import { openDatabase } from '../../server/db/client';
import { parseEnv } from '../../server/env';
import { systemClock } from '../../server/lib/clock';
import { MemoryRateLimiter, type RateLimiter, RedisRateLimiter } from '../../server/lib/rate-limit';
import { apiKeysService } from '../../server/modules/api-keys/service';
import { createListing, createProvider, createUser } from '../../server/seed/factories';
import { UnboundedLimiter } from './helpers';

const CONNECTIONS = 32;
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);

async function cannon(url: string, headers: Record<string, string> = {}) {
  const r = await autocannon({ url, headers, connections: CONNECTIONS, duration: DURATION_S });
  if (r.non2xx > 0 || r.errors > 0)
    throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99 };
}

async function limiterCost(label: string, limiter: RateLimiter, n: number) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await limiter.hit(`bench:${i % 100}`, 1_000_000, 3_600_000);
  const us = Number(process.hrtime.bigint() - start) / 1000 / n;
  console.log(`limiter ${label}: ${us.toFixed(2)} µs per request (sequential, ${n} hits)`);
}

const database = await openDatabase({ kind: 'pglite' });
await database.migrate();
const user = await database.db.transaction((tx) => createUser(tx, { credits: '10.00' }));
for (let p = 0; p < 6; p++) {
  const provider = await createProvider(database.db, {});
  for (let l = 0; l < 4; l++) await createListing(database.db, { providerId: provider.id });
}
const { key } = await database.db.transaction((tx) =>
  apiKeysService.create(tx, user.id, { name: 'bench', permissions: ['read'] }, new Date()),
);
const app = await createApp({
  env: parseEnv({ NODE_ENV: 'production', PUBLIC_URL: 'https://bench.example', LOG_LEVEL: 'warn' }),
  database,
  limiter: new UnboundedLimiter(new MemoryRateLimiter(systemClock)),
  logger: false,
  webDir: null,
});
await app.listen({ port: 0, host: '127.0.0.1' });
const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/v1/gpu-listings`;
const sample = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
const body = Buffer.from(await sample.arrayBuffer());
const bare = http.createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
  res.end(body);
});
await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
const ceiling = await cannon(`http://127.0.0.1:${(bare.address() as AddressInfo).port}`);
bare.close();
const ours = await cannon(url, { authorization: `Bearer ${key}` });
console.log(
  `GET /api/v1/gpu-listings (24 listings, ${body.length} bytes), ${CONNECTIONS} connections, ${DURATION_S} s`,
);
console.log(
  `  bare node:http   ${ceiling.rps.toFixed(0)} req/s  p50 ${ceiling.p50} ms  p99 ${ceiling.p99} ms`,
);
console.log(
  `  with an API key  ${ours.rps.toFixed(0)} req/s  p50 ${ours.p50} ms  p99 ${ours.p99} ms`,
);
console.log(`  ratio            ${((ours.rps / ceiling.rps) * 100).toFixed(1)}% of bare`);
await app.close();
await database.close();

await limiterCost('memory', new MemoryRateLimiter(systemClock), 200_000);
if (process.env.REDIS_URL) {
  const redis = new RedisRateLimiter(process.env.REDIS_URL);
  await limiterCost('Redis', redis, 20_000);
  await redis.close();
}
