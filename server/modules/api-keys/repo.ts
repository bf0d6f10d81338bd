import { and, desc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Conn } from '../../db/client';
import { apiKeys } from '../../db/schema';

export const apiKeysRepo = {
  async insert(conn: Conn, values: typeof apiKeys.$inferInsert) {
    const [row] = await conn.insert(apiKeys).values(values).returning();
    if (!row) throw new Error('api key insert returned nothing');
    return row;
  },

  /** Keys that were not revoked, newest first (expired ones included, marked by expiresAt). */
  listLive(conn: Conn, userId: string) {
    return conn
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
      .orderBy(desc(apiKeys.createdAt));
  },

  async countLive(conn: Conn, userId: string): Promise<number> {
    const rows = await conn
      .select({ n: sql<number>`count(*)::int` })
      .from(apiKeys)
      .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)));
    return rows[0]?.n ?? 0;
  },

  async revoke(conn: Conn, userId: string, id: string, at: Date): Promise<boolean> {
    const rows = await conn
      .update(apiKeys)
      .set({ revokedAt: at })
      .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
      .returning({ id: apiKeys.id });
    return rows.length > 0;
  },

  /** The live key with this hash: not revoked, not expired. */
  async findUsable(conn: Conn, keyHash: string, now: Date) {
    const rows = await conn
      .select()
      .from(apiKeys)
      .where(
        and(
          eq(apiKeys.keyHash, keyHash),
          isNull(apiKeys.revokedAt),
          or(isNull(apiKeys.expiresAt), sql`${apiKeys.expiresAt} > ${now}`),
        ),
      )
      .limit(1);
    return rows[0] ?? null;
  },

  /** Records use at most once a minute per key, so a busy key is not a hot row. */
  async touch(conn: Conn, id: string, now: Date) {
    await conn
      .update(apiKeys)
      .set({ lastUsedAt: now })
      .where(
        and(
          eq(apiKeys.id, id),
          or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, new Date(now.getTime() - 60_000))),
        ),
      );
  },

  /** Rotation policy: every live key expires that long after its creation (null: never). */
  async setExpiryFromCreation(conn: Conn, userId: string, periodMs: number | null) {
    await conn
      .update(apiKeys)
      .set({
        expiresAt:
          periodMs === null
            ? null
            : sql`${apiKeys.createdAt} + make_interval(secs => ${periodMs / 1000})`,
      })
      .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)));
  },

  listAll(conn: Conn, userId: string) {
    return conn.select().from(apiKeys).where(eq(apiKeys.userId, userId)).orderBy(apiKeys.createdAt);
  },

  async deleteByUser(conn: Conn, userId: string) {
    await conn.delete(apiKeys).where(eq(apiKeys.userId, userId));
  },
};
