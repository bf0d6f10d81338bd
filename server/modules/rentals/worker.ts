import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../lib/clock';
import type { RentalsService } from './service';

export interface Worker {
  stop(): Promise<void>;
}

/**
 * The billing worker: makes demo hosts ready, cancels rentals stuck provisioning, and
 * completes rentals at the end of their hours. Its state is the rentals table itself, so a
 * restart picks up where it left off, and several processes may run it at once (rows are
 * claimed with FOR UPDATE SKIP LOCKED).
 */
export function startWorker(
  rentals: RentalsService,
  clock: Clock,
  intervalMs: number,
  log: FastifyBaseLogger,
): Worker {
  let running: Promise<void> | null = null;
  let stopped = false;
  const tick = () => {
    if (running || stopped) return;
    running = rentals
      .processDue(clock.now())
      .then((done) => {
        if (done.ready + done.timedOut + done.expired > 0)
          log.info({ worker: done }, 'billing worker');
      })
      .catch((error: unknown) => log.error({ err: error }, 'billing worker tick failed'))
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
}
