import { expect } from 'vitest';
import type { TestApp } from './app';

type Answer = Awaited<ReturnType<TestApp['request']>>;

/** A new API key of these permissions for the signed-in user (`cookie`), and its id. */
export async function createApiKey(
  app: TestApp,
  cookie: string,
  permissions: string[],
): Promise<{ key: string; keyId: string }> {
  const res = await app.request({
    method: 'POST',
    url: '/api/auth/api-keys',
    cookie,
    payload: { name: 'test', permissions },
  });
  expect(res.statusCode).toBe(201);
  const { key, id } = res.json();
  return { key: key as string, keyId: id as string };
}

/** A public API call: `path` under /api/v1, `key` as its bearer token (null: no key). */
export type V1Args = [
  key: string | null,
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  path: string,
  payload?: unknown,
  headers?: Record<string, string>,
];

/** The call (V1Args) on one test app; a file binds its own: `(...args: V1Args) => v1Request(t, ...args)`. */
export function v1Request(
  app: TestApp,
  ...[key, method, path, payload, headers = {}]: V1Args
): Promise<Answer> {
  return app.request({
    method,
    url: `/api/v1${path}`,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers },
    ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}),
  });
}

/** `replay` answered with `first`'s stored answer, marked as a replay. */
export function expectReplayOf(replay: Answer, first: Answer): void {
  expect(replay.headers['idempotent-replayed']).toBe('true');
  expect(replay.json()).toEqual(first.json());
}
