import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { STAMP, sourceFingerprint } from '../scripts/build-if-stale.mjs';

/**
 * The real entry point: start, serve, shut down on SIGTERM, start again on the same data. It runs
 * the production bundle when dist/ was built from these very sources (`npm test` builds first),
 * and server/main.ts through tsx otherwise.
 */
const entry =
  existsSync(STAMP) && readFileSync(STAMP, 'utf8') === sourceFingerprint()
    ? ['dist/server/main.js']
    : ['--import', 'tsx', 'server/main.ts'];
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'rentgpu-main-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function start(
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; base: string; output: () => string }> {
  const child = spawn(process.execPath, entry, {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /running at (http:\/\/localhost:\d+)/.exec(output);
      if (match?.[1]) resolve({ child, base: match[1], output: () => output });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.on('exit', (code) => resolve(code)));
}

describe('server/main.ts', () => {
  it('finishes in-flight requests on SIGTERM, exits 0, and keeps the data for the next start', async () => {
    const first = await start();
    const login = await fetch(`${first.base}/api/login`, { method: 'POST' });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const listings = (await (
      await fetch(`${first.base}/api/gpu-listings?model=Mumbai&sort=price-asc`)
    ).json()) as {
      id: number;
      providerId: number;
      hourlyRate: string;
    }[];
    const listing = listings[0];
    if (!listing) throw new Error('no seeded listing in Mumbai');
    const rent = await fetch(`${first.base}/api/rentals`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({
        gpuListingId: listing.id,
        providerId: listing.providerId,
        durationHours: 1,
        hourlyRate: listing.hourlyRate,
        totalCost: listing.hourlyRate,
      }),
    });
    expect(rent.status).toBe(201);
    const rental = (await rent.json()) as { id: number };

    const inFlight = Array.from({ length: 20 }, () =>
      fetch(`${first.base}/api/gpu-listings`).then((r) => r.status),
    );
    const gone = exited(first.child);
    first.child.kill('SIGTERM');
    const statuses = await Promise.allSettled(inFlight);
    expect(await gone).toBe(0);
    for (const s of statuses) if (s.status === 'fulfilled') expect([200, 503]).toContain(s.value);
    expect(first.output()).not.toMatch(/Error|unhandled/i);

    const second = await start();
    try {
      const user = (await (
        await fetch(`${second.base}/api/auth/user`, { headers: { cookie } })
      ).json()) as { id: string };
      const mine = (await (
        await fetch(`${second.base}/api/rentals/user/${user.id}`, { headers: { cookie } })
      ).json()) as { id: number }[];
      expect(mine.some((r) => r.id === rental.id)).toBe(true);
    } finally {
      const done = exited(second.child);
      second.child.kill('SIGTERM');
      expect(await done).toBe(0);
    }
  }, 180_000); // two fresh embedded databases: minutes on a loaded 2-core machine

  it('on SIGTERM answers /api/health with 503 during the grace while still serving, then exits 0', async () => {
    // A grace longer than the test: a second SIGTERM ends it (no timing is assumed).
    const server = await start({ SHUTDOWN_GRACE_MS: '600000' });
    const health = () => fetch(`${server.base}/api/health`).then((r) => r.status);
    expect(await health()).toBe(200);
    const gone = exited(server.child);
    server.child.kill('SIGTERM');
    let status = 200;
    for (let i = 0; i < 200 && status === 200; i += 1) {
      status = await health();
      if (status === 200) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(status).toBe(503);
    const during = await fetch(`${server.base}/api/gpu-listings`);
    expect(during.status).toBe(200);
    expect(during.headers.get('connection')).toBe('close');
    expect((await fetch(`${server.base}/api/health/live`)).status).toBe(200);
    expect(await health()).toBe(503);
    server.child.kill('SIGTERM');
    expect(await gone).toBe(0);
    expect(server.output()).not.toMatch(/Error|unhandled/i);
  }, 180_000); // two fresh embedded databases: minutes on a loaded 2-core machine
});
