import path from 'node:path';
import { type Database, openDatabase } from './db/client';
import { ConfigError, type Env, parseEnv } from './env';

/**
 * What the server's entry points (main.ts, migrate.ts) share: the configuration read once,
 * and the database it names.
 */

/** The parsed configuration; on a bad one, its one-line reason and exit status 1. */
export function envOrExit(): Env {
  try {
    return parseEnv();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

/** DATABASE_URL's PostgreSQL, else the embedded database in DATA_DIR. */
export function openConfiguredDatabase(env: Env, poolSize?: number): Promise<Database> {
  return env.DATABASE_URL
    ? openDatabase({
        kind: 'postgres',
        url: env.DATABASE_URL,
        ...(poolSize !== undefined ? { poolSize } : {}),
      })
    : openDatabase({ kind: 'pglite', dataDir: path.join(env.DATA_DIR, 'pglite') });
}

/** Where the data is, as the start-up lines say it. */
export const databaseWhere = (env: Env) =>
  env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${env.DATA_DIR}`;
