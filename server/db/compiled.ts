import { Column, is, SQL, Subquery, sql } from 'drizzle-orm';
import type { Conn } from './client';
import { type Decoder, rowBuilder } from './row-builder';

/** What drizzle's prepare() leaves on a prepared query (the same on node-postgres and PGlite). */
interface Prepared {
  queryString: string;
  params: unknown[];
  fields?: unknown;
  joinsNotNullableMap?: unknown;
  _isResponseInArrayMode: boolean;
  customResultMapper?: unknown;
}

interface Session {
  prepareQuery(
    query: { sql: string; params: unknown[] },
    fields: unknown,
    name: string | undefined,
    isResponseInArrayMode: boolean,
    customResultMapper?: unknown,
  ): { joinsNotNullableMap?: unknown; execute(values: Record<string, unknown>): Promise<unknown> };
}

interface Preparable<R> {
  prepare(name: string): { execute(values?: Record<string, unknown>): Promise<R> };
}

/** A column of a drizzle selection: where its value goes in the row object, and what it is. */
export interface SelectedField {
  path: string[];
  field: unknown;
}

/** The decoder drizzle's mapResultRow (drizzle-orm/utils.js) reads a field's value with. */
function decoderOf(field: unknown): Decoder {
  if (is(field, Column)) return field as unknown as Decoder;
  if (is(field, SQL)) return (field as unknown as { decoder: Decoder }).decoder;
  if (is(field, Subquery))
    return (field as unknown as { _: { sql: { decoder: Decoder } } })._.sql.decoder;
  return (field as { sql: { decoder: Decoder } }).sql.decoder;
}

/**
 * Array rows to the objects drizzle's mapResultRow makes of them, with each column's decoder
 * and place found once per statement rather than once per column of every row (drizzle walks
 * each column's path with an iterator and asks what the field is each time). A row of the 62
 * columns of `instances`: 13.6–18.1 µs with drizzle's, 8.5–13.4 with this over four rounds on a
 * slow hour (`BENCH_ONLY=db-client npm run bench`, 2026-11-30, issue 43; the architecture doc
 * gives the same), most of it the decoders themselves. Null, leaving the mapping to drizzle,
 * for a statement with a left join, whose missing side drizzle turns into null.
 *
 * Its dates were tried read field by field instead of by `new Date` (issue 43's eleventh
 * stop): `new Date` of PostgreSQL's text costs 0.23 µs here, the hand-written reader 0.18, and
 * a decoder that is not a column made this function's call site slower than both gained (a
 * row 6.9 → 10.7 µs); not kept.
 */
export function rowMapperOf(
  fields: SelectedField[],
  joinsNotNullableMap: Record<string, boolean> | undefined,
): ((rows: unknown[][]) => unknown[]) | null {
  if (joinsNotNullableMap && Object.values(joinsNotNullableMap).some((notNull) => !notNull))
    return null;
  const decoders = fields.map((f) => decoderOf(f.field));
  const paths = fields.map((f) => f.path);
  const count = fields.length;
  if (paths.every((path) => path.length === 1)) {
    const build = rowBuilder(
      paths.map((path, i) => ({
        key: path[0] as string,
        from: i,
        decoder: decoders[i] as Decoder,
      })),
    );
    return (rows) => rows.map(build);
  }
  return (rows) =>
    rows.map((row) => {
      const result: Record<string, unknown> = {};
      for (let i = 0; i < count; i += 1) {
        const path = paths[i] as string[];
        let node = result;
        for (let depth = 0; depth < path.length - 1; depth += 1) {
          const chunk = path[depth] as string;
          if (!(chunk in node)) node[chunk] = {};
          node = node[chunk] as Record<string, unknown>;
        }
        const raw = row[i];
        node[path[path.length - 1] as string] =
          raw === null ? null : (decoders[i] as Decoder).mapFromDriverValue(raw);
      }
      return result;
    });
}

/**
 * A hot statement whose SQL is built once: drizzle's query builder costs about a third of a
 * millisecond for a wide table, on every call, and the statement runs many times a second
 * (instances by id, sessions, balances, heartbeats). `build` makes the query with
 * `sql.placeholder(...)` for every value; each call runs the same text on the caller's
 * connection or transaction with the values given, rows mapped as drizzle maps them
 * (rowMapperOf).
 *
 * The statement is named, so PostgreSQL parses and plans it once per connection (on PGlite
 * the name is ignored). Use it only for statements whose text never varies; a placeholder
 * value is sent as it is (no column encoding), so pass dates as ISO strings and JSON as text.
 */
