import fc from 'fast-check';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { installArrayRowFields } from './pg-result';

type Row = unknown[] | Record<string, unknown>;
interface TestResult {
  addFields(fields: { name: string; dataTypeID: number; format?: string }[]): void;
  parseRow(values: (string | null)[]): Row;
  fields: unknown[];
}
const { Result } = pg as unknown as {
  Result: new (rowMode?: string, types?: unknown) => TestResult;
};

const FIELDS = [
  { name: 'id', dataTypeID: 23, format: 'text' }, // int4
  { name: 'name', dataTypeID: 25, format: 'text' }, // text
  { name: 'ok', dataTypeID: 16, format: 'text' }, // bool
  { name: 'big', dataTypeID: 20, format: 'text' }, // int8: a string by default
];

/**
 * server/db/pg-result.ts replaces node-postgres's `Result.addFields` for array rows: the rows
 * must come out as node-postgres makes them, with the parsers it would choose (its own, or a
 * query's `types`, as drizzle passes), and object rows must stay node-postgres's own.
 */
describe('node-postgres results with array rows (pg-result.ts)', () => {
  installArrayRowFields();

  it('parses array rows with the type parsers node-postgres chooses', () => {
    const result = new Result('array');
    result.addFields(FIELDS);
    expect(result.fields).toBe(FIELDS);
    // Installed: no empty object row is made for array rows.
    expect(
      (result as unknown as { _prebuiltEmptyResultObject: unknown })._prebuiltEmptyResultObject,
    ).toBeNull();
    expect(result.parseRow(['7', 'seven', 't', '9007199254740993'])).toEqual([
      7,
      'seven',
      true,
      '9007199254740993',
    ]);
    expect(result.parseRow([null, null, 'f', null])).toEqual([null, null, false, null]);
  });

  it("uses a query's own type parsers, as drizzle gives them", () => {
    const types = {
      getTypeParser: (oid: number, format: string) =>
        oid === 23 ? (v: string) => `int:${v}:${format}` : (v: string) => v,
    };
    const result = new Result('array', types);
    result.addFields(FIELDS);
    expect(result.parseRow(['7', 'seven', 't', '1'])).toEqual(['int:7:text', 'seven', 't', '1']);
  });

  it('answers object rows as node-postgres does, every column named', () => {
    const result = new Result();
    result.addFields(FIELDS);
    expect(result.parseRow(['7', null, 't', '1'])).toEqual({
      id: 7,
      name: null,
      ok: true,
      big: '1',
    });
  });

  it("makes a fields array's empty object row once, and each row a copy of it", () => {
    const fields = FIELDS.map((f) => ({ ...f }));
    const emptyOf = (r: TestResult) =>
      (r as unknown as { _prebuiltEmptyResultObject: unknown })._prebuiltEmptyResultObject;
    const objects = new Result();
    objects.addFields(fields);
    const again = new Result();
    again.addFields(fields);
    expect(emptyOf(again)).toBe(emptyOf(objects));
    expect(emptyOf(objects)).toEqual({ id: null, name: null, ok: null, big: null });
    const a = again.parseRow(['1', 'a', 't', '2']);
    const b = again.parseRow(['3', null, 'f', null]);
    expect(a).toEqual({ id: 1, name: 'a', ok: true, big: '2' });
    expect(b).toEqual({ id: 3, name: null, ok: false, big: null });
    expect(objects.parseRow([null, null, null, null])).toEqual({
      id: null,
      name: null,
      ok: null,
      big: null,
    });
    expect(emptyOf(objects)).toEqual({ id: null, name: null, ok: null, big: null });
    // The same array under a query's own types: its parsers, not another query's.
    const types = { getTypeParser: () => (v: string) => `t:${v}` };
    const typed = new Result('array', types);
    typed.addFields(fields);
    expect(typed.parseRow(['1', 'a', 't', '2'])).toEqual(['t:1', 't:a', 't:t', 't:2']);
    const plain = new Result('array');
    plain.addFields(fields);
    expect(plain.parseRow(['1', 'a', 't', '2'])).toEqual([1, 'a', true, '2']);
  });

  it("builds object rows as node-postgres's parseRow does, for any columns", () => {
    const name = fc.oneof(
      fc.constantFrom('id', 'name', 'ok', 'big', '"x"', 'a\nb', "it's", 'constructor', ''),
      fc.string(),
    );
    const column = fc.record({ name, dataTypeID: fc.constantFrom(16, 20, 23, 25) });
    fc.assert(
      fc.property(
        fc.array(column, { minLength: 1, maxLength: 12 }),
        fc.array(fc.option(fc.constantFrom('1', 't', 'f', '42', 'text'), { nil: null }), {
          minLength: 12,
          maxLength: 12,
        }),
        (columns, raw) => {
          const fields = columns.map((c) => ({ ...c, format: 'text' }));
          const values = raw.slice(0, fields.length);
          const result = new Result();
          result.addFields(fields);
          // node-postgres's own parseRow (pg 8.23 lib/result.js), written out as the reference.
          const parsers = (result as unknown as { _parsers: ((v: unknown) => unknown)[] })._parsers;
          const empty: Record<string, null> = Object.create(null);
          for (const field of fields) empty[field.name] = null;
          const expected: Record<string, unknown> = { ...empty };
          values.forEach((value, i) => {
            expected[(fields[i] as { name: string }).name] =
              value !== null ? (parsers[i] as (v: unknown) => unknown)(value) : null;
          });
          const row = result.parseRow(values);
          expect(row).toEqual(expected);
          expect(Object.keys(row)).toEqual(Object.keys(expected));
          expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("leaves binary columns and a column named __proto__ to node-postgres's parseRow", () => {
    const odd = new Result();
    odd.addFields([
      { name: '__proto__', dataTypeID: 25, format: 'text' },
      { name: 'id', dataTypeID: 23, format: 'text' },
    ]);
    const row = odd.parseRow(['x', '5']);
    expect((row as Record<string, unknown>).id).toBe(5);
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    // An own key, as node-postgres's copy and store make it (a literal would set the prototype).
    expect(Object.keys(row)).toEqual(['__proto__', 'id']);
    expect(Object.getOwnPropertyDescriptor(row, '__proto__')?.value).toBe('x');
    const binary = new Result();
    binary.addFields([{ name: 'b', dataTypeID: 17, format: 'binary' }]);
    const [parser] = (binary as unknown as { _parsers: ((v: unknown) => unknown)[] })._parsers;
    expect(binary.parseRow(['ab'])).toEqual({ b: parser?.(Buffer.from('ab')) });
  });

  it('a second description replaces the first (several statements in one query)', () => {
    const result = new Result('array');
    result.addFields(FIELDS);
    result.addFields([{ name: 'n', dataTypeID: 23 }]);
    expect(result.parseRow(['3'])).toEqual([3]);
  });
});
