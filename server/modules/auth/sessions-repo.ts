import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Conn } from '../../db/client';
import { compiled } from '../../db/compiled';
import { sessions, users } from '../../db/schema';

/**
 * The live sessions of several tokens at once: every signed-in request's lookup, shared by
 * the requests that arrived together (server/lib/batched-lookup.ts). One statement, built
 * once (server/db/compiled.ts), whatever the number of tokens.
 */
const findLiveSessions = compiled('sessions_find_live_many', (conn) =>
  conn
    .select({
      tokenHash: sessions.tokenHash,
      sessionId: sessions.id,
      userId: sessions.userId,
      expiresAt: sessions.expiresAt,
      lastSeenAt: sessions.lastSeenAt,
      isAdmin: users.isAdmin,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        sql`${sessions.tokenHash} = any(${sql.placeholder('tokenHashes')}::text[])`,
        sql`${sessions.expiresAt} > ${sql.placeholder('now')}::timestamptz`,
      ),
    ),
);

export const sessionsRepo = {
  async insert(
    conn: Conn,
    input: {
      tokenHash: string;
      userId: string;
      expiresAt: Date;
      userAgent: string | null;
      ip: string;
      lastSeenAt?: Date;
    },
  ) {
    await conn.insert(sessions).values(input);
  },

  async deleteByTokenHash(conn: Conn, tokenHash: string) {
    await conn.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
  },

  async findLive(conn: Conn, tokenHash: string, now: Date) {
    const [row] = await sessionsRepo.findLiveMany(conn, [tokenHash], now);
    if (!row) return null;
    const { tokenHash: _, ...live } = row;
    return live;
  },

  async findLiveMany(conn: Conn, tokenHashes: readonly string[], now: Date) {
    return findLiveSessions(conn, { tokenHashes, now: now.toISOString() });
  },

  async touch(conn: Conn, sessionIds: readonly string[], at: Date) {
    if (sessionIds.length === 0) return;
    await conn
      .update(sessions)
      .set({ lastSeenAt: at })
      .where(inArray(sessions.id, [...sessionIds]));
  },

  async setExpiry(conn: Conn, sessionId: string, expiresAt: Date) {
    await conn.update(sessions).set({ expiresAt }).where(eq(sessions.id, sessionId));
  },

  /** Shortens the user's other sessions to end by the cap at the latest. */
  async capOthers(conn: Conn, userId: string, exceptSessionId: string, cap: Date) {
    await conn
      .update(sessions)
      .set({ expiresAt: sql`least(${sessions.expiresAt}, ${cap})` })
      .where(and(eq(sessions.userId, userId), ne(sessions.id, exceptSessionId)));
  },

  /** Ends every session of the user but one. */
  async deleteOthers(conn: Conn, userId: string, exceptSessionId: string) {
    await conn
      .delete(sessions)
      .where(and(eq(sessions.userId, userId), ne(sessions.id, exceptSessionId)));
  },

  async deleteByUser(conn: Conn, userId: string) {
    await conn.delete(sessions).where(eq(sessions.userId, userId));
  },
};
