/**
 * Part `processes` of `npm run bench` (PostgreSQL only): rent-then-stop pairs per second
 * through one server process and through two on the same database, in the same run — the
 * deployment the design promises (stateless processes behind a load balancer on one
 * PostgreSQL). The processes are server/main.ts as `npm start` runs it
 * (scripts/server-processes.ts); the renters alternate between them as a load balancer would.
 *
 * Each instance is reported ready (what its host would do) by the bench's own process, as in
 * the other rent parts, so the server processes' CPU per pair leaves that report's out.
 *
 * The two take turns in `rounds` rounds (one process, then two), so that load from elsewhere
 * on the machine falls on both. During the one-process rounds the second process idles (its
 * worker still ticks). The core count is printed beside the figures: on a machine with few
 * cores two processes cannot be faster, only no slower per unit of CPU.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { bundleServer, killServer, type ServerProcess, startServer } from '../server-processes';

export interface PairsDone {
  pairs: number;
  failures: number;
  firstFailure: string | null;
}

export interface ProcessesBenchOptions {
  /** The bench's scratch PostgreSQL database (migrated, listings seeded). */
  databaseUrl: string;
  /** Fresh renters' session cookies, as many as the bench's other rent parts use. */
  cookies: () => Promise<string[]>;
  /** Runs the renters against these addresses for `seconds` (scripts/bench/rent-load.mjs). */
  rent: (bases: string[], cookies: string[], seconds: number) => Promise<PairsDone>;
  /** Starts counting the CPU of the PostgreSQL backends serving the database: ms since. */
  postgresCpu: () => () => number;
  /** CPU ms so far of a process (utime + stime of /proc/<pid>/stat). */
  processCpuMs: (pid: number) => number;
  seconds: number;
  rounds: number;
  fmt: (n: number, digits?: number) => string;
}

interface Tally {
  seconds: number;
  pairs: number;
  failures: number;
  firstFailure: string | null;
  serverCpuMs: number;
  postgresCpuMs: number;
}

const empty = (): Tally => ({
  seconds: 0,
  pairs: 0,
  failures: 0,
  firstFailure: null,
  serverCpuMs: 0,
  postgresCpuMs: 0,
});

export async function benchProcesses(options: ProcessesBenchOptions): Promise<boolean> {
  const { fmt } = options;
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'rentgpu-bench-processes-'));
  const env = {
    NODE_ENV: 'production',
    PUBLIC_URL: 'https://bench.example',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    SEED_DEMO_DATA: 'false',
    DATABASE_URL: options.databaseUrl,
    DATA_DIR: dataDir,
  };
  const servers: ServerProcess[] = [];
  try {
    const bundle = await bundleServer();
    servers.push(await startServer('bench-1', bundle, env));
    servers.push(await startServer('bench-2', bundle, env));
    const one = empty();
    const two = empty();
    const slice = options.seconds / options.rounds;
    const cookiesOne = await options.cookies();
    const cookiesTwo = await options.cookies();
    for (let round = 0; round < options.rounds; round += 1) {
      for (const [tally, bases, cookies] of [
        [one, servers.slice(0, 1), cookiesOne],
        [two, servers, cookiesTwo],
      ] as const) {
        const cpuBefore = servers.map((s) => options.processCpuMs(s.child.pid ?? 0));
        const postgres = options.postgresCpu();
        const done = await options.rent(
          bases.map((s) => s.url),
          cookies,
          slice,
        );
        const cpuAfter = servers.map((s) => options.processCpuMs(s.child.pid ?? 0));
        tally.seconds += slice;
        tally.pairs += done.pairs;
        tally.failures += done.failures;
        tally.firstFailure ??= done.firstFailure;
        tally.serverCpuMs += cpuAfter.reduce((sum, ms, i) => sum + ms - (cpuBefore[i] ?? 0), 0);
        tally.postgresCpuMs += postgres();
      }
    }
    const cores = os.availableParallelism();
    console.log(
      `rent-then-stop through separate server processes (server/main.ts as npm start runs it; ${cores} cores on this machine; ${options.seconds}s each, in ${options.rounds} alternating rounds; each process its own pool of PostgreSQL connections)`,
    );
    const line = (label: string, t: Tally) => {
      const n = Math.max(1, t.pairs);
      console.log(
        `  ${label} ${fmt(t.pairs / t.seconds, 1)} pairs/s (${t.pairs} pairs, ${t.failures} failures); CPU per pair: server processes ${fmt(t.serverCpuMs / n, 2)} ms + PostgreSQL ${fmt(t.postgresCpuMs / n, 2)} ms`,
      );
      if (t.firstFailure) console.log(`    first failure: ${t.firstFailure}`);
    };
    line('one process  ', one);
    line('two processes', two);
    const ratio = (a: number, b: number) => `${fmt((a / Math.max(b, Number.EPSILON)) * 100, 1)}%`;
    const cpu = (t: Tally) => (t.serverCpuMs + t.postgresCpuMs) / Math.max(1, t.pairs);
    console.log(
      `  two processes at ${ratio(two.pairs, one.pairs)} of one's pairs/s, ${ratio(cpu(two), cpu(one))} of its CPU per pair (${cores} cores)`,
    );
    return one.failures + two.failures === 0;
  } finally {
    for (const server of servers) await killServer(server);
    await rm(dataDir, { recursive: true, force: true });
  }
}
