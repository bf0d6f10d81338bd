import { createRequire } from 'node:module';

/**
 * node-postgres's array parameters written without its regular expressions.
 *
 * Every array sent as a statement's value is written as PostgreSQL's array text by
 * node-postgres (pg 8.23 `utils.prepareValue` → `arrayString`), which quotes each element
 * through two regular-expression replaces (`\` and `"` escaped), even a number's. A launch on
 * a demo listing sends the pool's GPU indexes (up to 256), and rent-then-stop's `perf` profile
 * put `arrayString` at 1.9% of the server thread (issue 43): 25–28 µs for 256 numbers, against
 * 7 µs written here, and 0.22 against 0.09 µs for two uuids (this 2-core machine,
 * 2026-11-30).
 *
 * The text is the same, byte for byte: each element quoted, a string's `\` and `"` escaped
 * (looked for first, replaced only when there), null as `NULL`, an array within as its own
 * braces. An array holding anything else (a Date, a Buffer, an object) is left to
 * node-postgres whole. A frozen array of numbers, strings or booleans cannot change, so its
 * text is kept (a WeakMap: gone with the array): the demo pools' GPU indexes are made once
 * per size (shared/rules/gpu-binding.ts). Every other value goes to node-postgres's own
 * function. Installed once with the database client (server/db/client.ts);
 * pg-array-values.test.ts checks that lib/query.js still maps values through
 * `utils.prepareValue` and that the text matches node-postgres's own for every kind.
 */
interface Utils {
  prepareValue(value: unknown): unknown;
}

const requireFromPg = createRequire(createRequire(import.meta.url).resolve('pg'));
const utils = requireFromPg('./utils.js') as Utils;
const installed = Symbol.for('rentgpu.pg-array-values');
const original = Symbol.for('rentgpu.pg-array-values.original');

/** The text of a flat frozen array already written. */
const frozenTexts = new WeakMap<readonly unknown[], string>();

/**
 * PostgreSQL's array text of `values` as node-postgres writes it, or null when an element is
 * something node-postgres must write itself. `flat`: set false when an element is an array.
 */
function arrayText(values: readonly unknown[], flat: { value: boolean }): string | null {
  let text = '{';
  for (let i = 0; i < values.length; i++) {
    if (i > 0) text += ',';
    const item = values[i];
    if (item === null || item === undefined) text += 'NULL';
    else if (typeof item === 'string') {
      text +=
        item.indexOf('\\') < 0 && item.indexOf('"') < 0
          ? `"${item}"`
          : `"${item.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
    } else if (typeof item === 'number' || typeof item === 'bigint' || typeof item === 'boolean') {
      text += `"${item.toString()}"`;
    } else if (Array.isArray(item)) {
      flat.value = false;
      const inner = arrayText(item, flat);
      if (inner === null) return null;
      text += inner;
    } else return null;
  }
  return `${text}}`;
}

export function installArrayValues(): void {
  const marked = utils as unknown as Record<symbol, unknown>;
  if (marked[installed]) return;
  const prepare = utils.prepareValue;
  marked[original] = prepare;
  utils.prepareValue = function prepareValue(value) {
    if (!Array.isArray(value)) return prepare(value);
    const frozen = Object.isFrozen(value);
    if (frozen) {
      const kept = frozenTexts.get(value);
      if (kept !== undefined) return kept;
    }
    const flat = { value: true };
    const text = arrayText(value, flat);
    if (text === null) return prepare(value);
    if (frozen && flat.value) frozenTexts.set(value, text);
    return text;
  };
  marked[installed] = true;
}

/** node-postgres's utils module, and its own `prepareValue` (for the test). */
export const pgArrayUtils = utils;
export const nodePostgresPrepareValue = (): Utils['prepareValue'] =>
  ((utils as unknown as Record<symbol, unknown>)[original] as Utils['prepareValue'] | undefined) ??
  utils.prepareValue;
