import type { Db } from '../../db/client';
import type { Signals } from '../../lib/signals';
import { eventsRepo } from './repo';
import type { DurableEventReader, HintEventReader, StoredEvent } from './types';

export interface EventDispatcherOptions {
  db: Db;
  signals: Signals;
  durable: DurableEventReader[];
  hints: HintEventReader[];
  log?: { warn(obj: unknown, msg: string): void; error(obj: unknown, msg: string): void };
  /** The fallback when a wake-up is missed (a dropped listener): read anyway this often. */
  pollMs?: number;
  /** Events per read. */
  batch?: number;
  /** How long a process holds a durable reader's turn (a dead one's is taken after this). */
  leaseMs?: number;
}

/**
 * The only way out of the core (docs/decisions/027): each process follows the event log and
 * hands what is new to its readers. Woken by the NOTIFY the log's writers send with their
 * transaction (heard at commit, in every process), and by a poll as a fallback. Hint readers
 * (host wakes, cache drops) run in every process from an in-memory cursor; durable readers
 * (mail, webhooks) run in one process at a time from a cursor committed with what they did.
 */
export function createEventDispatcher(options: EventDispatcherOptions) {
  const { db, signals, durable, hints, log } = options;
  const pollMs = options.pollMs ?? 1_000;
  const batch = options.batch ?? 500;
  const leaseMs = options.leaseMs ?? 60_000;
  let hintCursor: bigint | null = null;
  let running: Promise<void> | null = null;
  let again = false;
  let timer: NodeJS.Timeout | null = null;
  let unsubscribe: (() => void) | null = null;
  let closed = false;
  /** A durable reader that failed waits before it is tried again (not every wake-up). */
  const backoffUntil = new Map<string, number>();

  async function readHints(): Promise<void> {
    if (hints.length === 0) return;
    if (hintCursor === null) hintCursor = await eventsRepo.end(db);
    for (;;) {
      const events = await eventsRepo.list(db, { after: hintCursor, limit: batch });
      if (events.length === 0) return;
      for (const reader of hints) {
        try {
          reader.handle(events);
        } catch (error) {
          log?.error({ err: error, reader: reader.name }, 'event hint reader failed');
        }
      }
      hintCursor = (events[events.length - 1] as StoredEvent).id;
      if (events.length < batch) return;
    }
  }

  /** One durable reader's turn: true when it read a full batch (more may be waiting). */
  async function readDurable(reader: DurableEventReader): Promise<boolean> {
    const wait = backoffUntil.get(reader.name);
    if (wait !== undefined && Date.now() < wait) return false;
    const cursor = await eventsRepo.leaseReader(db, reader.name, leaseMs);
    if (cursor === null) return false; // another process reads for it now
    let events: StoredEvent[] = [];
    try {
      events = await eventsRepo.list(db, { after: cursor, limit: batch });
      if (events.length === 0) {
        await eventsRepo.releaseReader(db, reader.name, null);
        return false;
      }
      await reader.effect?.(events);
      const last = (events[events.length - 1] as StoredEvent).id;
      await db.transaction(async (tx) => {
        await reader.handle?.(tx, events);
        await eventsRepo.releaseReader(tx, reader.name, last);
      });
      backoffUntil.delete(reader.name);
      try {
        reader.committed?.(events);
      } catch (error) {
        log?.warn({ err: error, reader: reader.name }, 'event reader hint failed');
      }
      return events.length === batch;
    } catch (error) {
      log?.error({ err: error, reader: reader.name }, 'event reader failed; it reads again');
      backoffUntil.set(reader.name, Date.now() + 5_000);
      await eventsRepo.releaseReader(db, reader.name, null).catch(() => {});
      return false;
    }
  }

  /**
   * Events committed but not settled yet (an older transaction of this database still runs):
   * read again shortly — 10 ms, doubling to 320 ms — rather than at the next poll.
   */
  let settleTimer: NodeJS.Timeout | null = null;
  let settleDelay = 10;
  async function readAgainWhenSettled(): Promise<void> {
    if (hintCursor === null || settleTimer || closed) return;
    if (!(await eventsRepo.unsettledAfter(db, hintCursor))) {
      settleDelay = 10;
      return;
    }
    settleTimer = setTimeout(() => {
      settleTimer = null;
      void wake();
    }, settleDelay);
    settleTimer.unref();
    settleDelay = Math.min(settleDelay * 2, 320);
  }

  async function pass(): Promise<void> {
    await readHints();
    for (const reader of durable) {
      for (let rounds = 0; rounds < 20 && (await readDurable(reader)); rounds += 1) {}
    }
    await readAgainWhenSettled();
  }

  /** Runs a pass now, or right after the one running (wake-ups meanwhile fold into one). */
  function wake(): Promise<void> {
    if (closed) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await pass();
        } while (again && !closed);
      } catch (error) {
        log?.warn({ err: error }, 'event dispatch failed; the next wake-up reads again');
      } finally {
        running = null;
      }
    })();
    return running;
  }

  return {
    /** Starts following: hints from the log's end now, woken by the log's NOTIFY and a poll. */
    async start(): Promise<void> {
      hintCursor = await eventsRepo.end(db);
      unsubscribe = signals.on('events', () => void wake());
      signals.onResync(() => void wake());
      timer = setInterval(() => void wake(), pollMs);
      timer.unref();
    },
    wake,
    /** Reads until nothing is new (tests, and the worker's pass). */
    async drain(): Promise<void> {
      await wake();
      await wake();
    },
    async close(): Promise<void> {
      closed = true;
      if (timer) clearInterval(timer);
      if (settleTimer) clearTimeout(settleTimer);
      unsubscribe?.();
      await running;
    },
  };
}

export type EventDispatcher = ReturnType<typeof createEventDispatcher>;
