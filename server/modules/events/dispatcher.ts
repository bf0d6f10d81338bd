import type { Db, Tx } from '../../db/client';
import type { Signals } from '../../lib/signals';
import { eventsRepo } from './repo';
import type { DurableEventReader, StoredEvent } from './types';

export interface EventDispatcherOptions {
  db: Db;
  signals: Signals;
  durable: DurableEventReader[];
  log?: { warn(obj: unknown, msg: string): void; error(obj: unknown, msg: string): void };
  /** The fallback when a wake-up is missed (a dropped listener): read anyway this often. */
  pollMs?: number;
  /** Events per read. */
  batch?: number;
  /** How long a process holds a durable reader's turn unrenewed (a dead one's is taken after this). */
  leaseMs?: number;
  /**
   * Durable readers' passes start at most this often (the first after a quiet spell at once):
   * under load the events of this window are read in one pass, not one pass per commit.
   */
  durableEveryMs?: number;
}

/** Runs `pass` now, or once more right after the one running (wake-ups meanwhile fold into one). */
function serialRunner(pass: () => Promise<void>, onError: (error: unknown) => void) {
  let running: Promise<void> | null = null;
  let again = false;
  let closed = false;
  return {
    run(): Promise<void> {
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
          onError(error);
        } finally {
          running = null;
        }
      })();
      return running;
    },
    async close(): Promise<void> {
      closed = true;
      await running;
    },
  };
}

/**
 * The only way out of the core (docs/decisions/027): each process follows the event log and
 * hands what is new to its durable readers (mail, webhooks), one process at a time, from a
 * cursor committed with what they did, under a renewed lease that a process which lost it
 * cannot use to move the cursor. Woken by the NOTIFY the log's writers send with their
 * transaction (heard at commit, in every process), and by a poll as a fallback. What every
 * process acts on at once (a host's waiting agent, the read cache) is not read here: the
 * event's writer names it in the `events` signal's id at commit (migration 0043, hints.ts).
 */
