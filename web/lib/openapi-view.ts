/**
 * The public API's OpenAPI 3.1 document (docs/openapi.json, generated from the zod contracts)
 * turned into what the API Reference page and the documentation's API tab show: operations
 * grouped by tag, with their parameters, body fields, responses, required key permission and
 * an example request, the rate tiers (`x-rate-limit-tiers`) and the error body. Pure and
 * generic: nothing here names an endpoint, so a new route appears by itself.
 */

import type { JsonSchema, MediaObject, OpenApiDocument, OperationObject } from './openapi-document';

export interface FieldView {
  /** Dotted path: `instance.sshHost`, `gpus[].provider.name`. */
  name: string;
  type: string;
  required: boolean;
  description: string | null;
  constraints: string[];
}

export interface ParameterView extends FieldView {
  in: string;
}

export interface ResponseView {
  status: string;
  description: string | null;
  /** The schema's component name when it is one (`Error`). */
  schemaName: string | null;
  fields: FieldView[];
}

export interface OperationView {
  /** Unique in the document: the anchor of the operation on the page. */
  id: string;
  operationId: string | null;
  method: string;
  path: string;
  summary: string;
  description: string | null;
  /** The key permission (the security requirement's role), null when none is named. */
  permission: string | null;
  parameters: ParameterView[];
  requestBody: { required: boolean; fields: FieldView[] } | null;
  responses: ResponseView[];
  example: string;
}

export interface TagGroupView {
  name: string;
  description: string | null;
  operations: OperationView[];
}

export interface ApiView {
  title: string;
  version: string;
  /** The servers' first URL, such as `/api/v1`. */
  basePath: string;
  baseUrl: string;
  auth: { scheme: string; description: string | null } | null;
  rateWindowSeconds: number | null;
  tiers: { name: string; requestsPerHour: number }[];
  errorBody: { schemaName: string; fields: FieldView[] } | null;
  groups: TagGroupView[];
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options', 'trace'] as const;
const OTHER_TAG = 'Other';
const MAX_DEPTH = 5;
/** Bounds that only say "a JavaScript integer" carry no meaning for a reader. */
const SAFE_INTEGER = Number.MAX_SAFE_INTEGER;

/** Every operation of the document as [method, path, operation], in the document's order. */
export function documentOperations(
  document: OpenApiDocument,
): { method: string; path: string; operation: OperationObject }[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method] && typeof item[method] === 'object').map((method) => ({
      method,
      path,
      operation: item[method] as OperationObject,
    })),
  );
}

const refName = (ref: string) => ref.replace(/^#\/components\/schemas\//, '');

/** Follows `$ref`s into components.schemas; a missing one is left as is. */
function resolve(document: OpenApiDocument, schema: JsonSchema): JsonSchema {
  let current = schema;
  for (let hops = 0; current.$ref && hops < 10; hops += 1) {
    const target = document.components?.schemas?.[refName(current.$ref)];
    if (!target) return current;
    current = { ...target, description: current.description ?? target.description };
  }
  return current;
}

const literal = (value: unknown) => JSON.stringify(value);

function typeLabel(document: OpenApiDocument, raw: JsonSchema, depth = 0): string {
  if (depth > MAX_DEPTH) return 'any';
  const schema = resolve(document, raw);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) {
    return [...new Set(alternatives.map((s) => typeLabel(document, s, depth + 1)))].join(' or ');
  }
  if (schema.allOf && schema.allOf.length === 1 && schema.allOf[0]) {
    return typeLabel(document, schema.allOf[0], depth + 1);
  }
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length === 0) {
    if (schema.properties) return 'object';
    if (schema.const !== undefined) return typeof schema.const;
    return 'any';
  }
  return types
    .map((type) => {
      if (type === 'array')
        return schema.items ? `array of ${typeLabel(document, schema.items, depth + 1)}` : 'array';
      if (type === 'string' && schema.format) return `string (${schema.format})`;
      return type;
    })
    .join(' or ');
}

function constraintsOf(document: OpenApiDocument, raw: JsonSchema): string[] {
  const schema = resolve(document, raw);
  const out: string[] = [];
  if (schema.const !== undefined) out.push(`always ${literal(schema.const)}`);
  if (schema.enum) out.push(`one of ${schema.enum.map(literal).join(', ')}`);
  if (schema.minimum !== undefined && schema.minimum > -SAFE_INTEGER)
    out.push(`min ${schema.minimum}`);
  if (schema.exclusiveMinimum !== undefined) out.push(`more than ${schema.exclusiveMinimum}`);
  if (schema.maximum !== undefined && schema.maximum < SAFE_INTEGER)
    out.push(`max ${schema.maximum}`);
  if (schema.exclusiveMaximum !== undefined) out.push(`less than ${schema.exclusiveMaximum}`);
  if (schema.minLength !== undefined) out.push(`min length ${schema.minLength}`);
  if (schema.maxLength !== undefined) out.push(`max length ${schema.maxLength}`);
  if (schema.minItems !== undefined) out.push(`min items ${schema.minItems}`);
  if (schema.maxItems !== undefined) out.push(`max items ${schema.maxItems}`);
  if (schema.default !== undefined) out.push(`default ${literal(schema.default)}`);
  return out;
}

