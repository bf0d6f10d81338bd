import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Conn } from '../../db/client';
import { sshKeys } from '../../db/schema';

export const sshKeysRepo = {
  /** Inserts unless the user already has this key; null then. */
  async insert(conn: Conn, values: typeof sshKeys.$inferInsert) {
    const rows = await conn.insert(sshKeys).values(values).onConflictDoNothing().returning();
    return rows[0] ?? null;
  },

  listByUser(conn: Conn, userId: string) {
    return conn
      .select()
      .from(sshKeys)
      .where(eq(sshKeys.userId, userId))
      .orderBy(desc(sshKeys.createdAt));
  },

  publicKeysOf(conn: Conn, userIds: string[]) {
    return conn
      .select({ userId: sshKeys.userId, publicKey: sshKeys.publicKey })
      .from(sshKeys)
      .where(inArray(sshKeys.userId, userIds));
  },

  listByIds(conn: Conn, userId: string, ids: string[]) {
    return conn
      .select()
      .from(sshKeys)
      .where(and(eq(sshKeys.userId, userId), inArray(sshKeys.id, ids)));
  },

  async countByUser(conn: Conn, userId: string): Promise<number> {
    const rows = await conn
      .select({ n: sql<number>`count(*)::int` })
      .from(sshKeys)
      .where(eq(sshKeys.userId, userId));
    return rows[0]?.n ?? 0;
  },

  async remove(conn: Conn, userId: string, id: string): Promise<boolean> {
    const rows = await conn
      .delete(sshKeys)
      .where(and(eq(sshKeys.id, id), eq(sshKeys.userId, userId)))
      .returning({ id: sshKeys.id });
    return rows.length > 0;
  },

  async deleteByUser(conn: Conn, userId: string) {
    await conn.delete(sshKeys).where(eq(sshKeys.userId, userId));
  },
};
