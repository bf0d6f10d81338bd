/**
 * Signals between server processes (docs/decisions/017-cross-process-signals.md): "this may
 * have changed", told after the change commits. Handlers run in the publishing process at
 * once and, on PostgreSQL, in every other process when its `LISTEN` hears the `NOTIFY`.
 * A signal is a hint over the database: a lost one costs the old fallback delay (a heartbeat,
 * a cache's TTL), never correctness, and one too many costs a re-read.
 */

/** The one channel every process listens on. */
export const SIGNAL_CHANNEL = 'rentgpu_signals';

export type SignalKind =
  /** An API key was revoked: its remembered authentication is forgotten (id: the key). */
  | 'api-key'
  /** A user's keys were re-dated or deleted (id: the user). */
  | 'api-keys-of-user'
  /** Listings or their availability changed: cached public pages are dropped (no id). */
  | 'read-cache'
  /**
   * The event log has new events (docs/decisions/027): sent by the database itself, from the
   * transaction that wrote them, so it is heard at its commit by every process (no id).
   */
  | 'events';

const KINDS: ReadonlySet<string> = new Set<SignalKind>([
  'api-key',
  'api-keys-of-user',
  'read-cache',
  'events',
]);

/** A handler's id: undefined means "every one of this kind". */
export type SignalHandler = (id: string | undefined) => void;
/** Queues a signal inside a transaction (signals.afterCommit). */
export type RaiseSignal = (kind: SignalKind, id?: string) => void;

export interface Signals {
  /** 'postgres': other processes hear it through NOTIFY; 'local': this process only. */
  readonly transport: 'local' | 'postgres';
  /**
   * Tells every process, this one first: its handlers have run when this returns. Call it
   * after the change has committed (or use afterCommit). The promise resolves once other
   * processes have been sent it (at once on the local bus); it never rejects.
   */
  publish(kind: SignalKind, id?: string): Promise<void>;
  /**
   * Runs `work` (which opens the transaction) and publishes what it raised only when it
   * resolves: a transaction that rolls back (throws) sends nothing.
   */
  afterCommit<T>(work: (raise: RaiseSignal) => Promise<T>): Promise<T>;
  /**
   * Runs this process's handlers of `kind` only, sending nothing: for what every process learns
   * by itself (each reads the event log, docs/decisions/027).
   */
  deliverLocally(kind: SignalKind, id?: string): void;
  /** Hears one kind from every process; returns the unsubscribe. */
  on(kind: SignalKind, handler: SignalHandler): () => void;
  /**
   * Hears "everything may have changed": the listener was disconnected and is back, so
   * signals may have been missed (clear caches, answer waits).
   */
  onResync(handler: () => void): () => void;
  /** Connects the listener (resolves after the first try; a failed one keeps retrying). */
  start(): Promise<void>;
  /** Sends what is queued, stops listening. */
  close(): Promise<void>;
}

export interface SignalsLog {
  warn(obj: unknown, msg: string): void;
  error(obj: unknown, msg: string): void;
}

/** Subscriptions and their dispatch, shared by both transports. */
export function createSignalHandlers(log?: SignalsLog) {
  const handlers = new Map<SignalKind, Set<SignalHandler>>();
  const resyncs = new Set<() => void>();
  const safely = (run: () => void) => {
    try {
      run();
    } catch (error) {
      log?.error({ err: error }, 'a signal handler failed');
    }
  };
  return {
    on(kind: SignalKind, handler: SignalHandler) {
      const set = handlers.get(kind) ?? new Set<SignalHandler>();
      handlers.set(kind, set);
      set.add(handler);
      return () => {
        set.delete(handler);
      };
    },
    onResync(handler: () => void) {
      resyncs.add(handler);
      return () => {
        resyncs.delete(handler);
      };
    },
    deliver(kind: SignalKind, id: string | undefined) {
      for (const handler of handlers.get(kind) ?? []) safely(() => handler(id));
    },
    resync() {
      for (const handler of resyncs) safely(handler);
    },
  };
}

/** afterCommit over a publish: what `work` raised is published only when it resolves. */
export async function publishAfter<T>(
  publish: (kind: SignalKind, id?: string) => Promise<void>,
  work: (raise: RaiseSignal) => Promise<T>,
): Promise<T> {
  const raised = new Map<string, { kind: SignalKind; id?: string }>();
  const result = await work((kind, id) => {
    raised.set(`${kind}\u0000${id ?? ''}`, id === undefined ? { kind } : { kind, id });
  });
  await Promise.all([...raised.values()].map((s) => publish(s.kind, s.id)));
  return result;
}

/** Longest id sent as it is (a uuid or a number is far shorter); longer → the kind alone. */
const MAX_ID_CHARS = 200;

/** The NOTIFY payload: JSON `{kind, id, from}`, far under PostgreSQL's 8,000-byte limit. */
export function encodeSignal(kind: SignalKind, id: string | undefined, from: string): string {
  const sent = id !== undefined && id.length <= MAX_ID_CHARS ? id : undefined;
  return JSON.stringify(sent === undefined ? { kind, from } : { kind, id: sent, from });
}

/** A payload as sent by encodeSignal, or null for anything else on the channel. */
export function decodeSignal(
  payload: string,
): { kind: SignalKind; id: string | undefined; from: string } | null {
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { kind, id, from } = value as Record<string, unknown>;
  if (typeof kind !== 'string' || !KINDS.has(kind) || typeof from !== 'string') return null;
  if (id !== undefined && typeof id !== 'string') return null;
  return { kind: kind as SignalKind, id, from };
}

/** The embedded database's bus: one process, so handlers run here and nothing is sent. */
export function createLocalSignals(
  log?: SignalsLog,
  /** The embedded database's LISTEN: its NOTIFYs (the event log's) are heard here too. */
  listen?: (channel: string, callback: (payload: string) => void) => Promise<() => Promise<void>>,
): Signals {
  const handlers = createSignalHandlers(log);
  let unlisten: (() => Promise<void>) | null = null;
  const publish = async (kind: SignalKind, id?: string) => handlers.deliver(kind, id);
  return {
    transport: 'local',
    publish(kind, id) {
      handlers.deliver(kind, id);
      return Promise.resolve();
    },
    afterCommit: (work) => publishAfter(publish, work),
    deliverLocally: (kind, id) => handlers.deliver(kind, id),
    on: handlers.on,
    onResync: handlers.onResync,
    start: async () => {
      if (!listen || unlisten) return;
      unlisten = await listen(SIGNAL_CHANNEL, (payload) => {
        const signal = decodeSignal(payload);
        if (signal) handlers.deliver(signal.kind, signal.id);
      });
    },
    close: async () => {
      const stop = unlisten;
      unlisten = null;
      await stop?.().catch(() => {});
    },
  };
}