/** The object a schema describes (directly or as the one object of an anyOf with null). */
function objectOf(document: OpenApiDocument, raw: JsonSchema): JsonSchema | null {
  const schema = resolve(document, raw);
  if (schema.properties) return schema;
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) {
    const objects = alternatives
      .map((s) => objectOf(document, s))
      .filter((s): s is JsonSchema => s !== null);
    return objects.length === 1 ? (objects[0] ?? null) : null;
  }
  return null;
}

/** A schema's properties flattened to dotted paths, nested objects and arrays of them too. */
function fieldsOf(
  document: OpenApiDocument,
  raw: JsonSchema,
  prefix = '',
  depth = 0,
  seen: readonly string[] = [],
): FieldView[] {
  if (depth > MAX_DEPTH) return [];
  if (raw.$ref && seen.includes(raw.$ref)) return [];
  const nextSeen = raw.$ref ? [...seen, raw.$ref] : seen;
  const object = objectOf(document, raw);
  if (!object?.properties) return [];
  const required = new Set(object.required ?? []);
  return Object.entries(object.properties).flatMap(([key, property]) => {
    const name = `${prefix}${key}`;
    const resolved = resolve(document, property);
    const field: FieldView = {
      name,
      type: typeLabel(document, property),
      required: required.has(key),
      description: resolved.description ?? null,
      constraints: constraintsOf(document, property),
    };
    const items = resolved.items;
    const nested = items
      ? fieldsOf(document, items, `${name}[].`, depth + 1, nextSeen)
      : fieldsOf(document, property, `${name}.`, depth + 1, nextSeen);
    return [field, ...nested];
  });
}

const firstJson = (content: Record<string, MediaObject> | undefined): JsonSchema | null => {
  if (!content) return null;
  const media = content['application/json'] ?? Object.values(content)[0];
  return media?.schema ?? null;
};

/** A plausible value for a schema, for the example request. */
function exampleValue(document: OpenApiDocument, raw: JsonSchema, depth = 0): unknown {
  const schema = resolve(document, raw);
  if (schema.example !== undefined) return schema.example;
  if (schema.examples?.length) return schema.examples[0];
  if (schema.const !== undefined) return schema.const;
  if (schema.default !== undefined) return schema.default;
  if (schema.enum?.length) return schema.enum[0];
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.[0]) return exampleValue(document, alternatives[0], depth + 1);
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const type = types.find((t) => t !== 'null') ?? (schema.properties ? 'object' : undefined);
  switch (type) {
    case 'integer':
    case 'number': {
      if (schema.minimum !== undefined && schema.minimum > 0) return schema.minimum;
      if (schema.exclusiveMinimum !== undefined && schema.exclusiveMinimum >= 0)
        return Math.floor(schema.exclusiveMinimum) + 1;
      return 1;
    }
    case 'boolean':
      return true;
    case 'array':
      return depth > MAX_DEPTH || !schema.items
        ? []
        : [exampleValue(document, schema.items, depth + 1)];
    case 'object': {
      if (depth > MAX_DEPTH) return {};
      return Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([key, property]) => [
          key,
          exampleValue(document, property, depth + 1),
        ]),
      );
    }
    case 'string':
      if (schema.format === 'uuid') return '3fa85f64-5717-4562-b3fc-2c963f66afa6';
      if (schema.format === 'date-time') return '2026-01-01T00:00:00.000Z';
      if (schema.format === 'email') return 'you@example.com';
      return 'string';
    default:
      return null;
  }
}

