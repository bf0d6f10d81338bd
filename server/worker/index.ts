import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../lib/clock';
import type { Job } from './jobs';

export type { Job } from './jobs';

/** Passes a job may repeat within one pass to drain a backlog. */
const MAX_ROUNDS = 200;

/**
 * The worker's jobs as one runner. `runOnce` runs every job (tests and the seed call it);
 * `start` runs it every interval. Its state lives in the database (instances, ledger), so
 * a restart picks up where it left off and several processes may run it at once.
 */
export function createWorker(jobs: Job[], log?: Pick<FastifyBaseLogger, 'info' | 'error'>) {
  const lastRun = new Map<string, number>();

  async function runJob(job: Job, now: Date): Promise<number> {
    let total = 0;
    for (let round = 0; round < MAX_ROUNDS; round += 1) {
      const done = await job.run(now, job.batch);
      total += done;
      if (job.drain ? done === 0 : done < job.batch) break;
    }
    return total;
  }

  return {
    jobs,

    /**
     * One pass of every job. By default (tests, the seed) schedules are ignored and a
     * failing job throws; the timer's passes keep schedules and log failures instead.
     */
    async runOnce(now: Date, options: { force?: boolean; rethrow?: boolean } = {}) {
      const { force = true, rethrow = true } = options;
      const done: Record<string, number> = {};
      for (const job of jobs) {
        const last = lastRun.get(job.name);
        if (
          !force &&
          job.everyMs !== undefined &&
          last !== undefined &&
          now.getTime() - last < job.everyMs
        ) {
          continue;
        }
        lastRun.set(job.name, now.getTime());
        try {
          done[job.name] = await runJob(job, now);
        } catch (error) {
          if (rethrow) throw error;
          log?.error({ err: error, job: job.name }, 'worker job failed');
        }
      }
      return done;
    },

    /** Runs a pass every `intervalMs` until stopped. */
    start(clock: Clock, intervalMs: number) {
      let running: Promise<void> | null = null;
      let stopped = false;
      const tick = () => {
        if (running || stopped) return;
        running = this.runOnce(clock.now(), { force: false, rethrow: false })
          .then((done) => {
            if (Object.values(done).some((n) => n > 0)) log?.info({ worker: done }, 'worker');
          })
          .finally(() => {
            running = null;
          });
      };
      const timer = setInterval(tick, intervalMs);
      timer.unref();
      tick();
      return {
        async stop() {
          stopped = true;
          clearInterval(timer);
          await running;
        },
      };
    },
  };
}

export type Worker = ReturnType<typeof createWorker>;
