import { sha256 } from '../crypto';
import { badRequest, validationFailed } from '../errors';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'idempotent-replayed';
export const KEY_MAX_LENGTH = 255;

const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;

/**
 * The Idempotency-Key header of a request: absent → null; present, it must be one value of
 * 1–255 printable ASCII characters (else 400 VALIDATION_FAILED).
 */
export function readIdempotencyKey(header: string | string[] | undefined): string | null {
  if (header === undefined) return null;
  const problem = (message: string) => validationFailed({ 'Idempotency-Key': [message] });
  if (Array.isArray(header)) throw problem('Send one Idempotency-Key header');
  if (header.length < 1 || header.length > KEY_MAX_LENGTH)
    throw problem(`Must be 1 to ${KEY_MAX_LENGTH} characters`);
  if (!PRINTABLE_ASCII.test(header)) throw problem('Must be printable ASCII characters');
  return header;
}

/**
 * How deep a request may nest to be hashed: far beyond any real body, and far below the
 * depth at which the recursion below would overflow the stack (a 500).
 */
export const MAX_HASHED_DEPTH = 64;

/** JSON with object keys sorted at every level, so equal requests hash equally. */
export function canonicalJson(value: unknown, depth = 0): string {
  if (value === undefined || value === null) return 'null';
  if (typeof value === 'object' && depth >= MAX_HASHED_DEPTH) {
    throw badRequest(`The request is nested more than ${MAX_HASHED_DEPTH} levels deep.`);
  }
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v, depth + 1)).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v, depth + 1)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** What "the same request" means: same path parameters, query and body (canonical JSON). */
export function requestHash(parts: { params: unknown; query: unknown; body: unknown }): string {
  return sha256(
    canonicalJson({ params: parts.params ?? {}, query: parts.query ?? {}, body: parts.body }),
  );
}
