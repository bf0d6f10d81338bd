import { readFileSync } from 'node:fs';
import type { z } from 'zod';

/**
 * An operator's JSON file named by a setting (IMAGE_CATALOGUE_FILE, CONTAINER_TEMPLATE_IMAGES_FILE),
 * read and checked once at start. Throws an Error whose message names the file and what is wrong
 * (unreadable, not JSON, or the first problem the schema found, with where); `explain` may add
 * to the schema's words for an issue.
 */
export function readConfigFile<T>(
  file: string,
  schema: z.ZodType<T>,
  fallback: string,
  explain: (issue: z.core.$ZodIssue) => string | null = () => null,
): T {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`cannot read ${file}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file} is not JSON: ${(error as Error).message}`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join('.') : '(root)';
    const message = issue ? (explain(issue) ?? issue.message) : fallback;
    throw new Error(`${file}: ${where}: ${message}`);
  }
  return parsed.data;
}
