import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase, pgliteExtensions } from '../db/client';
import { testDatabaseUrl } from '../env';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteDump: string | null;
    pgTemplate: string | null;
  }
}

/**
 * Migrates one database per run; each test file then clones it (PGlite: load the dump;
 * PostgreSQL: CREATE DATABASE … TEMPLATE), which takes well under a second.
 */
export default async function setup(project: TestProject) {
  const url = testDatabaseUrl();
  if (url) {
    const template = `rentgpu_tpl_${process.pid}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`drop database if exists ${template}`);
    await admin.query(`create database ${template}`);
    const templateUrl = new URL(url);
    templateUrl.pathname = `/${template}`;
    const database = await openDatabase({
      kind: 'postgres',
      url: templateUrl.toString(),
      poolSize: 1,
    });
    await database.migrate();
    await database.close();
    project.provide('pgTemplate', template);
    project.provide('pgliteDump', null);
    return async () => {
      await admin.query(`drop database if exists ${template} with (force)`);
      await admin.end();
    };
  }

  const client = await PGlite.create({ extensions: pgliteExtensions });
  const database = await openDatabase({ kind: 'pglite', client });
  await database.migrate();
  const dump = await client.dumpDataDir('none');
  await client.close();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'rentgpu-test-'));
  const file = path.join(dir, 'migrated.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteDump', file);
  project.provide('pgTemplate', null);
  return () => rmSync(dir, { recursive: true, force: true });
}
