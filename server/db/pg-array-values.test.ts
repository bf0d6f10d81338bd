import fc from 'fast-check';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { demoGpuIndexes } from '../../shared/rules/gpu-binding';
import { testDatabaseUrl } from '../env';
import { installArrayValues, nodePostgresPrepareValue, pgArrayUtils } from './pg-array-values';

type Bound = { values: unknown[]; valueMapper: (value: unknown) => unknown };
const PgQuery = (
  pg as unknown as {
    Query: new (
      config: unknown,
      values?: unknown[],
    ) => {
      prepare(connection: unknown): void;
    };
  }
).Query;

/** What a query hands the connection's `bind` (lib/query.js `prepare`), with no server. */
function bound(values: unknown[]): Bound {
  let config: Bound | undefined;
  const connection = {
    parsedStatements: {},
    submittedNamedStatements: {},
    parse() {},
    bind(c: Bound) {
      config = c;
    },
    describe() {},
    execute() {},
    sync() {},
    flush() {},
  };
  new PgQuery({ text: 'select $1' }, values).prepare(connection);
  if (!config) throw new Error('bind was not called');
  return config;
}

/**
 * server/db/pg-array-values.ts writes array values without node-postgres's regular
 * expressions: the text is node-postgres's own, byte for byte, and PostgreSQL reads it back
 * as the same array.
 */
describe("node-postgres's array values written the cheap way (pg-array-values.ts)", () => {
  installArrayValues();
  const own = nodePostgresPrepareValue();

  it('is what lib/query.js maps every value through', () => {
    expect(own).not.toBe(pgArrayUtils.prepareValue);
    const { valueMapper, values } = bound([[1, 2], 'x']);
    expect(valueMapper).toBe(pgArrayUtils.prepareValue);
    expect(values.map(valueMapper)).toEqual(['{"1","2"}', 'x']);
  });

  it("writes every array node-postgres's way", () => {
    const element = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.constantFrom('a"b', 'c\\d', '\\"', '{,}', 'NULL', ' ', ''),
      fc.integer(),
      fc.double(),
      fc.bigInt(),
      fc.boolean(),
      fc.constant(null),
      fc.constant(undefined),
    );
    const nested = fc.letrec((tie) => ({
      array: fc.array(fc.oneof({ depthSize: 'small' }, element, tie('array')), { maxLength: 6 }),
    })).array;
    fc.assert(
      fc.property(nested, (values) => {
        expect(pgArrayUtils.prepareValue(values)).toBe(own(values));
      }),
      { numRuns: 2_000 },
    );
  });

  it('leaves an array of anything else, and every other value, to node-postgres', () => {
    const day = new Date('2026-11-30T12:00:00Z');
    const cases: unknown[] = [
      [day, 'x'],
      [Buffer.from('ab'), null],
      [new Uint8Array([1, 2])],
      [{ toPostgres: () => 'made' }],
      [{ a: 1 }],
      ['x', [day]],
      'text',
      7,
      day,
      { a: 1 },
      null,
    ];
    for (const value of cases) expect(pgArrayUtils.prepareValue(value)).toEqual(own(value));
  });

  it("keeps a frozen flat array's text, and never one that holds an array", () => {
    const indexes = demoGpuIndexes(256);
    expect(Object.isFrozen(indexes)).toBe(true);
    expect(demoGpuIndexes(256)).toBe(indexes);
    const text = pgArrayUtils.prepareValue(indexes);
    expect(text).toBe(own(indexes));
    expect(pgArrayUtils.prepareValue(indexes)).toBe(text);
    const inner = [1];
    const outer = Object.freeze([inner, 2]);
    expect(pgArrayUtils.prepareValue(outer)).toBe('{{"1"},"2"}');
    inner.push(3);
    expect(pgArrayUtils.prepareValue(outer)).toBe('{{"1","3"},"2"}');
  });

  it.skipIf(!testDatabaseUrl())('is read back as the same arrays (PostgreSQL)', async () => {
    const client = new pg.Client({ connectionString: testDatabaseUrl() });
    await client.connect();
    try {
      const texts = ['a"b', 'c\\d', '{,}', 'NULL', ' spaced ', '', 'ünï', null];
      const { rows } = await client.query(
        'select $1::int[] as ints, $2::text[] as texts, $3::int[] as grid, $4::bigint[] as big',
        [
          demoGpuIndexes(5),
          texts,
          [
            [1, 2],
            [3, null],
          ],
          [2n ** 62n, -1n],
        ],
      );
      expect(rows[0]).toEqual({
        ints: [0, 1, 2, 3, 4],
        texts,
        grid: [
          [1, 2],
          [3, null],
        ],
        big: [String(2n ** 62n), '-1'],
      });
    } finally {
      await client.end();
    }
  });
});
