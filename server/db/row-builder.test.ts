import { getTableColumns } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rowBuilder } from './row-builder';
import { instances } from './schema';

const upper = { mapFromDriverValue: (value: unknown) => String(value).toUpperCase() };
const same = { mapFromDriverValue: (value: unknown) => value };

describe('row objects built by a function made once per shape (row-builder.ts)', () => {
  it('reads array rows by index and object rows by name, null as null', () => {
    const byIndex = rowBuilder([
      { key: 'a', from: 1, decoder: upper },
      { key: 'b', from: 0, decoder: same },
    ]);
    expect(byIndex(['x', 'y'])).toEqual({ a: 'Y', b: 'x' });
    expect(byIndex([null, null])).toEqual({ a: null, b: null });
    expect(Object.keys(byIndex([1, 2]))).toEqual(['a', 'b']);
    const byName = rowBuilder([{ key: 'when', from: 'created_at', decoder: upper }]);
    expect(byName({ created_at: 'now', other: 1 })).toEqual({ when: 'NOW' });
  });

  it('throws for a row without a named value, when asked to', () => {
    const checked = rowBuilder(
      [{ key: 'a', from: 'a', decoder: same }],
      (name) => new Error(`row without ${name}`),
    );
    expect(() => checked({})).toThrow('row without a');
    expect(checked({ a: undefined })).toEqual({ a: undefined });
    expect(rowBuilder([{ key: 'a', from: 'a', decoder: same }])({})).toEqual({ a: undefined });
  });

  it('never turns a name into code', () => {
    const names = ['"]; throw new Error("x"); //', "it's", 'line\nbreak', 'ü\u2028', '0', ''];
    const build = rowBuilder(
      names.map((name, i) => ({ key: name, from: name, decoder: i % 2 ? upper : same })),
      (name) => new Error(`row without ${name}`),
    );
    const row = Object.fromEntries(names.map((name) => [name, `v ${name}`]));
    expect(build(row)).toEqual(
      Object.fromEntries(
        names.map((name, i) => [name, i % 2 ? `v ${name}`.toUpperCase() : `v ${name}`]),
      ),
    );
    expect(() => rowBuilder([{ key: '__proto__', from: 0, decoder: same }])).toThrow();
  });

  it("maps an instance row as drizzle's own columns do", () => {
    const columns = Object.entries(getTableColumns(instances));
    const row: Record<string, unknown> = {};
    for (const [, column] of columns) {
      row[column.name] =
        column.dataType === 'date'
          ? '2026-11-30 12:00:00.5+00'
          : column.dataType === 'bigint'
            ? '12'
            : column.dataType === 'number'
              ? 3
              : column.notNull
                ? 'x'
                : null;
    }
    const build = rowBuilder(
      columns.map(([key, column]) => ({ key, from: column.name, decoder: column })),
    );
    const expected: Record<string, unknown> = {};
    for (const [key, column] of columns) {
      const value = row[column.name];
      expected[key] = value === null ? null : column.mapFromDriverValue(value);
    }
    expect(build(row)).toEqual(expected);
  });
});
