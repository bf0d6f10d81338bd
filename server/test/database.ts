import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { inject } from 'vitest';
import { type Database, openDatabase } from '../db/client';
import { testDatabaseUrl } from '../env';

/**
 * A fresh, migrated database for one test file: a copy of the run's PGlite dump, or a new
 * PostgreSQL database made from the run's template (dropped again on close).
 */
export async function openTestDatabase(): Promise<Database> {
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
    const database = await openDatabase({ kind: 'postgres', url: dbUrl.toString(), poolSize: 20 });
    return {
      ...database,
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
  return openDatabase({ kind: 'pglite', loadDataDir: new Blob([readFileSync(dump)]) });
}
