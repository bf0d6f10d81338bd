/** Keyset cursors: the last row's sort value and id, as opaque base64url text. */
export function encodeCursor(position: { value: string; id: number }): string {
  return Buffer.from(JSON.stringify([position.value, position.id])).toString('base64url');
}

const INT64_MAX = 2n ** 63n - 1n;

export function decodeCursor(cursor: string): { value: string; id: number } | null {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Array.isArray(parsed) || parsed.length !== 2) return null;
    const [value, id] = parsed as [unknown, unknown];
    // A sort value the database compares as bigint (and negates), an id it compares as one.
    if (typeof value !== 'string' || !/^-?\d{1,19}$/.test(value)) return null;
    if (BigInt(value) > INT64_MAX || BigInt(value) < -INT64_MAX) return null;
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 0) return null;
    return { value, id };
  } catch {
    return null;
  }
}
