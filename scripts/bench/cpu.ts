/**
 * CPU time from /proc (Linux), for the bench's per-request and per-pair figures: the time a
 * thread or a PostgreSQL backend ran, which waiting for a core on a shared machine does not
 * inflate the way it does latency and req/s; and the thread's CPU profiles (BENCH_PROFILE). Used by
 * run.ts and listing-shapes.ts.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';

/** Clock ticks (utime + stime) of a /proc stat file, in ms (USER_HZ is 100 on Linux); 0 when unreadable. */
export function procCpuMs(path: string): number {
  try {
    const stat = readFileSync(path, 'utf8');
    // Fields after the command name (which may hold spaces) start at its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/**
 * CPU time so far of this process's main thread, and per backend of the PostgreSQL server on
 * this machine serving `database` (found by process title, so no statement is sent). On a
 * machine shared with other work the time a thread waits for a core is not in these, as it
 * is in the event loop's busy time: they say what a pair costs, not how long it waited.
 */
export function cpuSnapshot(database: string | undefined) {
  const thread = procCpuMs(`/proc/self/task/${process.pid}/stat`);
  const backends = new Map<string, number>();
  if (database) {
    let pids: string[] = [];
    try {
      pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
    } catch {}
    for (const pid of pids) {
      let title = '';
      try {
        title = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      } catch {
        continue;
      }
      if (title.startsWith('postgres: ') && title.includes(` ${database} `)) {
        backends.set(pid, procCpuMs(`/proc/${pid}/stat`));
      }
    }
  }
  return { thread, backends };
}

/** The backends' CPU between two snapshots (one that started in between counts from zero). */
export function backendsCpuMs(
  before: ReturnType<typeof cpuSnapshot>,
  after: ReturnType<typeof cpuSnapshot>,
): number {
  let total = 0;
  for (const [pid, ms] of after.backends) total += ms - (before.backends.get(pid) ?? 0);
  return total;
}

/**
 * BENCH_PROFILE=<file prefix>: this thread's CPU profile of the parts a bench names, each written
 * to `<prefix>.<part>.cpuprofile` (open it in Chrome's DevTools, or sum it:
 * scripts/bench/profile-summary.mjs); null when BENCH_PROFILE is unset. `close` when done.
 */
export async function cpuProfiler() {
  const prefix = process.env.BENCH_PROFILE;
  if (!prefix) return null;
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  return {
    start: () => session.post('Profiler.start'),
    async stop(part: string) {
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(`${prefix}.${part}.cpuprofile`, JSON.stringify(profile));
    },
    close: () => session.disconnect(),
  };
}
