import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Conn, Db } from '../../db/client';
import type { Clock } from '../clock';
import { idempotencyKeyInUse, idempotencyKeyReused } from '../errors';
import { ClaimLeases } from './leases';
import { IDEMPOTENCY_HEADER, REPLAYED_HEADER, readIdempotencyKey, requestHash } from './request';
import { type Claim, DEFAULT_LEASE_MS, idempotencyStore } from './store';

export { ClaimLeases } from './leases';
export { IDEMPOTENCY_HEADER, REPLAYED_HEADER } from './request';
export { DEFAULT_LEASE_MS, idempotencyStore, KEY_TTL_MS } from './store';

/** A route's `config.idempotency`: `true`, or how to find the key's owner. */
export interface IdempotencyRouteOptions {
  /**
   * Whose key it is. Default: the signed-in user. null → the request is not treated as
   * idempotent (it has no owner; the route refuses it itself, e.g. 401).
   */
  owner?: (request: FastifyRequest) => string | null;
}

/** A claimed key, held by the request that claimed it. */
export interface IdempotencyHandle {
  /**
   * Stores the answer inside the caller's transaction, next to the work it answers for.
   * Throws 409 IDEMPOTENCY_KEY_IN_USE when the claim is no longer this request's, which
   * rolls that work back.
   */
  record(tx: Conn, status: number, body: unknown): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The leases of the Idempotency-Key claims this process holds (lib/idempotency). */
    idempotencyLeases: ClaimLeases;
  }
  interface FastifyContextConfig {
    /** Opt a route in to Idempotency-Key handling (lib/idempotency). */
    idempotency?: true | IdempotencyRouteOptions;
  }
  interface FastifyRequest {
    idempotency: IdempotencyHandle | null;
  }
}

/**
 * Answers with 2xx–4xx are kept and replayed; a 409 (a conflict a retry may resolve), a 429
 * and any 5xx release the key so the same request can be tried again.
 */
export function isStoredStatus(status: number): boolean {
  return status < 500 && status !== 409 && status !== 429;
}

/**
 * For a route's service: a callback that records the presented result as the route's answer
 * inside the service's transaction; undefined when the request carries no key.
 */
export function recordAnswer<T>(
  request: FastifyRequest,
  status: number,
  present: (result: T) => unknown,
): ((tx: Conn, result: T) => Promise<void>) | undefined {
  const handle = request.idempotency;
  if (!handle) return undefined;
  return (tx, result) => handle.record(tx, status, present(result));
}

const claims = new WeakMap<FastifyRequest, Claim>();

/**
 * The Idempotency-Key mechanism (docs/decisions/009-idempotency-keys.md). A route opts in with
 * `{ config: { idempotency: true } }`. Before the route's input is validated (preValidation,
 * on the input as sent, so a refused input is stored and replayed like any answer) and before
 * the handler: the key is validated and claimed,
 * or the first answer replayed (`Idempotent-Replayed: true`), or the request refused (422 for
 * another request under the same key, 409 while the first is still running). After: the
 * answer is stored unless the handler already stored it in its own transaction, or the key is
 * released for answers that are not kept. While the request runs its claim's lease is renewed
 * (leases.ts), so a claim outlives its request only by the lease (`leaseMs`, default 10 s).
 */
export function registerIdempotency(
  app: FastifyInstance,
  deps: { db: Db; clock: Clock; leaseMs?: number },
): void {
  const { db, clock } = deps;
  const leases = new ClaimLeases(db, deps.leaseMs ?? DEFAULT_LEASE_MS, app.log);
  app.decorate('idempotencyLeases', leases);
  app.addHook('onClose', async () => leases.close());
  app.decorateRequest('idempotency', null);

  app.addHook('preValidation', (request, reply, done) => {
    const option = request.routeOptions.config.idempotency;
    // Most routes take no key: no promise for them.
    if (!option) {
      done();
      return;
    }
    // A replay answers here: then the route must not run, so done() is not called.
    claimOrReplay(request, reply, option).then((replayed) => {
      if (!replayed) done();
    }, done);
  });

  /** Claims the key (false: the route runs) or answers with the stored answer (true). */
  async function claimOrReplay(
    request: FastifyRequest,
    reply: FastifyReply,
    option: true | IdempotencyRouteOptions,
  ): Promise<boolean> {
    const owner =
      option === true || !option.owner ? (request.auth?.userId ?? null) : option.owner(request);
    if (owner === null) return false;
    const key = readIdempotencyKey(request.headers[IDEMPOTENCY_HEADER]);
    if (key === null) return false;
    const scope = { owner, method: request.method, route: request.routeOptions.url ?? '', key };
    const hash = requestHash({ params: request.params, query: request.query, body: request.body });
    const result = await idempotencyStore.claim(db, scope, hash, clock.now(), leases.leaseMs);
    if (result.kind === 'claimed') {
      const claim = result.claim;
      claims.set(request, claim);
      leases.hold(claim);
      request.idempotency = {
        async record(tx, status, body) {
          const stored = await idempotencyStore.complete(
            tx,
            claim,
            { status, body: JSON.stringify(body) },
            clock.now(),
          );
          if (!stored) throw idempotencyKeyInUse();
        },
      };
      return false;
    }
    const row = result.row;
    if (row.requestHash !== hash) throw idempotencyKeyReused();
    if (row.state !== 'completed' || row.responseStatus === null || row.responseBody === null)
      throw idempotencyKeyInUse();
    reply
      .status(row.responseStatus)
      .header('content-type', 'application/json; charset=utf-8')
      .header(REPLAYED_HEADER, 'true')
      .send(row.responseBody);
    return true;
  }

  app.addHook('onSend', (request, reply, payload, done) => {
    const claim = claims.get(request);
    if (!claim) {
      done(null, payload);
      return;
    }
    settle(request, reply, payload, claim).then(
      () => done(null, payload),
      (error: Error) => done(error),
    );
  });

  async function settle(
    request: FastifyRequest,
    reply: FastifyReply,
    payload: unknown,
    claim: Claim,
  ): Promise<void> {
    claims.delete(request);
    request.idempotency = null;
    try {
      // Both are conditional on the claim: an answer stored inside the handler's
      // transaction is neither overwritten nor released here.
      if (isStoredStatus(reply.statusCode) && typeof payload === 'string') {
        await idempotencyStore.complete(
          db,
          claim,
          { status: reply.statusCode, body: payload },
          clock.now(),
        );
      } else {
        await idempotencyStore.release(db, claim);
      }
    } catch (error) {
      // The answer still goes out; the claim lapses when its lease, no longer renewed, ends.
      request.log.error({ err: error }, 'idempotency key could not be finished');
    } finally {
      leases.drop(claim);
    }
  }

  // A request that ended without an answer sent through onSend (its connection gone) stops
  // renewing its claim too: the lease then ends it.
  app.addHook('onResponse', (request, _reply, done) => {
    const claim = claims.get(request);
    if (claim) {
      claims.delete(request);
      leases.drop(claim);
    }
    done();
  });
}
