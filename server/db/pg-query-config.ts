import { createRequire } from 'node:module';

/**
 * node-postgres's copy of a query's config, made the cheap way for a plain object.
 *
 * Every `Query` copies the config it is given before adding the values (pg 8.23
 * `utils.normalizeQueryConfig`), so that the caller's object is never changed. It copies
 * through `Object.getOwnPropertyDescriptors` and `Object.defineProperties` onto a new object
 * of the same prototype, which V8 does slowly: about 3 µs for drizzle's four-key config
 * (`name`, `text`, `rowMode`, `types`) against 25 ns for a spread, on this 2-core machine
 * (2026-11-30). Under rent-then-stop that copy was 3.3% of the server thread (`BENCH_PROFILE`,
 * issue 43), more than any of the app's own functions, and every statement of every request
 * pays it.
 *
 * A config whose prototype is `Object.prototype` (an object literal: drizzle's, the app's)
 * is copied into an object of one fixed shape holding the keys a query reads of it (`text`,
 * `values`, `rows`, `types`, `name`, `queryMode`, `binary`, `portal`, `callback`, `rowMode`:
 * all that lib/query.js and lib/native/query.js read; no other key of the copy is read);
 * anything else (a class instance, an object of another prototype) is copied as
 * node-postgres copies it. What follows (the values, the callback) is node-postgres's own
 * code.
 *
 * The shape is fixed on purpose. A spread copy took its source's map, and adding the values
 * to it then made a new map for every query, so each of the `Query` constructor's reads of
 * the copy missed V8's inline caches: `new Query` cost 2.1 µs, 0.6 of it the copy, and
 * rent-then-stop's `perf` profile put the constructor at 3.1% of the server thread (issue 43's
 * eleventh stop). With one shape `new Query` costs 0.24 µs against 2.23 (`BENCH_ONLY=db-client
 * npm run bench`, 2026-11-30). Installed once with the
 * database client (server/db/client.ts); pg-query-config.test.ts checks that node-postgres
 * still calls the function replaced, so an upgrade that moves it fails a test.
 */
type Config = { text?: string; values?: unknown; callback?: unknown } & Record<string, unknown>;
interface Utils {
  normalizeQueryConfig(config: unknown, values?: unknown, callback?: unknown): Config;
}

// pg's own utils module, which lib/query.js reads `normalizeQueryConfig` from on every query.
const requireFromPg = createRequire(createRequire(import.meta.url).resolve('pg'));
const utils = requireFromPg('./utils.js') as Utils;
const installed = Symbol.for('rentgpu.pg-query-config.copy');

export function installQueryConfigCopy(): void {
  const marked = utils as unknown as Record<symbol, boolean>;
  if (marked[installed]) return;
  const normalize = utils.normalizeQueryConfig;
  utils.normalizeQueryConfig = function normalizeQueryConfig(config, values, callback) {
    if (
      config === null ||
      typeof config !== 'object' ||
      Object.getPrototypeOf(config) !== Object.prototype
    )
      return normalize(config, values, callback);
    const c = config as Config;
    const copy: Config = {
      text: c.text,
      values: c.values,
      rows: c.rows,
      types: c.types,
      name: c.name,
      queryMode: c.queryMode,
      binary: c.binary,
      portal: c.portal,
      callback: c.callback,
      rowMode: c.rowMode,
    };
    if (values) {
      if (typeof values === 'function') copy.callback = values;
      else copy.values = values;
    }
    if (callback) copy.callback = callback;
    return copy;
  };
  marked[installed] = true;
}

/** node-postgres's utils module (for the test). */
export const pgUtils = utils;
