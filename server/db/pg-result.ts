import pg from 'pg';
import { objectLiteralText } from './row-builder';

/**
 * node-postgres's answer to a RowDescription, without the part rows in array mode never read.
 *
 * On every statement that answers rows (a named statement's too: the client describes the
 * portal on each execution) `Result.addFields` builds, besides each column's parser, an empty
 * row object with every column's name, for the object rows `parseRow` copies it into. Drizzle
 * reads rows as arrays (`rowMode: 'array'`): that object is never used. For a wide row it is
 * most of the cost: 16–20 µs for the 62 columns of `instances`, made in dictionary mode and then
 * copied (issue 43: `addFields` was the server thread's largest self time under
 * rent-then-stop, about 0.3 ms a pair, more than any of the app's own functions).
 *
 * In array mode this sets the fields and their parsers exactly as `addFields` does, and
 * nothing else; in object mode it also sets the empty row as `addFields` makes it, made once
 * per fields array (below), and object rows are built by `parseRow`'s replacement, one
 * function made per fields array (below). Installed once, when the database
 * client is loaded (server/db/client.ts); checked by pg-result.test.ts against the version
 * installed, so an upgrade that changes `Result` fails a test rather than a query.
 */
type Field = { name: string; dataTypeID: number; format?: 'text' | 'binary' };
type TypeParsers = {
  getTypeParser(oid: number, format: 'text' | 'binary'): (value: unknown) => unknown;
};
interface ResultInternals {
  rowAsArray: boolean;
  fields: Field[];
  _parsers: ((value: unknown) => unknown)[] | undefined;
  _types: TypeParsers | undefined;
  _prebuiltEmptyResultObject: Record<string, null> | null;
  addFields(fields: Field[]): void;
  parseRow(values: unknown[]): Record<string, unknown>;
}

// pg's own Result class (lib/result.js), which its index exports as `Result` (not in @types/pg).
const proto = (pg as unknown as { Result: { prototype: ResultInternals } }).Result.prototype;
const installed = Symbol.for('rentgpu.pg-result.array-fields');

/**
 * Each fields array's empty object row, which object rows are copied from and nothing writes
 * to: a description parsed once (pg-row-description.ts) is the same array each time. Its
 * parsers are not kept: drizzle hands every query a types object of its own, and choosing a
 * parser per column is cheap beside building a 62-key object.
 */
const emptyRowOf = new WeakMap<Field[], Record<string, null>>();

/**
 * Each fields array's object-row builder: one object literal of the columns' names, each value
 * parsed at a call site of its own (row-builder.ts says why: node-postgres's `parseRow` copies
 * the empty row and stores each column by a keyed store, megamorphic for any wide row; 1.5% of
 * the server thread under rent-then-stop, issue 43's eleventh stop). The same object as
 * node-postgres's: its keys in the columns' order, a repeated name once with the last value,
 * null for a null (the literal's text: row-builder.ts objectLiteralText). Null (node-postgres's
 * own `parseRow`) for a binary column or a column named `__proto__`, which a literal would not
 * write as a key.
 */
type Parser = (value: unknown) => unknown;
type ObjectRowBuilder = (values: unknown[], parsers: Parser[]) => Record<string, unknown>;
const objectRowOf = new WeakMap<Field[], ObjectRowBuilder | null>();

function objectRowBuilder(fields: Field[]): ObjectRowBuilder | null {
  if (fields.some((field) => field.format === 'binary' || field.name === '__proto__')) return null;
  const reads = fields.map((_, i) => `const v${i} = values[${i}];`).join('\n');
  const literal = objectLiteralText(
    fields.map((field) => field.name),
    (i) => `v${i} !== null ? parsers[${i}](v${i}) : null`,
  );
  return new Function('values', 'parsers', `${reads}\nreturn ${literal};`) as ObjectRowBuilder;
}

export function installArrayRowFields(): void {
  const marked = proto as unknown as Record<symbol, boolean>;
  if (marked[installed]) return;
  const parseRow = proto.parseRow;
  proto.parseRow = function parseObjectRow(this: ResultInternals, values: unknown[]) {
    const { fields } = this;
    let build = objectRowOf.get(fields);
    if (build === undefined) {
      build = objectRowBuilder(fields);
      objectRowOf.set(fields, build);
    }
    if (build === null || values.length !== fields.length) return parseRow.call(this, values);
    return build(values, this._parsers as Parser[]);
  };
  proto.addFields = function addFields(this: ResultInternals, fields: Field[]) {
    this.fields = fields;
    if (fields.length > 0) {
      const types: TypeParsers = this._types ?? (pg.types as unknown as TypeParsers);
      const parsers = new Array<(value: unknown) => unknown>(fields.length);
      for (let i = 0; i < fields.length; i += 1) {
        const field = fields[i] as Field;
        parsers[i] = types.getTypeParser(field.dataTypeID, field.format || 'text');
      }
      this._parsers = parsers;
    }
    if (this.rowAsArray) return;
    let empty = emptyRowOf.get(fields);
    if (!empty) {
      // As node-postgres makes it: every column named, null, in order.
      const row: Record<string, null> = Object.create(null);
      for (const field of fields) row[field.name] = null;
      empty = { ...row };
      emptyRowOf.set(fields, empty);
    }
    this._prebuiltEmptyResultObject = empty;
  };
  marked[installed] = true;
}
