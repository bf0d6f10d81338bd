/**
 * The per-field messages of a 400 VALIDATION_FAILED (details.fields) or a refusal that names
 * a field, read from an error raised by apiRequest ("{status}: {body}"). Empty otherwise.
 */
export function serverFieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof Error)) return {};
  const match = /^\d{3}: ([\s\S]*)$/.exec(error.message);
  if (!match) return {};
  try {
    const body = JSON.parse(match[1] ?? '') as { error?: { details?: { fields?: unknown } } };
    const fields = body.error?.details?.fields;
    if (!fields || typeof fields !== 'object') return {};
    const result: Record<string, string> = {};
    for (const [field, messages] of Object.entries(fields)) {
      const first: unknown = Array.isArray(messages) ? messages[0] : messages;
      if (typeof first === 'string') result[field] = first;
    }
    return result;
  } catch {
    return {};
  }
}
