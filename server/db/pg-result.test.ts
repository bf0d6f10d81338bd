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

  it('a second description replaces the first (several statements in one query)', () => {
    const result = new Result('array');
    result.addFields(FIELDS);
    result.addFields([{ name: 'n', dataTypeID: 23 }]);
    expect(result.parseRow(['3'])).toEqual([3]);
  });
});