/** The shell-quoted curl command of an operation, with the key as a placeholder. */
function curlExample(
  document: OpenApiDocument,
  baseUrl: string,
  method: string,
  path: string,
  operation: OperationObject,
): string {
  const parameters = operation.parameters ?? [];
  const filledPath = path.replace(/\{([^}]+)\}/g, (whole, name: string) => {
    const parameter = parameters.find((p) => p.in === 'path' && p.name === name);
    return parameter?.schema
      ? encodeURIComponent(String(exampleValue(document, parameter.schema)))
      : whole;
  });
  const query = parameters
    .filter((p) => p.in === 'query' && p.required)
    .map(
      (p) =>
        `${encodeURIComponent(p.name)}=${encodeURIComponent(String(p.schema ? exampleValue(document, p.schema) : ''))}`,
    )
    .join('&');
  const url = `${baseUrl}${filledPath}${query ? `?${query}` : ''}`;
  const lines = [
    method === 'get' ? `curl "${url}"` : `curl -X ${method.toUpperCase()} "${url}"`,
    '-H "Authorization: Bearer YOUR_API_KEY"',
  ];
  const body = firstJson(operation.requestBody?.content);
  if (body) {
    const json = JSON.stringify(exampleValue(document, body), null, 2).replaceAll("'", "'\\''");
    lines.push('-H "Content-Type: application/json"', `-d '${json}'`);
  }
  return lines.join(' \\\n  ');
}

function permissionOf(document: OpenApiDocument, operation: OperationObject): string | null {
  const requirements = operation.security ?? document.security ?? [];
  const roles = requirements.flatMap((requirement) => Object.values(requirement).flat());
  return roles.length > 0 ? roles.join(', ') : null;
}

const anchorOf = (method: string, path: string) =>
  `${method}-${path}`
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

function operationView(
  document: OpenApiDocument,
  baseUrl: string,
  method: string,
  path: string,
  operation: OperationObject,
): OperationView {
  const body = firstJson(operation.requestBody?.content);
  return {
    id: operation.operationId ?? anchorOf(method, path),
    operationId: operation.operationId ?? null,
    method: method.toUpperCase(),
    path,
    summary: operation.summary ?? `${method.toUpperCase()} ${path}`,
    description: operation.description ?? null,
    permission: permissionOf(document, operation),
    parameters: (operation.parameters ?? []).map((parameter) => ({
      name: parameter.name,
      in: parameter.in,
      required: parameter.required ?? parameter.in === 'path',
      type: parameter.schema ? typeLabel(document, parameter.schema) : 'any',
      description:
        parameter.description ??
        (parameter.schema ? (resolve(document, parameter.schema).description ?? null) : null),
      constraints: parameter.schema ? constraintsOf(document, parameter.schema) : [],
    })),
    requestBody: body
      ? { required: operation.requestBody?.required ?? false, fields: fieldsOf(document, body) }
      : null,
    responses: Object.entries(operation.responses ?? {}).map(([status, response]) => {
      const schema = firstJson(response.content);
      return {
        status,
        description:
          response.description && response.description !== 'Default Response'
            ? response.description
            : null,
        schemaName: schema?.$ref ? refName(schema.$ref) : null,
        fields: schema ? fieldsOf(document, schema) : [],
      };
    }),
    example: curlExample(document, baseUrl, method, path, operation),
  };
}

/**
 * The view of the whole document. `origin` is where the API is reached (the page's own origin
 * in the browser); the servers' first URL is appended to it.
 */
export function openApiView(document: OpenApiDocument, origin: string): ApiView {
  const basePath = document.servers?.[0]?.url ?? '';
  const baseUrl = /^https?:\/\//.test(basePath) ? basePath : `${origin}${basePath}`;
  const groups = new Map<string, TagGroupView>();
  for (const tag of document.tags ?? []) {
    groups.set(tag.name, { name: tag.name, description: tag.description ?? null, operations: [] });
  }
  for (const { method, path, operation } of documentOperations(document)) {
    const tag = operation.tags?.[0] ?? OTHER_TAG;
    let group = groups.get(tag);
    if (!group) {
      group = { name: tag, description: null, operations: [] };
      groups.set(tag, group);
    }
    group.operations.push(operationView(document, baseUrl, method, path, operation));
  }
  const scheme = Object.values(document.components?.securitySchemes ?? {})[0];
  const errorSchema = document.components?.schemas?.Error;
  const tiers = document['x-rate-limit-tiers'];
  return {
    title: document.info.title,
    version: document.info.version,
    basePath,
    baseUrl,
    auth: scheme
      ? {
          scheme: scheme.scheme ?? scheme.type,
          description: scheme.description ?? null,
        }
      : null,
    rateWindowSeconds: tiers?.windowSeconds ?? null,
    tiers: (tiers?.tiers ?? []).map(({ name, requestsPerHour }) => ({ name, requestsPerHour })),
    errorBody: errorSchema
      ? { schemaName: 'Error', fields: fieldsOf(document, errorSchema) }
      : null,
    groups: [...groups.values()].filter((group) => group.operations.length > 0),
  };
}
