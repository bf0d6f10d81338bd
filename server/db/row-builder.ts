/**
 * Row objects of one fixed shape, built by a function made once per shape.
 *
 * A row of `instances` has 62 columns. Built by a loop (`object[keys[i]] = value`), every
 * store is a keyed store whose inline cache sees 62 names and gives up (megamorphic): V8 looks
 * each one up in its stub cache, and each value's decoder is called from one call site that
 * sees every column's class. Rent-then-stop's `perf` profile put such loops (compiled.ts's row
 * mapping, `instanceFromRow`) at about 2–3% of the server thread in megamorphic stores
 * alone (issue 43's eleventh stop).
 *
 * The function made here writes the object as one literal of fixed keys, each value read and
 * decoded at a call site of its own: every store is known, every decoder call sees one class.
 * The keys and what is read are given as data and written into the function's text only as
 * JSON strings and numbers (`JSON.stringify`), so no name can become code.
 */
export interface Decoder {
  mapFromDriverValue(value: unknown): unknown;
}

/** A column of the object: its key, and where its value is read from (an array index or a name). */
export interface BuiltColumn {
  key: string;
  from: number | string;
  decoder: Decoder;
}

/**
 * A function from a row (an array, or an object of named values) to an object of `columns`'
 * keys in their order, each value null when the row's is, else its decoder's value. With
 * `missing`, a row without one of the named values throws `missing(name)`.
 */
export function rowBuilder(
  columns: readonly BuiltColumn[],
  missing?: (name: string) => Error,
): (row: unknown) => Record<string, unknown> {
  const read = (column: BuiltColumn) =>
    `row[${typeof column.from === 'number' ? column.from : JSON.stringify(column.from)}]`;
  const checks = missing
    ? columns
        .filter((column) => typeof column.from === 'string')
        .map(
          (column) =>
            `if (!(${JSON.stringify(column.from)} in row)) throw missing(${JSON.stringify(column.from)});`,
        )
        .join('\n')
    : '';
  const values = columns.map((column, i) => {
    const value = `v${i}`;
    return `const ${value} = ${read(column)};`;
  });
  const literal = objectLiteralText(
    columns.map((column) => column.key),
    (i) => `v${i} === null ? null : d${i}.mapFromDriverValue(v${i})`,
  );
  const decoders = columns.map((_, i) => `const d${i} = decoders[${i}];`).join('\n');
  const body = `${decoders}
return function builtRow(row) {
${checks}
${values.join('\n')}
return ${literal};
};`;
  const make = new Function('decoders', 'missing', body) as (
    decoders: Decoder[],
    missing: ((name: string) => Error) | undefined,
  ) => (row: unknown) => Record<string, unknown>;
  return make(
    columns.map((column) => column.decoder),
    missing,
  );
}

/**
 * The text of an object literal with `keys` in their order, each value the expression
 * `valueAt(index)`: what rowBuilder and node-postgres's object rows (pg-result.ts) return. Keys
 * are written only as JSON strings. `__proto__` is refused: a literal would take it as the
 * object's prototype, not as a key.
 */
export function objectLiteralText(keys: readonly string[], valueAt: (index: number) => string) {
  for (const key of keys)
    if (key === '__proto__') throw new Error('a row cannot have a __proto__ key');
  return `{\n${keys.map((key, i) => `${JSON.stringify(key)}: ${valueAt(i)}`).join(',\n')}\n}`;
}
