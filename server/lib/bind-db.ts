import type { Db } from '../db/client';

/** The named functions of a service object whose first parameter is a database handle, bound to one. */
export type BoundToDb<S, K extends keyof S> = {
  [P in K]: S[P] extends (conn: never, ...args: infer A) => infer R ? (...args: A) => R : never;
};

/**
 * A module's service functions that take the database first (they also run inside other
 * services' transactions), with the database bound: what the composition root (deps.ts) hands
 * to routes, which never hold a database handle.
 */
export function bindDb<S extends object, K extends keyof S>(
  db: Db,
  service: S,
  names: readonly K[],
): BoundToDb<S, K> {
  const bound: Partial<Record<K, unknown>> = {};
  for (const name of names) {
    const fn = service[name];
    if (typeof fn !== 'function') throw new Error(`${String(name)} is not a function`);
    bound[name] = (...args: unknown[]) => fn.call(service, db, ...args);
  }
  return bound as BoundToDb<S, K>;
}
