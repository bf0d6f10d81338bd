import fc from 'fast-check';

/**
 * fast-check arbitraries from JSON Schema (2020-12, as in the public API's OpenAPI 3.1
 * document), for the fuzz run of server/modules/public-api/fuzz.test.ts. The subset the
 * document uses: `$ref` into the document, object (properties, required,
 * additionalProperties, propertyNames), string (minLength, maxLength, pattern, format,
 * enum, const), integer and number (minimum, maximum, exclusive bounds), boolean, null,
 * array (items, minItems, maxItems), anyOf/oneOf/allOf and type arrays (nullable).
 *
 * `validArbitrary` aims inside the schema, `invalidArbitrary` outside it; neither is trusted
 * as a label: the fuzz test classifies every generated request with a JSON Schema validator.
 */

export type Schema = { [keyword: string]: unknown } | boolean;
type SchemaObject = { [keyword: string]: unknown };

export interface ArbitraryOptions {
  /** The document the schemas' `$ref`s (`#/components/schemas/…`) point into. */
  root: unknown;
  /**
   * Values of existing resources (ids) this schema accepts, mixed into integers and strings so
   * requests hit real rows, not only random ids.
   */
  known?: (schema: SchemaObject, name?: string) => readonly unknown[];
  /** Values by property name that no generator would guess (an SSH public key). */
  examples?: Readonly<Record<string, readonly unknown[]>>;
}

const MAX_DEPTH = 6;
const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

/** Characters that break naive code: NUL, lone surrogates, bidi overrides, BOM, separators. */
const WEIRD_UNITS = [
  '\u0000',
  '\ud800',
  '\udfff',
  '\u202e',
  '\ufeff',
  '\u200b',
  '\u2028',
  '\uffff',
  'e\u0301',
  '💥',
  '𝕏',
  'İ',
  'ß',
  '\n',
  '\r',
  '\t',
  '"',
  "'",
  '\\',
  '%',
  '/',
  '?',
  '#',
  '&',
  '=',
  '+',
  '..',
  '<script>',
  "' or 1=1 --",
  '$' + '{x}',
] as const;

/** Strings of odd characters, mixed with plain ASCII. */
export const weirdString: fc.Arbitrary<string> = fc.string({
  unit: fc.oneof(fc.constantFrom(...WEIRD_UNITS), fc.string({ minLength: 1, maxLength: 1 })),
  minLength: 1,
  maxLength: 24,
});

/** Any JSON value of odd types, for a value of the wrong type. */
const oddJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1.5, 1e308, -1e308, '', '0', 'true', 'null', [], {}),
  weirdString,
  fc.jsonValue({ maxDepth: 2 }),
);

function isObject(value: unknown): value is SchemaObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Follows `$ref` (a JSON pointer into the root document) until a schema without one. */
export function deref(schema: Schema, root: unknown): SchemaObject {
  if (schema === true) return {};
  if (schema === false) return { not: {} };
  let current: SchemaObject = schema;
  for (let hops = 0; typeof current.$ref === 'string'; hops++) {
    if (hops > 20) throw new Error(`$ref cycle at ${current.$ref}`);
    const ref = current.$ref;
    if (!ref.startsWith('#')) throw new Error(`only local $ref is supported: ${ref}`);
    let target: unknown = root;
    for (const raw of ref.slice(1).split('/').filter(Boolean)) {
      const part = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
      target =
        isObject(target) || Array.isArray(target) ? (target as SchemaObject)[part] : undefined;
    }
    if (!isObject(target) && typeof target !== 'boolean') throw new Error(`unresolved ${ref}`);
    const { $ref: _, ...siblings } = current;
    const resolved = deref(target as Schema, root);
    current = { ...resolved, ...siblings };
  }
  return current;
}

function typesOf(schema: SchemaObject): string[] {
  if (Array.isArray(schema.type)) return schema.type as string[];
  if (typeof schema.type === 'string') return [schema.type];
  if (schema.properties || schema.additionalProperties !== undefined) return ['object'];
  if (schema.items) return ['array'];
  return [];
}

