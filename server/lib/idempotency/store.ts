import { randomUUID } from 'node:crypto';
import { and, eq, inArray, lte, type SQL, sql } from 'drizzle-orm';
import type { Conn } from '../../db/client';
import { type IdempotencyKey, idempotencyKeys } from '../../db/schema';

/** How long a key's answer is kept and replayed. */
export const KEY_TTL_MS = 24 * 60 * 60_000;
/**
 * How long a claim's lease lasts by default (IDEMPOTENCY_LEASE_MS). The request holding the
 * claim renews it while it runs (leases.ts); an `in_progress` claim whose lease ran out was
 * left by a request that is no longer running (its process died) and may be taken over by a
 * retry of the same request. A money route cannot move money twice even then: its work and
 * its completion commit in one transaction, conditional on the claim token.
 */
export const DEFAULT_LEASE_MS = 10_000;

/** The lease's end, `ms` from now by the database's clock (the one all processes share). */
function leaseFromNow(ms: number): SQL {
  return sql`now() + ${`${Math.round(ms)} milliseconds`}::interval`;
}

export interface KeyScope {
  owner: string;
  method: string;
  route: string;
  key: string;
}

export interface Claim {
  id: bigint;
  token: string;
}

export type ClaimResult =
  | { kind: 'claimed'; claim: Claim }
  | { kind: 'existing'; row: IdempotencyKey };

/** The key rows' SQL. Every write after the claim is conditional on the claim token. */
export const idempotencyStore = {
  /**
   * Claims the key in one statement: a new row, or an expired one (or a claim of the same
   * request whose lease ran out) taken over, with a lease of `leaseMs`. Otherwise returns the
   * row that holds the key: completed (its answer), or in progress under a live lease.
   */
  async claim(
    conn: Conn,
    scope: KeyScope,
    hash: string,
    now: Date,
    leaseMs = DEFAULT_LEASE_MS,
  ): Promise<ClaimResult> {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const token = randomUUID();
      const expiresAt = new Date(now.getTime() + KEY_TTL_MS);
      const [won] = await conn
        .insert(idempotencyKeys)
        .values({
          ...scope,
          requestHash: hash,
          state: 'in_progress',
          claimToken: token,
          claimedAt: now,
          leaseExpiresAt: leaseFromNow(leaseMs),
          createdAt: now,
          expiresAt,
        })
        .onConflictDoUpdate({
          target: [
            idempotencyKeys.owner,
            idempotencyKeys.method,
            idempotencyKeys.route,
            idempotencyKeys.key,
          ],
          set: {
            requestHash: hash,
            state: 'in_progress',
            claimToken: token,
            claimedAt: now,
            leaseExpiresAt: leaseFromNow(leaseMs),
            responseStatus: null,
            responseBody: null,
            createdAt: now,
            completedAt: null,
            expiresAt,
          },
          // A completed row is never taken over before it expires: its work committed. An
          // in-progress row past its lease committed nothing (the work and the completion
          // are one transaction), and its holder can no longer commit once the token changes.
          setWhere: sql`${idempotencyKeys.expiresAt} <= ${now}
            or (${idempotencyKeys.state} = 'in_progress'
                and ${idempotencyKeys.leaseExpiresAt} <= now()
                and ${idempotencyKeys.requestHash} = ${hash})`,
        })
        .returning({ id: idempotencyKeys.id, token: idempotencyKeys.claimToken });
      if (won) return { kind: 'claimed', claim: { id: won.id, token: won.token } };
      const [row] = await conn
        .select()
        .from(idempotencyKeys)
        .where(
          and(
            eq(idempotencyKeys.owner, scope.owner),
            eq(idempotencyKeys.method, scope.method),
            eq(idempotencyKeys.route, scope.route),
            eq(idempotencyKeys.key, scope.key),
          ),
        );
      // Gone between the two statements (its claim was released): try to claim again.
      if (row) return { kind: 'existing', row };
    }
    throw new Error('idempotency key could not be claimed or read');
  },

  /** Stores the answer; false when the claim is no longer this request's. */
  async complete(
    conn: Conn,
    claim: Claim,
    answer: { status: number; body: string },
    now: Date,
  ): Promise<boolean> {
    const rows = await conn
      .update(idempotencyKeys)
      .set({
        state: 'completed',
        responseStatus: answer.status,
        responseBody: answer.body,
        completedAt: now,
      })
      .where(
        and(
          eq(idempotencyKeys.id, claim.id),
          eq(idempotencyKeys.claimToken, claim.token),
          eq(idempotencyKeys.state, 'in_progress'),
        ),
      )
      .returning({ id: idempotencyKeys.id });
    return rows.length > 0;
  },

  /**
   * Extends the leases of claims still held (in progress, same token) to `leaseMs` from now,
   * in one statement; returns the ids of those renewed. A row locked by a transaction (its
   * request completing it, or a retry taking it over) is skipped, never waited for: the
   * renewal holds no lock a request could wait on, and the next one catches up.
   */
  async renew(conn: Conn, held: readonly Claim[], leaseMs: number): Promise<bigint[]> {
    if (held.length === 0) return [];
    const lockable = conn
      .select({ id: idempotencyKeys.id })
      .from(idempotencyKeys)
      .where(
        and(
          inArray(
            idempotencyKeys.id,
            held.map((c) => c.id),
          ),
          inArray(
            idempotencyKeys.claimToken,
            held.map((c) => c.token),
          ),
          eq(idempotencyKeys.state, 'in_progress'),
        ),
      )
      .for('update', { skipLocked: true });
    const rows = await conn
      .update(idempotencyKeys)
      .set({ leaseExpiresAt: leaseFromNow(leaseMs) })
      .where(inArray(idempotencyKeys.id, lockable))
      .returning({ id: idempotencyKeys.id });
    return rows.map((r) => r.id);
  },

  /** Gives the key up (nothing stored), unless it was completed meanwhile. */
  async release(conn: Conn, claim: Claim): Promise<void> {
    await conn
      .delete(idempotencyKeys)
      .where(
        and(
          eq(idempotencyKeys.id, claim.id),
          eq(idempotencyKeys.claimToken, claim.token),
          eq(idempotencyKeys.state, 'in_progress'),
        ),
      );
  },

  /** Deletes expired keys; returns how many. */
  async sweep(conn: Conn, now: Date, batch = 1000): Promise<number> {
    const rows = await conn
      .delete(idempotencyKeys)
      .where(
        sql`${idempotencyKeys.id} in (select ${idempotencyKeys.id} from ${idempotencyKeys}
          where ${lte(idempotencyKeys.expiresAt, now)} limit ${batch})`,
      )
      .returning({ id: idempotencyKeys.id });
    return rows.length;
  },
};
