import type { FastifySchemaCompiler } from 'fastify';
import type { z } from 'zod';
import { validationFailed } from './errors';

/** The field messages of a failed parse, keyed by dotted path ('_' for the whole input). */
function fieldsOf(error: z.ZodError): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.join('.') || '_';
    const messages = fields[key] ?? [];
    messages.push(issue.message);
    fields[key] = messages;
  }
  return fields;
}

/** Parses request input with a shared contract; a failure becomes a 400 listing each field. */
export function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  throw validationFailed(fieldsOf(result.error));
}

/**
 * Fastify's validator for the zod schemas routes declare (`schema: { params, querystring,
 * body }`), used in place of fastify-type-provider-zod's own: it answers exactly as `parse`
 * does — a missing body reads as `{}` (Fastify hands validators `null`), and a failure is the
 * app's 400 VALIDATION_FAILED with `details.fields` keyed by the dotted zod path (the
 * library's error keeps only a `/`-joined instancePath and Fastify's own message).
 */
export const validatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema }) =>
  (data) => {
    const result = schema.safeParse(data ?? {});
    if (result.success) return { value: result.data };
    return { error: validationFailed(fieldsOf(result.error)) };
  };