const num = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

/** The integer bounds of a schema, exclusive bounds made inclusive. */
function integerBounds(schema: SchemaObject): { min: number; max: number } {
  let min = num(schema.minimum) ?? Number.MIN_SAFE_INTEGER;
  let max = num(schema.maximum) ?? Number.MAX_SAFE_INTEGER;
  const exMin = num(schema.exclusiveMinimum);
  const exMax = num(schema.exclusiveMaximum);
  if (exMin !== undefined) min = Math.max(min, Math.floor(exMin) + 1);
  if (exMax !== undefined) max = Math.min(max, Math.ceil(exMax) - 1);
  return { min: Math.ceil(min), max: Math.floor(max) };
}

function integerArbitrary(schema: SchemaObject): fc.Arbitrary<number> {
  const { min, max } = integerBounds(schema);
  const lo = Math.max(min, INT32_MIN);
  const hi = Math.min(max, INT32_MAX);
  const parts: fc.WeightedArbitrary<number>[] = [
    { weight: 3, arbitrary: fc.constantFrom(min, max) },
    // Small values near the lower bound: ids and counts live there.
    { weight: 5, arbitrary: fc.integer({ min: lo, max: Math.min(hi, Math.max(lo, 0) + 1000) }) },
    { weight: 2, arbitrary: fc.integer({ min: lo, max: hi }) },
  ];
  return fc.oneof(...parts.filter((p) => lo <= hi || p.weight === 3));
}

function numberArbitrary(schema: SchemaObject): fc.Arbitrary<number> {
  const min = num(schema.minimum) ?? num(schema.exclusiveMinimum) ?? -1e9;
  const max = num(schema.maximum) ?? num(schema.exclusiveMaximum) ?? 1e9;
  return fc
    .oneof(integerArbitrary(schema), fc.double({ min, max, noNaN: true, noDefaultInfinity: true }))
    .filter(
      (n) =>
        (num(schema.exclusiveMinimum) === undefined || n > (num(schema.exclusiveMinimum) ?? 0)) &&
        (num(schema.exclusiveMaximum) === undefined || n < (num(schema.exclusiveMaximum) ?? 0)),
    );
}

function formatArbitrary(format: string): fc.Arbitrary<string> | null {
  switch (format) {
    case 'uuid':
      return fc.uuid();
    case 'date-time':
      return fc
        .date({ min: new Date(0), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true })
        .map((d) => d.toISOString());
    case 'date':
      return fc
        .date({ min: new Date(0), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10));
    case 'email':
      return fc.emailAddress();
    case 'uri':
    case 'url':
      return fc.webUrl();
    default:
      return null;
  }
}

