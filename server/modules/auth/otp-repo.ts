import { and, desc, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { Conn } from '../../db/client';
import { otpCodes } from '../../db/schema';

/**
 * Whose codes: a sign-in code belongs to an address (anyone may ask for one), an e-mail
 * change code to the signed-in user who asked, for one new address. A code of one purpose
 * never answers for the other.
 */
export type CodeScope =
  | { purpose: 'sign-in'; email: string }
  | { purpose: 'email-change'; userId: string; email: string };

/** The codes that compete with each other: a new one retires the others. */
function owner(scope: CodeScope): SQL | undefined {
  return scope.purpose === 'sign-in'
    ? and(eq(otpCodes.purpose, 'sign-in'), eq(otpCodes.email, scope.email))
    : and(eq(otpCodes.purpose, 'email-change'), eq(otpCodes.userId, scope.userId));
}

export const otpRepo = {
  /** Retires every outstanding code of the scope's owner, then stores the new one. */
  async replace(
    conn: Conn,
    scope: CodeScope,
    input: { codeHash: string; expiresAt: Date; ip: string; now: Date },
  ) {
    await this.retireAll(conn, scope, input.now);
    await conn.insert(otpCodes).values({
      purpose: scope.purpose,
      email: scope.email,
      userId: scope.purpose === 'email-change' ? scope.userId : null,
      codeHash: input.codeHash,
      expiresAt: input.expiresAt,
      requestedIp: input.ip,
    });
  },

  async retireAll(conn: Conn, scope: CodeScope, now: Date) {
    await conn
      .update(otpCodes)
      .set({ consumedAt: now })
      .where(and(owner(scope), isNull(otpCodes.consumedAt)));
  },

  /** The newest open code of the owner, only if it was sent to the scope's address. */
  async findLatestOpen(conn: Conn, scope: CodeScope) {
    const rows = await conn
      .select()
      .from(otpCodes)
      .where(and(owner(scope), isNull(otpCodes.consumedAt)))
      .orderBy(desc(otpCodes.createdAt))
      .limit(1);
    const row = rows[0];
    return row && row.email === scope.email ? row : null;
  },

  /** Counts a wrong try; the code is retired on the last allowed one. Returns tries so far. */
  async recordFailure(conn: Conn, id: string, maxAttempts: number, now: Date): Promise<number> {
    const rows = await conn
      .update(otpCodes)
      .set({
        attempts: sql`${otpCodes.attempts} + 1`,
        consumedAt: sql`case when ${otpCodes.attempts} + 1 >= ${maxAttempts} then ${now.toISOString()}::timestamptz else null end`,
      })
      .where(and(eq(otpCodes.id, id), isNull(otpCodes.consumedAt)))
      .returning({ attempts: otpCodes.attempts });
    return rows[0]?.attempts ?? maxAttempts;
  },

  /** Marks the code used; false when another request used or retired it first. */
  async consume(conn: Conn, id: string, now: Date): Promise<boolean> {
    const rows = await conn
      .update(otpCodes)
      .set({ consumedAt: now })
      .where(and(eq(otpCodes.id, id), isNull(otpCodes.consumedAt)))
      .returning({ id: otpCodes.id });
    return rows.length === 1;
  },
};
