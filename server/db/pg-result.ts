import pg from 'pg';

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
 * nothing else; in object mode it is node-postgres's own. Either is made once per fields array
 * and types (below), since a description is parsed once. Installed once, when the database
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
}

// pg's own Result class (lib/result.js), which its index exports as `Result` (not in @types/pg).
const proto = (pg as unknown as { Result: { prototype: ResultInternals } }).Result.prototype;
const installed = Symbol.for('rentgpu.pg-result.array-fields');

/**
 * What a result made of a fields array, by its types: a description parsed once
 * (pg-row-description.ts) is the same array each time, and its parsers (and, for object rows,
 * the empty row every row is copied from, which nothing writes to) are the same too.
 */
interface Made {
  parsers: ((value: unknown) => unknown)[];
  emptyRow: Record<string, null> | null;
}
const madeOf = new WeakMap<object, WeakMap<Field[], Made>>();

export function installArrayRowFields(): void {
  const marked = proto as unknown as Record<symbol, boolean>;
  if (marked[installed]) return;
  const objectRows = proto.addFields;
  proto.addFields = function addFields(this: ResultInternals, fields: Field[]) {
    if (fields.length === 0) {
      if (this.rowAsArray) this.fields = fields;
      else objectRows.call(this, fields);
      return;
    }
    const types: TypeParsers = this._types ?? (pg.types as unknown as TypeParsers);
    let byFields = madeOf.get(types);
    const known = byFields?.get(fields);
    if (known && (this.rowAsArray || known.emptyRow)) {
      this.fields = fields;
      this._parsers = known.parsers;
      if (!this.rowAsArray) this._prebuiltEmptyResultObject = known.emptyRow;
      return;
    }
    let made: Made;
    if (this.rowAsArray) {
      this.fields = fields;
      const parsers = new Array<(value: unknown) => unknown>(fields.length);
      for (let i = 0; i < fields.length; i += 1) {
        const field = fields[i] as Field;
        parsers[i] = types.getTypeParser(field.dataTypeID, field.format || 'text');
      }
      this._parsers = parsers;
      made = { parsers, emptyRow: null };
    } else {
      objectRows.call(this, fields);
      made = {
        parsers: this._parsers as ((value: unknown) => unknown)[],
        emptyRow: this._prebuiltEmptyResultObject,
      };
    }
    if (!byFields) {
      byFields = new WeakMap();
      madeOf.set(types, byFields);
    }
    byFields.set(fields, made);
  };
  marked[installed] = true;
}
