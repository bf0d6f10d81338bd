/**
 * `BENCH_ONLY=db-client`: what the database client costs the event loop per statement and per
 * transaction, apart from the database (issue 43), each against what drizzle and node-postgres
 * do by themselves: a row of `instances` (62 columns) mapped to its object, a query's config
 * copied, a transaction's database object, array values written. No database: the rows are made up of values of each
 * column's type.
 */

import { isDeepStrictEqual } from 'node:util';
import type { Table } from 'drizzle-orm';
import * as drizzleOrm from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { PgDatabase } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { rowMapperOf, type SelectedField } from '../../server/db/compiled';
import {
  installArrayValues,
  nodePostgresPrepareValue,
  pgArrayUtils,
} from '../../server/db/pg-array-values';
import { pgUtils } from '../../server/db/pg-query-config';
import * as schema from '../../server/db/schema';

const PgQuery = (pg as unknown as { Query: new (config: unknown, values?: unknown[]) => object })
  .Query;

/** drizzle's own row mapping (drizzle-orm/utils.js; exported, not typed). */
const { mapResultRow } = drizzleOrm as unknown as {
  mapResultRow(fields: unknown, row: unknown[], joinsNotNullableMap: undefined): unknown;
};

/** This process's CPU µs per call of `run`, `count` calls (no other thread runs meanwhile). */
function cpuMicros(count: number, run: (i: number) => unknown): number {
  let sink = 0;
  for (let i = 0; i < Math.min(count, 2_000); i += 1) sink += run(i) ? 1 : 0;
  const before = process.cpuUsage();
  for (let i = 0; i < count; i += 1) sink += run(i) ? 1 : 0;
  const used = process.cpuUsage(before);
  if (sink < 0) console.log(sink);
  return (used.user + used.system) / count;
}

/** A value of a column's type as node-postgres hands it to drizzle (dates as text, JSON parsed). */
function driverValue(column: { dataType: string; columnType: string }, i: number): unknown {
  switch (column.dataType) {
    case 'date':
      return `2026-11-30 09:${String(i % 60).padStart(2, '0')}:00.123+00`;
    case 'json':
      return { at: i, list: [1, 2, 3] };
    case 'number':
      return column.columnType === 'PgNumeric' ? `${i}.50` : i;
    case 'boolean':
      return i % 2 === 0;
    case 'bigint':
      return String(i);
    default:
      return `text ${i}`;
  }
}

