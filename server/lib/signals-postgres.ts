import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { Database } from '../db/client';
import {
  createLocalSignals,
  createSignalHandlers,
  decodeSignal,
  encodeSignal,
  publishAfter,
  SIGNAL_CHANNEL,
  type SignalKind,
  type Signals,
  type SignalsLog,
} from './signals';

export interface PostgresSignalsOptions {
  /** The database's connection string: the listener opens its own connection with it. */
  url: string;
  /** Runs one statement that NOTIFYs every payload on SIGNAL_CHANNEL (through the pool). */
  send(payloads: string[]): Promise<void>;
  log?: SignalsLog;
  /** Backoff of the listener's reconnection: the first wait, doubling up to the last. */
  reconnectMinMs?: number;
  reconnectMaxMs?: number;
  /** How often the listener's connection is checked with `select 1` (a silent drop). */
  pingMs?: number;
}

export type PostgresSignals = Signals & {
  /** Whether the listener is connected and listening now. */
  readonly listening: boolean;
};

/**
 * The bus on PostgreSQL (docs/decisions/017): publishes are sent with NOTIFY, at most one
 * statement in flight (what is published meanwhile goes in the next, deduplicated), and heard
 * with LISTEN on one dedicated connection that reconnects with backoff and then resyncs.
 */
export function createPostgresSignals(options: PostgresSignalsOptions): PostgresSignals {
  const { url, send, log } = options;
  const reconnectMinMs = options.reconnectMinMs ?? 100;
  const reconnectMaxMs = options.reconnectMaxMs ?? 5_000;
  const pingMs = options.pingMs ?? 30_000;
  /** This process, in every payload it sends: its own echo is ignored. */
  const self = randomBytes(6).toString('hex');
  const handlers = createSignalHandlers(log);
  let closed = false;

  // ── Sending: one NOTIFY statement in flight, the next batch gathering behind it. ──
  let gathering: { payloads: Set<string>; sent: Promise<void>; done: () => void } | null = null;
  let inFlight: Promise<void> | null = null;

  function flush(): void {
    if (inFlight || !gathering) return;
    const batch = gathering;
    gathering = null;
    inFlight = send([...batch.payloads])
      .catch((error) => log?.warn({ err: error }, 'signals: NOTIFY failed (others hear it late)'))
      .finally(() => {
        inFlight = null;
        batch.done();
        flush();
      });
  }

  function enqueue(payload: string): Promise<void> {
    if (!gathering) {
      let done = () => {};
      const sent = new Promise<void>((resolve) => {
        done = resolve;
      });
      gathering = { payloads: new Set(), sent, done };
      // What this turn publishes goes in one statement.
      queueMicrotask(flush);
    }
    gathering.payloads.add(payload);
    return gathering.sent;
  }

  function publish(kind: SignalKind, id?: string): Promise<void> {
    handlers.deliver(kind, id);
    if (closed) return Promise.resolve();
    return enqueue(encodeSignal(kind, id, self));
  }

  // ── Listening: one connection, reconnected with backoff. ──
  let client: pg.Client | null = null;
  let attempt = 0;
  let firstTry = true;
  let retry: NodeJS.Timeout | null = null;
  let ping: NodeJS.Timeout | null = null;

  function receive(payload: string): void {
    const signal = decodeSignal(payload);
    if (!signal || signal.from === self) return;
    handlers.deliver(signal.kind, signal.id);
  }

  function scheduleReconnect(): void {
    if (closed || retry) return;
    const ceiling = Math.min(reconnectMaxMs, reconnectMinMs * 2 ** attempt);
    attempt += 1;
    retry = setTimeout(
      () => {
        retry = null;
        void connect();
      },
      ceiling * (0.5 + Math.random() / 2),
    );
    retry.unref();
  }

  /** The listener's connection is gone (error, end, failed ping): reconnect. */
  function lost(connection: pg.Client, error?: unknown): void {
    if (connection !== client) return;
    client = null;
    connection.end().catch(() => {});
    if (closed) return;
    log?.warn({ err: error }, 'signals: listener disconnected; reconnecting');
    scheduleReconnect();
  }

  async function connect(): Promise<void> {
    const missed = !firstTry;
    firstTry = false;
    const connection = new pg.Client({
      connectionString: url,
      application_name: 'rentgpu-signals',
      keepAlive: true,
    });
    connection.on('error', (error) => lost(connection, error));
    connection.on('end', () => lost(connection));
    connection.on('notification', (message) => {
      if (message.channel === SIGNAL_CHANNEL && message.payload) receive(message.payload);
    });
    try {
      await connection.connect();
      await connection.query(`LISTEN ${SIGNAL_CHANNEL}`);
    } catch (error) {
      connection.end().catch(() => {});
      log?.warn({ err: error }, 'signals: cannot listen; retrying');
      scheduleReconnect();
      return;
    }
    if (closed) {
      await connection.end().catch(() => {});
      return;
    }
    client = connection;
    attempt = 0;
    // Listening again: whatever was sent while deaf is heard as "everything may have changed".
    if (missed) handlers.resync();
  }

  async function checkListener(): Promise<void> {
    const connection = client;
    if (!connection) return;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        connection.query('select 1'),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('listener ping timed out')), 10_000);
        }),
      ]);
    } catch (error) {
      lost(connection, error);
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    transport: 'postgres',
    publish,
    afterCommit: (work) => publishAfter(publish, work),
    deliverLocally: (kind, id) => handlers.deliver(kind, id),
    on: handlers.on,
    onResync: handlers.onResync,
    get listening() {
      return client !== null;
    },
    async start() {
      if (ping || closed) return;
      ping = setInterval(() => void checkListener(), pingMs);
      ping.unref();
      await connect();
    },
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      if (ping) clearInterval(ping);
      retry = null;
      ping = null;
      // What was published before closing is still sent.
      while (inFlight || gathering) {
        flush();
        await (inFlight ?? Promise.resolve());
      }
      const connection = client;
      client = null;
      if (connection) await connection.end().catch(() => {});
    },
  };
}

/** The bus for this database: NOTIFY/LISTEN on PostgreSQL, the local one on PGlite. */
export function signalsFor(database: Database, log?: SignalsLog): Signals {
  if (database.driver !== 'postgres' || !database.url)
    return createLocalSignals(log, database.listen);
  const { db } = database;
  return createPostgresSignals({
    url: database.url,
    log,
    send: async (payloads) => {
      await db.execute(
        sql`select pg_notify(${SIGNAL_CHANNEL}, p) from json_array_elements_text(${JSON.stringify(payloads)}::json) as p`,
      );
    },
  });
}
