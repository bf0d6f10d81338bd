/**
 * An OpenAPI 3.1 document as docs/openapi.json holds it: only the parts the API Reference
 * view (./openapi-view.ts) reads are typed.
 */

/** A JSON Schema (2020-12) as the document holds it; only what the view reads is typed. */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  format?: string;
  description?: string;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  example?: unknown;
  examples?: unknown[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
}

interface ParameterObject {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: JsonSchema;
}

export interface MediaObject {
  schema?: JsonSchema;
}

export interface OperationObject {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: ParameterObject[];
  requestBody?: { required?: boolean; content?: Record<string, MediaObject> };
  responses?: Record<string, { description?: string; content?: Record<string, MediaObject> }>;
  security?: Record<string, string[]>[];
}

export interface OpenApiDocument {
  info: { title: string; version: string };
  servers?: { url: string }[];
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, OperationObject | unknown>>;
  components?: {
    schemas?: Record<string, JsonSchema>;
    securitySchemes?: Record<string, { type: string; scheme?: string; description?: string }>;
  };
  security?: Record<string, string[]>[];
  'x-rate-limit-tiers'?: {
    windowSeconds: number;
    tiers: { tier: string; name: string; requestsPerHour: number }[];
  };
}