export function createEventDispatcher(options: EventDispatcherOptions) {
  const { db, signals, durable, log } = options;
  const pollMs = options.pollMs ?? 1_000;
  const batch = options.batch ?? 500;
  const leaseMs = options.leaseMs ?? 60_000;
  let timer: NodeJS.Timeout | null = null;
  let unsubscribe: (() => void) | null = null;
  let closed = false;
  /** A durable reader that failed waits before it is tried again (not every wake-up). */
  const backoffUntil = new Map<string, number>();
  /**
   * Where this process last saw each durable reader's cursor (leased or moved by it): the
   * cursor in the table is there or past it. `bound`: the log's bound read at the start of
   * the durable pass (null once a reader read a full batch: more may be waiting).
   */
  const committedUpTo = new Map<string, bigint>();
  let bound: bigint | null = null;

  /** One durable reader's turn: true when it read a full batch (more may be waiting). */
  async function readDurable(reader: DurableEventReader): Promise<boolean> {
    const wait = backoffUntil.get(reader.name);
    if (wait !== undefined && Date.now() < wait) return false;
    // Nothing new since the cursor this process last moved it to (it never goes back): no lease.
    const seen = committedUpTo.get(reader.name);
    if (seen !== undefined && bound !== null && bound <= seen) return false;
    const lease = await eventsRepo.leaseReader(db, reader.name, leaseMs);
    if (lease === null) return false; // another process reads for it now
    const { cursor, token } = lease;
    committedUpTo.set(reader.name, cursor);
    // Renewed while its effect runs (e-mail can be slow); a lost lease stops it moving anything.
    let lost = false;
    const renew = setInterval(() => {
      eventsRepo
        .renewReader(db, reader.name, token, leaseMs)
        .then((kept) => {
          if (!kept) lost = true;
        })
        .catch(() => {});
    }, leaseMs / 3);
    renew.unref();
    try {
      // Up to the bound its lease read (a statement before this one), only the events it acts
      // on (`wants`). A batch not full read every such event up to the bound: the cursor moves
      // to the bound, past the events it does not want (none is read again); a full batch moves
      // it to its last event, and more may wait.
      const upTo = lease.bound;
      const events = await eventsRepo.listUpTo(
        db,
        { after: cursor, limit: batch, ...reader.wants },
        upTo,
      );
      const full = events.length === batch;
      const last = full ? (events[events.length - 1] as StoredEvent).id : upTo;
      if (events.length === 0) {
        // Nothing it wants: the cursor moves in the statement that gives back the lease.
        const moved = last > cursor ? last : null;
        if ((await eventsRepo.releaseReader(db, reader.name, token, moved)) && moved !== null)
          committedUpTo.set(reader.name, moved);
        return false;
      }
      await reader.effect?.(events);
      if (lost) throw new Error(`lost the ${reader.name} reader's lease while it ran`);
      const release = async (conn: Db | Tx) => {
        if (!(await eventsRepo.releaseReader(conn, reader.name, token, last))) {
          throw new Error(`lost the ${reader.name} reader's lease while it ran`);
        }
      };
      // A reader that writes nothing with its cursor (e-mail) moves it in one statement.
      const { handle } = reader;
      if (handle) {
        await db.transaction(async (tx) => {
          await handle(tx, events);
          await release(tx);
        });
      } else {
        await release(db);
      }
      committedUpTo.set(reader.name, last);
      backoffUntil.delete(reader.name);
      try {
        reader.committed?.(events);
      } catch (error) {
        log?.warn({ err: error, reader: reader.name }, 'event reader hint failed');
      }
      return full;
    } catch (error) {
      log?.error({ err: error, reader: reader.name }, 'event reader failed; it reads again');
      backoffUntil.set(reader.name, Date.now() + 5_000);
      await eventsRepo.releaseReader(db, reader.name, token, null).catch(() => {});
      return false;
    } finally {
      clearInterval(renew);
    }
  }

  const failed = (error: unknown) =>
    log?.warn({ err: error }, 'event dispatch failed; the next wake-up reads again');
  const durableRunner = serialRunner(async () => {
    if (durable.length === 0) return;
    // The log's bound once per pass: a reader whose cursor this process knows is at or past
    // it has nothing new (one statement instead of a lease, a read and a release per reader).
    bound = await eventsRepo.end(db);
    for (const reader of durable) {
      for (let rounds = 0; rounds < 20 && (await readDurable(reader)); rounds += 1) {
        bound = null;
      }
    }
  }, failed);

  /**
   * Durable readers (e-mail, webhooks) at most once per `durableEveryMs`, the wake-ups in
   * between folded into a pass at its end (issue 43: at 150 rent-then-stop pairs a second the
   * durable pass ran back to back, a lease, a read and a release per reader each time).
   */
  const durableEveryMs = options.durableEveryMs ?? 200;
  let durableStartedAt = Number.NEGATIVE_INFINITY;
  let durableTimer: NodeJS.Timeout | null = null;
  function runDurable(): Promise<void> {
    durableStartedAt = Date.now();
    return durableRunner.run();
  }
  function wakeDurable(): Promise<void> {
    const wait = durableStartedAt + durableEveryMs - Date.now();
    if (wait <= 0) return runDurable();
    if (!durableTimer && !closed) {
      durableTimer = setTimeout(() => {
        durableTimer = null;
        void runDurable();
      }, wait);
      durableTimer.unref();
    }
    return Promise.resolve();
  }

  function wake(): Promise<void> {
    return wakeDurable();
  }

  return {
    /**
     * Starts following, woken by the log's NOTIFY and a poll. The durable readers' cursors are
     * made first where they have none (at the log's bound now): every event written after the
     * start is theirs, not only those after their first pass.
     */
    async start(): Promise<void> {
      await eventsRepo.ensureReaders(
        db,
        durable.map((reader) => reader.name),
      );
      unsubscribe = signals.on('events', () => void wake());
      signals.onResync(() => void wake());
      timer = setInterval(() => void wake(), pollMs);
      timer.unref();
    },
    wake,
    /** Reads until nothing is new (tests, and the worker's pass), durable readers at once. */
    async drain(): Promise<void> {
      for (let i = 0; i < 2; i += 1) await runDurable();
    },
    async close(): Promise<void> {
      closed = true;
      if (timer) clearInterval(timer);
      if (durableTimer) clearTimeout(durableTimer);
      unsubscribe?.();
      await durableRunner.close();
    },
  };
}

export type EventDispatcher = ReturnType<typeof createEventDispatcher>;