function stringArbitrary(schema: SchemaObject): fc.Arbitrary<string> {
  const min = num(schema.minLength) ?? 0;
  const max = num(schema.maxLength) ?? min + 64;
  const fits = (s: string) => {
    const length = [...s].length;
    return length >= min && length <= max;
  };
  if (typeof schema.pattern === 'string') {
    return fc.stringMatching(new RegExp(schema.pattern, 'u'), { size: 'small' }).filter(fits);
  }
  const byFormat = typeof schema.format === 'string' ? formatArbitrary(schema.format) : null;
  if (byFormat) return byFormat.filter(fits);
  const upTo = Math.min(max, min + 40);
  const parts: fc.WeightedArbitrary<string>[] = [
    { weight: 6, arbitrary: fc.string({ minLength: min, maxLength: upTo }) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', minLength: min, maxLength: upTo }) },
    {
      weight: 1,
      arbitrary: fc.string({
        unit: fc.constantFrom(...WEIRD_UNITS.filter((u) => [...u].length === 1)),
        minLength: min,
        maxLength: upTo,
      }),
    },
  ];
  // The boundary: exactly as long as allowed.
  if (max <= 20_000) {
    parts.push({
      weight: 1,
      arbitrary: fc.string({ unit: 'binary-ascii', minLength: max, maxLength: max }),
    });
  }
  return fc.oneof(...parts);
}

/** Values inside the schema (best effort for `pattern` with lengths and for `oneOf`). */
export function validArbitrary(
  input: Schema,
  options: ArbitraryOptions,
  depth = 0,
  /** The property or parameter the value is for, to pick known values and examples by. */
  name?: string,
): fc.Arbitrary<unknown> {
  const schema = deref(input, options.root);
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const branches = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (Array.isArray(branches)) {
    return fc.oneof(...branches.map((b) => validArbitrary(b, options, depth + 1)));
  }
  if (Array.isArray(schema.allOf)) {
    const merged = Object.assign(
      {},
      ...(schema.allOf as Schema[]).map((s) => deref(s, options.root)),
    ) as SchemaObject;
    return validArbitrary(merged, options, depth + 1);
  }
  const types = typesOf(schema);
  if (types.length === 0) return fc.jsonValue({ maxDepth: 2 });
  if (types.length > 1) {
    return fc.oneof(...types.map((type) => validArbitrary({ ...schema, type }, options, depth)));
  }
  const base = typedArbitrary(types[0] ?? 'null', schema, options, depth);
  const known = (types[0] === 'integer' || types[0] === 'string') && options.known?.(schema, name);
  if (known && known.length > 0) {
    return fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...known) },
      { weight: 2, arbitrary: base },
    );
  }
  return base;
}

function typedArbitrary(
  type: string,
  schema: SchemaObject,
  options: ArbitraryOptions,
  depth: number,
): fc.Arbitrary<unknown> {
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return integerArbitrary(schema);
    case 'number':
      return numberArbitrary(schema);
    case 'string':
      return stringArbitrary(schema);
    case 'array': {
      const minLength = num(schema.minItems) ?? 0;
      const maxLength = Math.min(num(schema.maxItems) ?? minLength + 4, minLength + 4);
      const items = (schema.items ?? true) as Schema;
      const item =
        depth >= MAX_DEPTH ? fc.constant(null) : validArbitrary(items, options, depth + 1);
      return schema.uniqueItems
        ? fc.uniqueArray(item, { minLength, maxLength, selector: (v) => JSON.stringify(v) })
        : fc.array(item, { minLength, maxLength });
    }
    case 'object':
      return objectArbitrary(schema, options, depth);
    default:
      throw new Error(`unsupported JSON Schema type ${type}`);
  }
}

function objectArbitrary(
  schema: SchemaObject,
  options: ArbitraryOptions,
  depth: number,
): fc.Arbitrary<Record<string, unknown>> {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set((schema.required ?? []) as string[]);
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, propertySchema] of Object.entries(properties)) {
    const generated =
      depth >= MAX_DEPTH
        ? fc.constant(null)
        : validArbitrary(propertySchema, options, depth + 1, name);
    const examples = options.examples?.[name];
    model[name] =
      examples && examples.length > 0
        ? fc.oneof(
            { weight: 3, arbitrary: fc.constantFrom(...examples) },
            { weight: 1, arbitrary: generated },
          )
        : generated;
  }
  const fixed = fc.record(model, { requiredKeys: [...required].filter((k) => k in model) });
  const additional = schema.additionalProperties;
  if (additional === false) return fixed;
  // A map (z.record) or an open object: a few more keys, valid by additionalProperties.
  const extraValue =
    isObject(additional) && Object.keys(additional).length > 0 && depth < MAX_DEPTH
      ? validArbitrary(additional as Schema, options, depth + 1)
      : fc.jsonValue({ maxDepth: 1 });
  const isMap = Object.keys(properties).length === 0;
  const extra = fc.dictionary(
    fc.string({ minLength: 1, maxLength: 12 }).filter((k) => !(k in properties)),
    extraValue,
    { maxKeys: isMap ? 3 : 2 },
  );
  return fc
    .tuple(
      fixed,
      fc.oneof(
        { weight: isMap ? 1 : 4, arbitrary: fc.constant({}) },
        { weight: 1, arbitrary: extra },
      ),
    )
    .map(([known, more]) => ({ ...more, ...known }));
}