export function compiled<V extends Record<string, unknown>, R>(
  name: string,
  build: (conn: Conn) => Preparable<R>,
): (conn: Conn, values: V) => Promise<R> {
  let built: Prepared | undefined;
  let mapper: ((rows: unknown[][]) => unknown[]) | null = null;
  return (conn, values) => {
    if (!built) {
      built = build(conn).prepare(name) as unknown as Prepared;
      if (built.fields && !built.customResultMapper)
        mapper = rowMapperOf(
          built.fields as SelectedField[],
          built.joinsNotNullableMap as Record<string, boolean> | undefined,
        );
    }
    const session = (conn as unknown as { session: Session }).session;
    const query = session.prepareQuery(
      { sql: built.queryString, params: built.params },
      built.fields,
      name,
      built._isResponseInArrayMode,
      mapper ?? built.customResultMapper,
    );
    query.joinsNotNullableMap = built.joinsNotNullableMap;
    return query.execute(values) as Promise<R>;
  };
}

/**
 * A hot statement written in SQL, its text fixed: named, so PostgreSQL parses and plans it
 * once per connection (PGlite ignores the name). Runs on the caller's connection or
 * transaction with positional parameters ($1, $2, …) and answers the rows as PostgreSQL
 * sends them (bigint columns are best cast to text).
 */
export function compiledSql<R>(
  name: string,
  text: string,
): (conn: Conn, params: unknown[]) => Promise<R[]> {
  return (conn, params) => runSql<R>(conn, text, params, name);
}

/**
 * A statement written in SQL, run on the caller's connection or transaction with positional
 * parameters; rows as PostgreSQL sends them. Named: parsed and planned once per connection
 * (PGlite ignores the name). Unnamed: planned for the values given, every time.
 */
export async function runSql<R>(
  conn: Conn,
  text: string,
  params: unknown[],
  name?: string,
): Promise<R[]> {
  const session = (conn as unknown as { session: Session }).session;
  const result = (await session
    .prepareQuery({ sql: text, params }, undefined, name, false)
    .execute({})) as { rows: R[] };
  return result.rows;
}

/**
 * A statement whose columns depend on the call (an insert or an update with some fields
 * set), compiled once per *shape*: which columns get a value, which are set to null, and the
 * caller's `context` (e.g. the states an update may start from), keyed by `contextKey`.
 * A few shapes cover every code path, each its own named statement, without a hand-kept
 * list. `build` receives `set`: a placeholder per valued column (named as the column key)
 * and null for each null one. Returns null, running nothing, when a value is SQL: such a
 * call is built by the caller as it comes. `extra` fills placeholders `build` adds itself.
 */
export function compiledByShape<R, C = undefined>(
  prefix: string,
  build: (conn: Conn, set: Record<string, unknown>, context: C) => Preparable<R>,
  contextKey: (context: C) => string = () => '',
): (
  conn: Conn,
  values: Record<string, unknown>,
  context: C,
  extra?: Record<string, unknown>,
) => Promise<R> | null {
  type Run = (conn: Conn, values: Record<string, unknown>) => Promise<R>;
  /** By the shape's columns in key order: one statement a shape. */
  const runs = new Map<string, Run>();
  /**
   * By the columns in the order the caller wrote them (a call site writes its keys in one
   * order): found without sorting the keys or making the placeholders again on every call
   * (issue 43's eleventh stop: those, with their keyed stores, were about 1% of the server
   * thread under rent-then-stop).
   */
  const asWritten = new Map<string, Run>();
  return (conn, values, context, extra) => {
    let written = contextKey(context);
    for (const key of Object.keys(values)) {
      const value = values[key];
      if (value === undefined) continue;
      if (value !== null && typeof value === 'object' && is(value, SQL)) return null;
      written += value === null ? `|${key}=null` : `|${key}`;
    }
    let run = asWritten.get(written);
    if (!run) {
      const set: Record<string, unknown> = {};
      const shape: string[] = [contextKey(context)];
      for (const key of Object.keys(values).sort()) {
        const value = values[key];
        if (value === undefined) continue;
        set[key] = value === null ? null : sql.placeholder(key);
        shape.push(value === null ? `${key}=null` : key);
      }
      const key = shape.join('|');
      run = runs.get(key);
      if (!run) {
        run = compiled(`${prefix}_${runs.size}`, (c) => build(c, set, context));
        runs.set(key, run);
      }
      asWritten.set(written, run);
    }
    return run(conn, extra ? { ...values, ...extra } : values);
  };
}

const rowsAsSent = (rows: unknown[][]) => rows;

/**
 * runSql with each row an array of its columns in the statement's order (no object per row:
 * for statements that answer many rows).
 */
export async function runSqlArrays<R extends unknown[]>(
  conn: Conn,
  text: string,
  params: unknown[],
  name?: string,
): Promise<R[]> {
  const session = (conn as unknown as { session: Session }).session;
  return (await session
    .prepareQuery({ sql: text, params }, undefined, name, true, rowsAsSent)
    .execute({})) as R[];
}
