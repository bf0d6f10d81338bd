import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Conn } from '../../db/client';
import { twoFactorChallenges, twoFactorRecoveryCodes, userTwoFactor } from '../../db/schema';

/** Rows of docs/decisions/023-two-factor-sign-in.md; every use-once step is a conditional UPDATE. */
export const twoFactorRepo = {
  async find(conn: Conn, userId: string) {
    const [row] = await conn.select().from(userTwoFactor).where(eq(userTwoFactor.userId, userId));
    return row ?? null;
  },

  /** A new pending secret replaces a pending one; an enabled one is left alone (no row back). */
  async putPending(conn: Conn, userId: string, secret: string) {
    const rows = await conn
      .insert(userTwoFactor)
      .values({ userId, secret })
      .onConflictDoUpdate({
        target: userTwoFactor.userId,
        set: { secret, lastStep: 0, createdAt: sql`now()` },
        setWhere: isNull(userTwoFactor.enabledAt),
      })
      .returning({ userId: userTwoFactor.userId });
    return rows.length === 1;
  },

  /** Turns a pending secret on at the step of the code that proved it. */
  async enable(conn: Conn, userId: string, step: number, now: Date) {
    const rows = await conn
      .update(userTwoFactor)
      .set({ enabledAt: now, lastStep: step })
      .where(and(eq(userTwoFactor.userId, userId), isNull(userTwoFactor.enabledAt)))
      .returning({ userId: userTwoFactor.userId });
    return rows.length === 1;
  },

  /** Accepts a time step only after the last accepted one: false for a replayed code. */
  async acceptStep(conn: Conn, userId: string, step: number) {
    const rows = await conn
      .update(userTwoFactor)
      .set({ lastStep: step })
      .where(and(eq(userTwoFactor.userId, userId), lt(userTwoFactor.lastStep, step)))
      .returning({ userId: userTwoFactor.userId });
    return rows.length === 1;
  },

  async remove(conn: Conn, userId: string) {
    await conn.delete(userTwoFactor).where(eq(userTwoFactor.userId, userId));
    await conn.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, userId));
    await conn.delete(twoFactorChallenges).where(eq(twoFactorChallenges.userId, userId));
  },

  async replaceRecoveryCodes(conn: Conn, userId: string, hashes: string[]) {
    await conn.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, userId));
    await conn
      .insert(twoFactorRecoveryCodes)
      .values(hashes.map((codeHash) => ({ userId, codeHash })));
  },

  async spendRecoveryCode(conn: Conn, userId: string, codeHash: string, now: Date) {
    const rows = await conn
      .update(twoFactorRecoveryCodes)
      .set({ usedAt: now })
      .where(
        and(
          eq(twoFactorRecoveryCodes.userId, userId),
          eq(twoFactorRecoveryCodes.codeHash, codeHash),
          isNull(twoFactorRecoveryCodes.usedAt),
        ),
      )
      .returning({ id: twoFactorRecoveryCodes.id });
    return rows.length === 1;
  },

  async insertChallenge(conn: Conn, userId: string, tokenHash: string, expiresAt: Date) {
    await conn.insert(twoFactorChallenges).values({ userId, tokenHash, expiresAt });
  },

  async findOpenChallenge(conn: Conn, tokenHash: string, now: Date) {
    const [row] = await conn
      .select()
      .from(twoFactorChallenges)
      .where(
        and(
          eq(twoFactorChallenges.tokenHash, tokenHash),
          isNull(twoFactorChallenges.consumedAt),
          gt(twoFactorChallenges.expiresAt, now),
        ),
      );
    return row ?? null;
  },

  /** Counts a wrong try; the last allowed one retires the challenge. Returns the count. */
  async failChallenge(conn: Conn, id: string, maxAttempts: number, now: Date) {
    const [row] = await conn
      .update(twoFactorChallenges)
      .set({
        attempts: sql`${twoFactorChallenges.attempts} + 1`,
        consumedAt: sql`case when ${twoFactorChallenges.attempts} + 1 >= ${maxAttempts} then ${now.toISOString()}::timestamptz else null end`,
      })
      .where(and(eq(twoFactorChallenges.id, id), isNull(twoFactorChallenges.consumedAt)))
      .returning({ attempts: twoFactorChallenges.attempts });
    return row?.attempts ?? maxAttempts;
  },

  async consumeChallenge(conn: Conn, id: string, now: Date) {
    const rows = await conn
      .update(twoFactorChallenges)
      .set({ consumedAt: now })
      .where(and(eq(twoFactorChallenges.id, id), isNull(twoFactorChallenges.consumedAt)))
      .returning({ id: twoFactorChallenges.id });
    return rows.length === 1;
  },
};
