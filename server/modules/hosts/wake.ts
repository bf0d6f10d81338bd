/**
 * Hosts waiting for work (the agent's long poll, POST /api/v1/agents/wait), woken when an
 * instance placed on them changes. The waits are in this process's memory; a change made by
 * any server process reaches them as a `host-work` signal (deps.ts, docs/decisions/017), and
 * one whose signal was lost is heard at the host's next heartbeat, as before.
 *
 * A wake that finds no waiter is kept until the host's next wait or heartbeat, so a change
 * made between a heartbeat's answer and the next wait is not lost.
 */
export function createHostWake(maxPending = 100_000) {
  const waiting = new Map<string, Set<(woken?: boolean) => void>>();
  const pending = new Set<string>();

  return {
    /** Something changed for this host: its waits answer now. */
    wake(hostId: string) {
      const waiters = waiting.get(hostId);
      if (!waiters) {
        if (pending.size >= maxPending) pending.clear();
        pending.add(hostId);
        return;
      }
      waiting.delete(hostId);
      for (const resolve of waiters) resolve(true);
    },

    /** The host is heartbeating: it is about to read everything there is. */
    heard(hostId: string) {
      pending.delete(hostId);
    },

    /** true when woken (or woken since the last heartbeat), false after `maxMs` or on abort. */
    wait(hostId: string, maxMs: number, signal?: AbortSignal): Promise<boolean> {
      if (pending.delete(hostId)) return Promise.resolve(true);
      return new Promise((resolve) => {
        const waiters = waiting.get(hostId) ?? new Set<(woken?: boolean) => void>();
        waiting.set(hostId, waiters);
        const finish = (woken: boolean) => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', aborted);
          waiters.delete(woke);
          if (waiters.size === 0 && waiting.get(hostId) === waiters) waiting.delete(hostId);
          resolve(woken);
        };
        const woke = (woken = true) => finish(woken);
        const aborted = () => finish(false);
        const timer = setTimeout(() => finish(false), maxMs);
        waiters.add(woke);
        signal?.addEventListener('abort', aborted, { once: true });
      });
    },

    /**
     * Answers every held wait with work: true (signals may have been missed, so every host
     * heartbeats and reads everything).
     */
    wakeAll() {
      const all = [...waiting.values()];
      waiting.clear();
      for (const waiters of all) for (const resolve of waiters) resolve(true);
    },

    /** Answers every held wait (work: false): the server is shutting down. */
    releaseAll() {
      const all = [...waiting.values()];
      waiting.clear();
      for (const waiters of all) for (const resolve of waiters) resolve(false);
    },

    /** Waits held now (for tests and metrics). */
    get waiting() {
      let n = 0;
      for (const set of waiting.values()) n += set.size;
      return n;
    },
  };
}

export type HostWake = ReturnType<typeof createHostWake>;
