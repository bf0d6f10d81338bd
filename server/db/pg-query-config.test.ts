import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { testDatabaseUrl } from '../env';
import { installQueryConfigCopy, pgUtils } from './pg-query-config';

type QueryFields = { text: string; values: unknown; name?: string; callback?: unknown };
const PgQuery = (pg as unknown as { Query: new (...args: unknown[]) => QueryFields }).Query;

/**
 * server/db/pg-query-config.ts copies a plain config with a spread: the query node-postgres
 * makes of it is the one its own copy gave, the caller's object is left as it was, and any
 * other config is copied by node-postgres itself.
 */
describe("node-postgres's query config copied the cheap way (pg-query-config.ts)", () => {
  installQueryConfigCopy();

  it('is what lib/query.js calls for every query', () => {
    const replaced = pgUtils.normalizeQueryConfig;
    let calls = 0;
    pgUtils.normalizeQueryConfig = (...args) => {
      calls += 1;
      return replaced(...args);
    };
    try {
      new PgQuery({ text: 'select 1' });
      new PgQuery('select $1', [1]);
    } finally {
      pgUtils.normalizeQueryConfig = replaced;
    }
    expect(calls).toBe(2);
  });

  it("gives a plain config its keys and the values, and leaves the caller's object alone", () => {
    const types = { getTypeParser: () => (value: unknown) => value };
    const config = { name: 'q', text: 'select $1', rowMode: 'array', types };
    const query = new PgQuery(config, [7]);
    expect(query.text).toBe('select $1');
    expect(query.name).toBe('q');
    expect(query.values).toEqual([7]);
    expect(config).toEqual({ name: 'q', text: 'select $1', rowMode: 'array', types });
    const copy = pgUtils.normalizeQueryConfig(config, [7]);
    expect(copy).not.toBe(config);
    expect(copy).toEqual({ ...config, values: [7] });
    const callback = () => {};
    expect(pgUtils.normalizeQueryConfig(config, callback).callback).toBe(callback);
    expect(pgUtils.normalizeQueryConfig(config, [1], callback)).toMatchObject({
      values: [1],
      callback,
    });
    expect(pgUtils.normalizeQueryConfig('select 1', [2])).toEqual({
      text: 'select 1',
      values: [2],
    });
  });

  it("makes the query node-postgres's own copy made, every copy of one shape", () => {
    const types = { getTypeParser: () => (value: unknown) => value };
    const callback = () => {};
    const configs: Record<string, unknown>[] = [
      { name: 'q', text: 'select $1', rowMode: 'array', types },
      { text: 'begin' },
      {
        text: 'select $1',
        values: [1],
        rows: 10,
        binary: true,
        portal: 'p',
        queryMode: 'extended',
      },
      { text: 'select 2', callback, extra: 'never read' },
    ];
    // node-postgres's own copy (pg 8.23 utils.cloneQueryConfig), as the test's reference.
    const theirs = (config: object) =>
      Object.defineProperties(
        Object.create(Object.getPrototypeOf(config)),
        Object.getOwnPropertyDescriptors(config),
      );
    const replaced = pgUtils.normalizeQueryConfig;
    const read = (query: Record<string, unknown>) =>
      Object.fromEntries(
        [
          'text',
          'values',
          'rows',
          'types',
          'name',
          'queryMode',
          'binary',
          'portal',
          'callback',
          '_rowMode',
        ].map((key) => [key, query[key]]),
      );
    const shapes = new Set<string>();
    for (const config of configs) {
      for (const values of [undefined, [5]]) {
        const ours = new PgQuery(config, values) as unknown as Record<string, unknown>;
        pgUtils.normalizeQueryConfig = (c, v) => {
          const copy = theirs(c as object) as Record<string, unknown>;
          if (v) copy.values = v;
          return copy as never;
        };
        let reference: Record<string, unknown>;
        try {
          reference = new PgQuery(config, values) as unknown as Record<string, unknown>;
        } finally {
          pgUtils.normalizeQueryConfig = replaced;
        }
        expect(read(ours)).toEqual(read(reference));
        shapes.add(Object.keys(replaced(config, values)).join());
      }
    }
    expect([...shapes]).toEqual([
      'text,values,rows,types,name,queryMode,binary,portal,callback,rowMode',
    ]);
  });

  it('leaves a config of another prototype to node-postgres', () => {
    class Config {
      text = 'select 2';
      get name() {
        return 'named';
      }
    }
    const copy = pgUtils.normalizeQueryConfig(new Config(), [3]);
    expect(copy).toBeInstanceOf(Config);
    expect(copy.text).toBe('select 2');
    expect(copy.name).toBe('named');
    expect(copy.values).toEqual([3]);
  });

  it.skipIf(!testDatabaseUrl())('runs statements on a real connection (PostgreSQL)', async () => {
    const client = new pg.Client({ connectionString: testDatabaseUrl() });
    await client.connect();
    try {
      const config = {
        name: 'query_config_test',
        text: 'select $1::int + 1 as n',
        rowMode: 'array' as const,
      };
      const one = await client.query(config, [1]);
      const two = await client.query(config, [41]);
      expect(one.rows).toEqual([[2]]);
      expect(two.rows).toEqual([[42]]);
      expect(config).toEqual({
        name: 'query_config_test',
        text: 'select $1::int + 1 as n',
        rowMode: 'array',
      });
    } finally {
      await client.end();
    }
  });
});