export async function benchDbClient(fmt: (n: number, digits?: number) => string): Promise<void> {
  const db = drizzle.mock();
  const prepared = db.select().from(schema.instances).prepare('bench_instances') as unknown as {
    fields: SelectedField[];
    queryString: string;
    params: unknown[];
  };
  const fields = prepared.fields;
  const rows = Array.from({ length: 64 }, (_, r) =>
    fields.map((f, i) => driverValue(f.field as { dataType: string; columnType: string }, r + i)),
  );
  const ours = rowMapperOf(fields, undefined);
  if (!ours) throw new Error('no mapper for a plain select');
  // The two must agree before their costs mean anything.
  const theirs = rows.map((row) => mapResultRow(fields as never, row, undefined));
  if (!isDeepStrictEqual(ours(rows), theirs)) throw new Error('the row mappers disagree');

  const config = { name: 'q', text: prepared.queryString, rowMode: 'array', types: {} };
  const original = (pgUtils as unknown as { normalizeQueryConfig: (c: unknown) => unknown })
    .normalizeQueryConfig;
  // node-postgres's own copy, as it was before the app replaced it.
  const descriptorsCopy = (c: object) =>
    Object.defineProperties(
      Object.create(Object.getPrototypeOf(c)),
      Object.getOwnPropertyDescriptors(c),
    );
  // The copy the tenth stop made (a spread, the values added after): each copy a map of its
  // own, so the Query constructor's reads of it missed V8's inline caches.
  const spreadCopy = (c: unknown, values?: unknown) => {
    const copy = { ...(c as Record<string, unknown>) };
    if (values) copy.values = values;
    return copy;
  };
  const withNormalize = <T>(normalize: (c: unknown, v?: unknown) => unknown, run: () => T): T => {
    const utils = pgUtils as unknown as { normalizeQueryConfig: typeof normalize };
    const kept = utils.normalizeQueryConfig;
    utils.normalizeQueryConfig = normalize;
    try {
      return run();
    } finally {
      utils.normalizeQueryConfig = kept;
    }
  };
  const withSchema = drizzle.mock({ schema }) as unknown as {
    dialect: unknown;
    session: unknown;
    _: { schema: unknown; fullSchema: unknown; tableNamesMap: unknown };
  };
  const tables = Object.keys(withSchema._.schema as Record<string, Table>).length;

  installArrayValues();
  const ownPrepare = nodePostgresPrepareValue();
  const gpus = Array.from({ length: 256 }, (_, i) => i);
  const frozenGpus = Object.freeze([...gpus]);
  const uuids = ['6f1c2a7e-8b1d-4c9e-9a0b-1234567890ab', '0b9e3d2c-1a4f-4e8d-8c7b-6a5f4e3d2c1b'];
  for (const value of [gpus, frozenGpus, uuids])
    if (pgArrayUtils.prepareValue(value) !== ownPrepare(value))
      throw new Error('the array writers disagree');

  console.log(`\ndatabase client: this process's CPU per call (no database; 2 rounds)`);
  for (let round = 1; round <= 2; round += 1) {
    const figures = [
      [
        `a row of instances (${fields.length} columns): drizzle's mapResultRow`,
        cpuMicros(200_000, (i) =>
          mapResultRow(fields as never, rows[i % 64] as unknown[], undefined),
        ),
      ],
      [
        'compiled.ts rowMapperOf',
        cpuMicros(200_000, (i) => (ours([rows[i % 64] as unknown[]]) as unknown[])[0]),
      ],
      [
        "a query's config copied: node-postgres's way",
        cpuMicros(200_000, () => descriptorsCopy(config)),
      ],
      ['pg-query-config.ts', cpuMicros(200_000, () => original(config))],
      [
        'a query made (new Query, with its values): the config copied by a spread',
        withNormalize(spreadCopy, () => cpuMicros(200_000, (i) => new PgQuery(config, [i]))),
      ],
      ['pg-query-config.ts', cpuMicros(200_000, (i) => new PgQuery(config, [i]))],
      [
        `a transaction's database object with the schema (${tables} tables' relational builders)`,
        cpuMicros(
          20_000,
          () =>
            new PgDatabase(
              withSchema.dialect as never,
              withSchema.session as never,
              withSchema._ as never,
            ),
        ),
      ],
      [
        'without',
        cpuMicros(
          200_000,
          () => new PgDatabase(withSchema.dialect as never, withSchema.session as never, undefined),
        ),
      ],
      [
        "a demo pool's 256 GPU indexes as a value: node-postgres's",
        cpuMicros(20_000, () => ownPrepare(gpus)),
      ],
      ['pg-array-values.ts', cpuMicros(20_000, () => pgArrayUtils.prepareValue(gpus))],
      [
        'frozen (shared/rules/gpu-binding.ts demoGpuIndexes)',
        cpuMicros(200_000, () => pgArrayUtils.prepareValue(frozenGpus)),
      ],
      ["two uuids as a value: node-postgres's", cpuMicros(200_000, () => ownPrepare(uuids))],
      ['pg-array-values.ts', cpuMicros(200_000, () => pgArrayUtils.prepareValue(uuids))],
    ] as const;
    console.log(`  round ${round}:`);
    for (const [name, micros] of figures) console.log(`    ${name}: ${fmt(micros, 2)} µs`);
  }
}
