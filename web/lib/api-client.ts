import type { QueryFunction } from '@tanstack/react-query';
import { userFacingMessage } from '../../shared/rules/system-error';

/**
 * The default fetch: cookies always, JSON bodies, and any
 * non-success answer becomes an Error reading "{status}: {body text}".
 */
async function throwIfNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  const text = (await res.text()) || res.statusText;
  throw new Error(`${res.status}: ${text}`);
}

export async function apiRequest(
  method: string,
  url: string,
  data?: unknown,
  options: { idempotencyKey?: string } = {},
): Promise<Response> {
  const res = await fetch(url, {
    method,
    headers: {
      ...(data === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...(options.idempotencyKey ? { 'Idempotency-Key': options.idempotencyKey } : {}),
    },
    body: data === undefined ? undefined : JSON.stringify(data),
    credentials: 'include',
  });
  await throwIfNotOk(res);
  return res;
}

/** apiRequest's answer read as JSON of type T (the type is the caller's word; nothing checks it). */
export async function apiJson<T>(
  method: string,
  url: string,
  data?: unknown,
  options: { idempotencyKey?: string } = {},
): Promise<T> {
  const res = await apiRequest(method, url, data, options);
  return (await res.json()) as T;
}

/** One attempt of a request whose retries carry the same Idempotency-Key. */
export interface Idempotent<B> {
  body: B;
  idempotencyKey: string;
}

/** A POST of an Idempotent body to url, its answer read as JSON of type R. */
export const idempotentPost =
  <B, R>(url: string) =>
  ({ body, idempotencyKey }: Idempotent<B>) =>
    apiJson<R>('POST', url, body, { idempotencyKey });

type UnauthorizedBehavior = 'returnNull' | 'throw';

/** A GET of a JSON answer; with on401 'returnNull' a 401 means "no data", not an error. */
export async function getJson<T>(url: string, on401: UnauthorizedBehavior): Promise<T | null> {
  const res = await fetch(url, { credentials: 'include' });
  if (on401 === 'returnNull' && res.status === 401) {
    // Read to its end: an unread body keeps the request open and its connection unusable.
    await res.arrayBuffer();
    return null;
  }
  await throwIfNotOk(res);
  return (await res.json()) as T;
}

/** getJson of the URL in the query key. */
export function getQueryFn<T>({ on401 }: { on401: UnauthorizedBehavior }): QueryFunction<T | null> {
  return ({ queryKey }) => getJson<T>(queryKey.join('/'), on401);
}

/**
 * The message a person should read from an error raised above: the server's error
 * message when the body is our error shape, else the fallback.
 */
export function serverMessage(error: unknown, fallback: string): string {
  if (!(error instanceof Error)) return fallback;
  const match = /^\d{3}: ([\s\S]*)$/.exec(error.message);
  if (!match) return fallback;
  try {
    const body = JSON.parse(match[1] ?? '') as { error?: { message?: unknown }; message?: unknown };
    const message = body.error?.message ?? body.message;
    // A system error (ENOTFOUND, a stack frame) is never shown: the fallback says it instead.
    return typeof message === 'string' && message ? userFacingMessage(message, fallback) : fallback;
  } catch {
    return fallback;
  }
}

/** The `details` of an error raised above when its body is our error shape; empty otherwise. */
export function serverErrorDetails(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return {};
  const match = /^\d{3}: ([\s\S]*)$/.exec(error.message);
  try {
    const body = JSON.parse(match?.[1] ?? '') as { error?: { details?: unknown } };
    const details = body.error?.details;
    return details && typeof details === 'object' && !Array.isArray(details)
      ? (details as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/**
 * Field problems of a 400/409 answer in our error shape ({error: {details: {fields}}}): the
 * first message of each field (a field given one message as a string counts too).
 */
export function serverFieldErrors(error: unknown): Record<string, string> {
  const { fields } = serverErrorDetails(error);
  if (!fields || typeof fields !== 'object') return {};
  const out: Record<string, string> = {};
  for (const [key, messages] of Object.entries(fields)) {
    const first: unknown = Array.isArray(messages) ? messages[0] : messages;
    if (typeof first === 'string') out[key] = first;
  }
  return out;
}

/** The HTTP status of an error raised above; null when no answer came (network failure). */
export function errorStatus(error: unknown): number | null {
  if (!(error instanceof Error)) return null;
  const match = /^(\d{3}): /.exec(error.message);
  return match ? Number(match[1]) : null;
}

/**
 * Whether a request that failed with this error may be sent again with the same
 * Idempotency-Key: yes when its outcome is unknown (no answer, a 5xx) or it was refused for
 * the moment (409, 429); a stored answer (another 4xx) would only be replayed.
 */
export function keepIdempotencyKey(error: unknown): boolean {
  const status = errorStatus(error);
  return status === null || status >= 500 || status === 409 || status === 429;
}

/** A fresh Idempotency-Key (a random UUID, also where crypto.randomUUID is missing: plain http). */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
