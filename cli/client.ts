import { randomUUID } from 'node:crypto';
import { PUBLIC_API_BASE } from '../shared/contracts/public-api';

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface Request {
  method: Method;
  /** Below /api/v1, e.g. /instances/12. */
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  /** Another media type than JSON (e.g. text/csv): the answer is its text. */
  accept?: string;
  /** Ends the call early (`events tail`: a signal to stop, or its own time limit). */
  signal?: AbortSignal;
}

export interface ClientOptions {
  apiUrl: string;
  apiKey: string | undefined;
  /** Print the request (key redacted) instead of sending it. */
  explain: boolean;
  /** Where --explain writes. */
  log: (line: string) => void;
  /** Attempts for a changing call that met a network error, a 5xx or a key still in use. */
  attempts?: number;
  /** Waits between attempts (tests pass a short one). */
  backoffMs?: number;
}

/** The API answered with its error body. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown>,
  ) {
    super(message);
  }
}

/** The server could not be reached at all. */
export class NetworkError extends Error {}

/** The first characters of a key, enough to recognise it; never the secret part. */
function redact(key: string): string {
  return `${key.slice(0, 9)}…(redacted)`;
}

const CHANGING = new Set<Method>(['POST', 'PATCH', 'PUT', 'DELETE']);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One call of the public API. Changing calls carry an Idempotency-Key, kept across retries. */
export async function call<T>(options: ClientOptions, request: Request): Promise<T | undefined> {
  const url = new URL(`${options.apiUrl}${PUBLIC_API_BASE}${request.path}`);
  for (const [name, value] of Object.entries(request.query ?? {})) {
    if (value !== undefined && value !== '') url.searchParams.set(name, String(value));
  }
  const headers: Record<string, string> = { accept: request.accept ?? 'application/json' };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  const changing = CHANGING.has(request.method);
  if (changing) headers['idempotency-key'] = randomUUID();
  const body = request.body === undefined ? undefined : JSON.stringify(request.body);

  if (options.explain) {
    options.log(`${request.method} ${url.toString()}`);
    for (const [name, value] of Object.entries(headers)) {
      options.log(
        `${name}: ${name === 'authorization' && options.apiKey ? `Bearer ${redact(options.apiKey)}` : value}`,
      );
    }
    if (body !== undefined) options.log(`\n${JSON.stringify(request.body, null, 2)}`);
    return undefined;
  }

  const attempts = changing ? (options.attempts ?? 3) : 1;
  for (let attempt = 1; ; attempt++) {
    let res: Response;
    try {
      res = await fetch(url, {
        method: request.method,
        headers,
        ...(body ? { body } : {}),
        ...(request.signal ? { signal: request.signal } : {}),
      });
    } catch (error) {
      if (attempt < attempts) {
        await sleep((options.backoffMs ?? 500) * attempt);
        continue;
      }
      throw unreachable(options, error);
    }
    let text: string;
    try {
      text = await res.text();
    } catch (error) {
      // The answer broke off (or its signal ended it) after the headers.
      throw unreachable(options, error);
    }
    const isJson = (res.headers.get('content-type') ?? '').includes('json');
    const parsed = text ? (isJson || !res.ok ? safeJson(text) : text) : undefined;
    if (res.ok) return parsed as T;
    const error = errorOf(res.status, parsed);
    const retryable = res.status >= 500 || error.code === 'IDEMPOTENCY_KEY_IN_USE';
    if (retryable && attempt < attempts) {
      await sleep((options.backoffMs ?? 500) * attempt);
      continue;
    }
    throw error;
  }
}

function unreachable(options: ClientOptions, error: unknown): NetworkError {
  return new NetworkError(
    `Could not reach ${options.apiUrl}: ${(error as Error).cause ?? (error as Error).message}`,
  );
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function errorOf(status: number, body: unknown): ApiError {
  const error = (body as { error?: { code?: unknown; message?: unknown; details?: unknown } })
    ?.error;
  if (error && typeof error.code === 'string' && typeof error.message === 'string') {
    const details =
      typeof error.details === 'object' && error.details !== null
        ? (error.details as Record<string, unknown>)
        : {};
    return new ApiError(status, error.code, error.message, details);
  }
  return new ApiError(status, 'HTTP_ERROR', `The server answered HTTP ${status}.`, {});
}
