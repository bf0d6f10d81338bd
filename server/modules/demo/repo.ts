import { and, asc, eq, isNull, ne, sql } from 'drizzle-orm';
import { DEMO_USER_EMAIL } from '../../../shared/constants';
import type { Conn, Tx } from '../../db/client';
import { apiKeys, gpuListings, providers, sessions, users } from '../../db/schema';

/**
 * A demo visitor's account that nobody has used for idleMs: made at least that long ago,
 * no session seen since (or none left), no API key used since. The shared seeded demo
 * account never qualifies.
 */
function dueCondition(now: Date, idleMs: number) {
  const cutoff = new Date(now.getTime() - idleMs);
  return and(
    eq(users.isDemo, true),
    isNull(users.deletedAt),
    ne(users.email, DEMO_USER_EMAIL),
    sql`${users.createdAt} <= ${cutoff}`,
    sql`not exists (select 1 from ${sessions} where ${sessions.userId} = ${users.id}
          and ${sessions.expiresAt} > ${now} and ${sessions.lastSeenAt} > ${cutoff})`,
    sql`not exists (select 1 from ${apiKeys} where ${apiKeys.userId} = ${users.id}
          and ${apiKeys.revokedAt} is null and ${apiKeys.lastUsedAt} > ${cutoff})`,
  );
}

export const demoRepo = {
  /** Candidates for the cleanup, oldest first (read without locks; claimDue decides). */
  async findDueIds(conn: Conn, now: Date, idleMs: number, limit: number): Promise<string[]> {
    const rows = await conn
      .select({ id: users.id })
      .from(users)
      .where(dueCondition(now, idleMs))
      .orderBy(asc(users.createdAt))
      .limit(limit);
    return rows.map((r) => r.id);
  },

  /**
   * Locks the account if it is still due; null when another process holds it (SKIP LOCKED)
   * or it was used or cleaned up meanwhile.
   */
  async claimDue(tx: Tx, userId: string, now: Date, idleMs: number) {
    const rows = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, userId), dueCondition(now, idleMs)))
      .for('update', { skipLocked: true })
      .limit(1);
    return rows[0] ?? null;
  },

  async isVisitorAccount(conn: Conn, userId: string): Promise<boolean> {
    const rows = await conn
      .select({ id: users.id })
      .from(users)
      .where(
        and(
          eq(users.id, userId),
          eq(users.isDemo, true),
          isNull(users.deletedAt),
          ne(users.email, DEMO_USER_EMAIL),
        ),
      )
      .limit(1);
    return rows.length > 0;
  },

  /** Takes the listings of the user's sandbox provider off (rows stay for rental history). */
  async removeSandboxListings(tx: Tx, userId: string, now: Date): Promise<number> {
    const rows = await tx
      .update(gpuListings)
      .set({ removedAt: now })
      .where(
        and(
          isNull(gpuListings.removedAt),
          sql`${gpuListings.providerId} in (select ${providers.id} from ${providers}
                where ${providers.userId} = ${userId} and ${providers.isSandbox})`,
        ),
      )
      .returning({ id: gpuListings.id });
    return rows.length;
  },
};
