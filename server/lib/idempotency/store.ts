import { randomUUID } from 'node:crypto';
import { and, eq, lte, sql } from 'drizzle-orm';
import type { Conn } from '../../db/client';
import { type IdempotencyKey, idempotencyKeys } from '../../db/schema';

/** How long a key's answer is kept and replayed. */
export const KEY_TTL_MS = 24 * 60 * 60_000;
/**
 * An in-progress claim older than this is taken to be abandoned (its process died) and may
 * be claimed again by a retry with the same request. A money route cannot move money twice
 * even then: its completion is conditional on the claim token, inside its own transaction.
 */
export const CLAIM_LEASE_MS = 5 * 60_000;

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
   * Claims the key in one statement: a new row, or an expired one (or an abandoned claim of
   * the same request) taken over. Otherwise returns the row that holds the key.
   */
  async claim(conn: Conn, scope: KeyScope, hash: string, now: Date): Promise<ClaimResult> {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const token = randomUUID();
      const expiresAt = new Date(now.getTime() + KEY_TTL_MS);
      const staleBefore = new Date(now.getTime() - CLAIM_LEASE_MS);
      const [won] = await conn
        .insert(idempotencyKeys)
        .values({
          ...scope,
          requestHash: hash,
          state: 'in_progress',
          claimToken: token,
          claimedAt: now,
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
            responseStatus: null,
            responseBody: null,
            createdAt: now,
            completedAt: null,
            expiresAt,
          },
          setWhere: sql`${idempotencyKeys.expiresAt} <= ${now}
            or (${idempotencyKeys.state} = 'in_progress'
                and ${idempotencyKeys.claimedAt} <= ${staleBefore}
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
