import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Logger } from 'drizzle-orm/logger';
import pg from 'pg';
import { describe, inject } from 'vitest';
import { type Database, openDatabase } from '../db/client';
import { testDatabaseUrl } from '../env';

/**
 * A fresh, migrated database for one test file: a copy of the run's PGlite dump, or a new
 * PostgreSQL database made from the run's template (dropped again on close; `url` says where).
 * `logger` sees every statement sent (server/test/idle-plans.ts).
 */
export async function openTestDatabase(
  options: { logger?: Logger } = {},
): Promise<Database & { url?: string }> {
  const template = inject('pgTemplate');
  const url = testDatabaseUrl();
  if (template && url) {
    const name = `rentgpu_t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database ${name} template ${template}`);
    await admin.end();
    const dbUrl = new URL(url);
    dbUrl.pathname = `/${name}`;
    const database = await openDatabase({
      kind: 'postgres',
      url: dbUrl.toString(),
      poolSize: 20,
      ...options,
    });
    return {
      ...database,
      url: dbUrl.toString(),
      close: async () => {
        await database.close();
        const dropper = new pg.Client({ connectionString: url });
        await dropper.connect();
        await dropper.query(`drop database if exists ${name} with (force)`);
        await dropper.end();
      },
    };
  }
  const dump = inject('pgliteDump');
  if (!dump) throw new Error('global setup provided no database');
  return openDatabase({ kind: 'pglite', loadDataDir: new Blob([readFileSync(dump)]), ...options });
}

/**
 * `describe` for tests only PostgreSQL can answer (its plans, its plan cache): without
 * TEST_DATABASE_URL they are skipped, with a line naming the file and what it needs, so that a
 * run on the embedded database says so rather than passing them in silence. CI runs them in its
 * money phase (scripts/money-tests.mjs).
 */
export function describeOnPostgres(file: string, needs: string): typeof describe {
  if (testDatabaseUrl()) return describe;
  console.warn(`${file} skipped: ${needs} and needs TEST_DATABASE_URL`);
  return describe.skip as typeof describe;
}
