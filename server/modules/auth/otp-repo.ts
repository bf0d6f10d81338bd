import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Conn } from '../../db/client';
import { otpCodes } from '../../db/schema';

export const otpRepo = {
  /** Retires every outstanding code for the address, then stores the new one. */
  async replace(
    conn: Conn,
    input: { email: string; codeHash: string; expiresAt: Date; ip: string; now: Date },
  ) {
    await conn
      .update(otpCodes)
      .set({ consumedAt: input.now })
      .where(and(eq(otpCodes.email, input.email), isNull(otpCodes.consumedAt)));
    await conn.insert(otpCodes).values({
      email: input.email,
      codeHash: input.codeHash,
      expiresAt: input.expiresAt,
      requestedIp: input.ip,
    });
  },

  async findLatestOpen(conn: Conn, email: string) {
    const rows = await conn
      .select()
      .from(otpCodes)
      .where(and(eq(otpCodes.email, email), isNull(otpCodes.consumedAt)))
      .orderBy(desc(otpCodes.createdAt))
      .limit(1);
    return rows[0] ?? null;
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
