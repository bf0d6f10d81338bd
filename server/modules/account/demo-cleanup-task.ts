import type { FastifyBaseLogger } from 'fastify';
import type { AccountService } from './service';

/** How often unused demo accounts are looked for; they are due a day after their last use. */
export const DEMO_CLEANUP_INTERVAL_MS = 10 * 60_000;

/**
 * A small scheduled task beside the billing worker: closes demo visitors' accounts left
 * unused for a day (account/service.ts closeUnusedDemoAccounts). Its state is the database
 * (rows are claimed FOR UPDATE SKIP LOCKED), so several processes may run it at once.
 */
export function startDemoCleanup(
  account: AccountService,
  log: FastifyBaseLogger,
  intervalMs = DEMO_CLEANUP_INTERVAL_MS,
): { stop(): Promise<void> } {
  let running: Promise<void> | null = null;
  let stopped = false;
  const tick = () => {
    if (running || stopped) return;
    running = (async () => {
      // Whole batches until none is left, so a backlog does not wait for later ticks.
      for (let closed = -1; closed !== 0 && !stopped; ) {
        closed = await account.closeUnusedDemoAccounts();
        if (closed > 0) log.info({ closed }, 'demo accounts closed after a day unused');
      }
    })()
      .catch((error: unknown) => log.error({ err: error }, 'demo cleanup failed'))
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
