/**
 * A unique index refused a write (SQLSTATE 23505), naming this constraint. Looks through
 * `cause` chains: drivers and Drizzle wrap the database's error.
 */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  return violates(error, '23505', constraint);
}

/** A CHECK constraint refused a write (SQLSTATE 23514), naming this constraint. */
export function isCheckViolation(error: unknown, constraint: string): boolean {
  return violates(error, '23514', constraint);
}

function violates(error: unknown, code: string, constraint: string): boolean {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current && typeof current === 'object' && !seen.has(current)) {
    seen.add(current);
    const e = current as {
      code?: unknown;
      constraint?: unknown;
      message?: unknown;
      cause?: unknown;
    };
    if (e.code === code && (e.constraint === constraint || String(e.message).includes(constraint)))
      return true;
    current = e.cause;
  }
  return false;
}
