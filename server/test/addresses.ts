/**
 * Client addresses 10.<block>.x.y, a new one each call: each test gets its own, so per-IP
 * limits do not leak between tests (a file's own block keeps it apart from other files).
 */
export function clientAddresses(block: number): () => string {
  let counter = 0;
  return () => `10.${block}.${Math.floor(++counter / 250)}.${counter % 250}`;
}

/** An e-mail address no other test uses: `name` and a random suffix. */
export const uniqueEmail = (name: string) =>
  `${name}-${Math.random().toString(36).slice(2, 8)}@example.test`;
