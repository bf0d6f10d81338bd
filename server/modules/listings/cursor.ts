/** Keyset cursors: the last row's sort value and id, as opaque base64url text. */
export function encodeCursor(position: { value: string; id: number }): string {
  return Buffer.from(JSON.stringify([position.value, position.id])).toString('base64url');
}

export function decodeCursor(cursor: string): { value: string; id: number } | null {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Array.isArray(parsed) || parsed.length !== 2) return null;
    const [value, id] = parsed as [unknown, unknown];
    if (typeof value !== 'string' || !/^-?\d+$/.test(value)) return null;
    if (typeof id !== 'number' || !Number.isInteger(id) || id < 0) return null;
    return { value, id };
  } catch {
    return null;
  }
}
