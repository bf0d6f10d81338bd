import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import type { Logger } from 'drizzle-orm/logger';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { MIGRATIONS_DIR } from '../lib/paths';
import { installArrayValues } from './pg-array-values';
import { installQueryConfigCopy } from './pg-query-config';
import { installArrayRowFields } from './pg-result';
import { installRowDescriptionCache } from './pg-row-description';

installArrayRowFields();
installRowDescriptionCache();
installQueryConfigCopy();
installArrayValues();

/**
 * The database as the repositories use it: the query builder and SQL, without drizzle's
 * relational queries (`db.query.<table>`), which nothing uses. Given the schema, drizzle builds
 * a relational query builder for each of its 35 tables on every transaction it opens (the
 * transaction is a database object of its own): 15–19 µs a transaction against 0.2 µs without
 * (2026-11-30, issue 43), on the launch's and every other transaction's path.
 */
export type Db = PgDatabase<PgQueryResultHKT>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Anything a repository can run a query on: the database or an open transaction. */
export type Conn = Db | Tx;

/**
 * The extensions the migrations create, loaded into every embedded database (pg_trgm: the
 * marketplace's search index, migration 0015). PostgreSQL ships them as contrib modules.
 */
export const pgliteExtensions = { pg_trgm };

/**
 * The embedded database's PostgreSQL settings, on top of PGlite's own. PostgreSQL's default
 * shared_buffers (128 MB) is touched in full when PGlite starts, so it was resident for the
 * life of the process: opening a database cost ~300 MiB, 151 MiB of it the WebAssembly
 * memory. 32 MB holds the demo world's hot pages (its files are ~42 MiB after a fresh start); a
 * page not in them is read from the files, which the OS caches. maintenance_work_mem (64 MB by
 * default) is what an index build may take, and the WebAssembly memory never shrinks after
 * it grows; the migrations' indexes are small. docs/architecture.md, "Memory".
 */
export const PGLITE_SETTINGS = ['shared_buffers=32MB', 'maintenance_work_mem=16MB'];

/**
 * PostgreSQL advisory lock keys (one bigint each, held per session): whatever every process
 * does at start and only one may do at a time.
 */
export const STARTUP_LOCKS = {
  /** Applying the migrations (drizzle's migrator is not safe to run twice at once). */
  migrate: 7_262_000_001n,
  /** Seeding the demo world (a second seeder must find it there, not race to insert it). */
  seed: 7_262_000_002n,
} as const;
export type StartupLock = keyof typeof STARTUP_LOCKS;

export interface Database {
  db: Db;
  driver: 'pglite' | 'postgres';
  /** PostgreSQL's connection string (the signals' listener opens its own connection). */
  url?: string;
  /** Applies the migrations not yet applied, under the `migrate` lock (see `exclusively`). */
  migrate(): Promise<void>;
  /**
   * Runs `fn` while this process holds the advisory lock `lock`, on a connection of its own
   * (not the pool's: `fn` uses the pool, however small): processes started together on one
   * PostgreSQL take turns. The lock is released after `fn`, or by PostgreSQL when the process
   * dies. The embedded database belongs to one process and runs `fn` as it is.
   */
  exclusively<T>(lock: StartupLock, fn: () => Promise<T>): Promise<T>;
  ping(): Promise<void>;
  /**
   * The embedded database's LISTEN (its own process hears its NOTIFYs); absent on PostgreSQL,
   * where the signals' listener connection hears them (server/lib/signals-postgres.ts).
   */
  listen?(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export type DatabaseOptions = (
  | { kind: 'postgres'; url: string; poolSize?: number }
  | { kind: 'pglite'; dataDir?: string; loadDataDir?: Blob; client?: PGlite }
) & {
  /** Sees every statement the app sends, with its parameters (tests and benches: none in production). */
  logger?: Logger;
};

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.kind === 'postgres') {
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      // A transaction the app leaves open (a bug, a hung await) ends after a minute rather than
      // holding locks and the event log's readers back for ever (docs/decisions/027).
      idle_in_transaction_session_timeout: 60_000,
    });
    // An idle client that loses its server must not crash the process.
    pool.on('error', () => {});
    const db = drizzlePg(pool, logged(options)) as unknown as Db;
    const exclusively = <T>(lock: StartupLock, fn: () => Promise<T>) =>
      withAdvisoryLock(options.url, STARTUP_LOCKS[lock], fn);
    return {
      db,
      driver: 'postgres',
      url: options.url,
      migrate: () =>
        exclusively('migrate', () =>
          migratePg(drizzlePg(pool), { migrationsFolder: MIGRATIONS_DIR }),
        ),
      exclusively,
      ping: async () => {
        await db.execute(sql`select 1`);
      },
      close: () => pool.end(),
    };
  }
  let client = options.client;
  if (!client) {
    if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
    client = await PGlite.create({
      extensions: pgliteExtensions,
      startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS.flatMap((s) => ['-c', s])],
      ...(options.dataDir ? { dataDir: options.dataDir } : {}),
      ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    });
  }
  const owned = client;
  const db = drizzlePglite(owned, logged(options)) as unknown as Db;
  return {
    db,
    driver: 'pglite',
    migrate: () => migratePglite(drizzlePglite(owned), { migrationsFolder: MIGRATIONS_DIR }),
    exclusively: (_lock, fn) => fn(),
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    listen: async (channel, callback) => {
      const unlisten = await owned.listen(channel, callback);
      return async () => {
        if (!owned.closed) await unlisten();
      };
    },
    close: async () => {
      if (!owned.closed) await owned.close();
    },
  };
}

/** `fn` under a session-level advisory lock held by a client of its own (see `exclusively`). */
async function withAdvisoryLock<T>(url: string, key: bigint, fn: () => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  // A lost connection ends the session, and with it the lock: reported where it is used.
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [key.toString()]);
    return await fn();
  } finally {
    // Closing the session releases the lock even when the unlock could not be sent.
    await client.query('select pg_advisory_unlock($1)', [key.toString()]).catch(() => {});
    await client.end().catch(() => {});
  }
}

const logged = (options: DatabaseOptions) => (options.logger ? { logger: options.logger } : {});