/** Values outside the schema: wrong types, out of range, too long, missing or unknown fields. */
export function invalidArbitrary(
  input: Schema,
  options: ArbitraryOptions,
  depth = 0,
): fc.Arbitrary<unknown> {
  const schema = deref(input, options.root);
  const parts: fc.Arbitrary<unknown>[] = [oddJson];
  if ('const' in schema || Array.isArray(schema.enum)) parts.push(weirdString, fc.string());
  const types = typesOf(schema);
  const branches = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (Array.isArray(branches)) {
    parts.push(...branches.map((b) => invalidArbitrary(b, options, depth + 1)));
  }
  for (const type of types) {
    const typed: SchemaObject = { ...schema, type };
    switch (type) {
      case 'integer':
      case 'number': {
        const { min, max } = integerBounds(typed);
        const out: number[] = [1e21, -1e21, 2 ** 53, Number.MAX_VALUE];
        if (min > Number.MIN_SAFE_INTEGER) out.push(min - 1, min - 0.5);
        if (max < Number.MAX_SAFE_INTEGER) out.push(max + 1, max + 0.5);
        if (type === 'integer') out.push(1.5, -0.25);
        parts.push(
          fc.constantFrom(...out),
          integerArbitrary(typed).map((n) => String(n)),
          fc.constantFrom('NaN', 'Infinity', '1e3', '0x10', ' 1', '١٢'),
        );
        break;
      }
      case 'string': {
        const min = num(typed.minLength) ?? 0;
        const max = num(typed.maxLength);
        if (max !== undefined) {
          parts.push(
            fc.string({ unit: 'binary-ascii', minLength: max + 1, maxLength: max + 8 }),
            fc.constant('x'.repeat(Math.min(max * 4 + 1000, 300_000))),
          );
        }
        if (min > 0) parts.push(fc.string({ maxLength: min - 1 }));
        if (typed.pattern || typed.format || typed.enum) parts.push(fc.string(), weirdString);
        parts.push(fc.integer(), fc.boolean());
        break;
      }
      case 'boolean':
        parts.push(fc.constantFrom('true', 'false', 1, 0, 'yes'));
        break;
      case 'array':
        if (typed.items && depth < MAX_DEPTH) {
          parts.push(
            fc.array(invalidArbitrary(typed.items as Schema, options, depth + 1), {
              minLength: 1,
              maxLength: 3,
            }),
          );
        }
        parts.push(fc.string(), fc.constant({}));
        break;
      case 'object':
        parts.push(...invalidObjects(typed, options, depth));
        break;
      default:
        break;
    }
  }
  return fc.oneof(...parts);
}

function invalidObjects(
  schema: SchemaObject,
  options: ArbitraryOptions,
  depth: number,
): fc.Arbitrary<unknown>[] {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const names = Object.keys(properties);
  const required = (schema.required ?? []) as string[];
  const valid = objectArbitrary(schema, options, depth);
  const parts: fc.Arbitrary<unknown>[] = [fc.constant([]), fc.constant('{}')];
  if (required.length > 0) {
    parts.push(
      fc.tuple(valid, fc.constantFrom(...required)).map(([object, name]) => {
        const { [name]: _, ...rest } = object;
        return rest;
      }),
    );
  }
  if (names.length > 0 && depth < MAX_DEPTH) {
    parts.push(
      fc
        .constantFrom(...names)
        .chain((name) =>
          fc
            .tuple(valid, invalidArbitrary(properties[name] ?? true, options, depth + 1))
            .map(([object, bad]) => ({ ...object, [name]: bad })),
        ),
    );
  }
  if (schema.additionalProperties === false) {
    parts.push(valid.map((object) => ({ ...object, unexpectedField: 'x' })));
  }
  return parts;
}
