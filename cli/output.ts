/** A column of a table: its header and how to read it from a row. */
export type Column<T> = [header: string, read: (row: T) => unknown];

/** Plain aligned columns, for a terminal. */
export function table<T>(rows: readonly T[], columns: readonly Column<T>[]): string {
  const cells = rows.map((row) => columns.map(([, read]) => text(read(row))));
  const widths = columns.map(([header], i) =>
    Math.max(header.length, ...cells.map((line) => line[i]?.length ?? 0)),
  );
  const line = (values: string[]) =>
    values
      .map((value, i) => value.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(columns.map(([header]) => header.toUpperCase())), ...cells.map(line)].join('\n');
}

/** A record as "Key  value" lines, for one object on a terminal. */
export function fields(pairs: readonly [string, unknown][]): string {
  const width = Math.max(...pairs.map(([name]) => name.length));
  return pairs.map(([name, value]) => `${name.padEnd(width)}  ${text(value)}`).join('\n');
}

/** One value as a cell: '-' for none, lists joined, control characters made visible. */
export function text(value: unknown): string {
  if (value === null || value === undefined) return '-';
  if (Array.isArray(value)) return value.join(',');
  return visible(String(value));
}

/**
 * Control characters as visible escapes: a value from a provider's host (a user name, a host)
 * must not move the cursor or rewrite what the terminal already shows.
 */
function visible(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are the point.
  return value.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) =>
    c === '\n' ? '\\n' : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`,
  );
}
