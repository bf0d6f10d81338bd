import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ApiKeyPermission } from '../../../shared/contracts/api-keys';
import { RATE_WINDOW_SECONDS, TIER_LIMITS } from '../../../shared/contracts/public-api';
import { AppError, rateLimited } from '../../lib/errors';
import { createGuessLimits, GUESS_LIMITS } from '../../lib/guess-limits';
import type { RateDecision } from '../../lib/rate-limit';
import { type AuthenticatedKey, visiblePartOf } from '../api-keys/service';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The API key permission a public API route needs (read for reads, write for changes,
     * admin for keys); 'none': open without a key (the OpenAPI document), limited per address.
     */
    permission?: ApiKeyPermission | 'none';
  }
  interface FastifyRequest {
    /** The public API's caller, from `Authorization: Bearer <key>` (modules/public-api). */
    apiKey: AuthenticatedKey | null;
  }
}

const BEARER = /^Bearer[ \t]+(\S{1,400})[ \t]*$/i;
const WINDOW_MS = RATE_WINDOW_SECONDS * 1000;
/** Callers without a (valid) key share their address's bucket, at the Standard tier's size. */
const ANONYMOUS_LIMIT = TIER_LIMITS.standard;

/** The limiter's key of an API key's hourly window (tests fill it to reach the edge). */
export const keyBucket = (keyId: string) => `v1:key:${keyId}`;
const addressBucket = (ip: string) => `v1:ip:${ip}`;

/** An admin key may do everything; otherwise the key must carry the permission itself. */
export function keyAllows(key: AuthenticatedKey, permission: ApiKeyPermission): boolean {
  return key.permissions.includes(permission) || key.permissions.includes('admin');
}

/**
 * Sets the IETF RateLimit headers of the request's count in its hourly window
 * (draft-ietf-httpapi-ratelimit-headers: `RateLimit-Policy: "<name>";q=<quota>;w=<window>` and
 * `RateLimit: "<name>";r=<remaining>;t=<seconds to reset>`); over the quota → 429 with
 * Retry-After. The limiter counts atomically (in memory, or INCR in Redis), so concurrent
 * requests never pass more than the quota.
 */
function applyDecision(reply: FastifyReply, policy: string, quota: number, decision: RateDecision) {
  reply.header('ratelimit-policy', `"${policy}";q=${quota};w=${RATE_WINDOW_SECONDS}`);
  reply.header('ratelimit', `"${policy}";r=${decision.remaining};t=${decision.retryAfterSeconds}`);
  if (!decision.allowed) {
    throw rateLimited(
      decision.retryAfterSeconds,
      `This API key's ${policy} tier allows ${quota.toLocaleString('en-US')} requests per hour. Try again in ${decision.retryAfterSeconds} seconds.`,
    );
  }
}

/** A valid key's request, counted (`decision`): the caller is set, then quota and permission. */
function admitKey(
  request: FastifyRequest,
  reply: FastifyReply,
  key: AuthenticatedKey,
  permission: ApiKeyPermission | 'none',
  decision: RateDecision,
) {
  request.apiKey = key;
  applyDecision(reply, key.rateTier, TIER_LIMITS[key.rateTier], decision);
  if (permission !== 'none' && !keyAllows(key, permission)) {
    throw new AppError(
      403,
      'FORBIDDEN',
      `This API key does not have the ${permission} permission.`,
      { required: permission, granted: key.permissions },
    );
  }
}

const invalidKey = (sent: boolean) =>
  new AppError(
    401,
    'UNAUTHENTICATED',
    sent
      ? 'The API key is not valid: unknown, revoked or expired.'
      : 'Send an API key as "Authorization: Bearer <key>". Create one in Settings → API Keys.',
    {},
    { 'www-authenticate': 'Bearer realm="rentgpu"' },
  );

/**
 * The public API's access check, first thing for every /api/v1 route of this plugin
 * (onRequest, so before the idempotency claim and before any input is read): the key,
 * its hourly quota, then the route's permission.
 */
export function registerApiKeyAccess(app: FastifyInstance): void {
  app.decorateRequest('apiKey', null);
  const { apiKeys, clock, limiter } = app.deps;
  const guesses = createGuessLimits(limiter);
  const countKey = (key: AuthenticatedKey) =>
    [keyBucket(key.keyId), TIER_LIMITS[key.rateTier], WINDOW_MS] as const;

  /** `remembered`: the key as already found in memory, so it is not looked up again. */
  async function access(
    request: FastifyRequest,
    reply: FastifyReply,
    permission: ApiKeyPermission | 'none',
    token: string | undefined,
    remembered: AuthenticatedKey | undefined,
  ) {
    const key = remembered ?? (token ? await apiKeys.authenticate(token, clock.now()) : null);
    if (!key) {
      const decision = await limiter.hit(addressBucket(request.ip), ANONYMOUS_LIMIT, WINDOW_MS);
      applyDecision(reply, 'anonymous', ANONYMOUS_LIMIT, decision);
      if (permission === 'none') return;
      if (request.headers.authorization === undefined) throw invalidKey(false);
      // A wrong key counts per address and per key prefix: 429 once either has had too many
      // (docs/architecture.md, "Limits where guessing is possible"); a right key never counts.
      const target = token ? visiblePartOf(token) : null;
      return guesses.failed(GUESS_LIMITS.apiKey, { ip: request.ip, target }, invalidKey(true));
    }
    admitKey(request, reply, key, permission, await limiter.hit(...countKey(key)));
  }

  app.addHook('onRequest', (request, reply, done) => {
    const permission = request.routeOptions.config.permission ?? 'read';
    const header = request.headers.authorization;
    const token = header ? BEARER.exec(header)?.[1] : undefined;
    // The common case (a key seen in the last seconds, the limiter in memory) needs no promise.
    const remembered = token ? apiKeys.authenticateRemembered(token, clock.now()) : undefined;
    if (remembered && limiter.hitNow) {
      try {
        admitKey(request, reply, remembered, permission, limiter.hitNow(...countKey(remembered)));
      } catch (error) {
        done(error as Error);
        return;
      }
      done();
      return;
    }
    access(request, reply, permission, token, remembered).then(() => done(), done);
  });
}

/** The caller of a route behind registerApiKeyAccess. */
export function requireKey(request: FastifyRequest): AuthenticatedKey {
  if (!request.apiKey) throw invalidKey(false);
  return request.apiKey;
}

/** Idempotency keys of the public API belong to the key's user (lib/idempotency). */
export const keyIdempotency = {
  idempotency: { owner: (request: FastifyRequest) => request.apiKey?.userId ?? null },
} as const;
