import type { z } from 'zod';
import { validationFailed } from './errors';

/** Parses request input with a shared contract; a failure becomes a 400 listing each field. */
export function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const fields: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    const key = issue.path.join('.') || '_';
    const messages = fields[key] ?? [];
    messages.push(issue.message);
    fields[key] = messages;
  }
  throw validationFailed(fields);
}
