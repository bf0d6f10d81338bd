import { and, count, eq, gt, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { Conn, Db } from '../../../db/client';
import { consoleSessions, instances } from '../../../db/schema';

/** The open web consoles of every server process (console/slots.ts, `console_sessions`). */
export const consoleSessionsRepo = {
  /**
   * One more session for the user when fewer than `limit` are live, under a lock on the
   * user's row (so two processes never both take the last place); the user's expired rows
   * (a dead process's) go first. False when the user is at the limit.
   */
  take(
    db: Db,
    row: { id: string; userId: string; owner: string; now: Date; expiresAt: Date },
    limit: number,
  ): Promise<boolean> {
    return db.transaction(async (tx) => {
      await tx.execute(sql`select 1 from users where id = ${row.userId} for no key update`);
      await tx
        .delete(consoleSessions)
        .where(
          and(eq(consoleSessions.userId, row.userId), lte(consoleSessions.expiresAt, row.now)),
        );
      const [live] = await tx
        .select({ n: count() })
        .from(consoleSessions)
        .where(eq(consoleSessions.userId, row.userId));
      if ((live?.n ?? 0) >= limit) return false;
      await tx.insert(consoleSessions).values({
        id: row.id,
        userId: row.userId,
        owner: row.owner,
        openedAt: row.now,
        expiresAt: row.expiresAt,
      });
      return true;
    });
  },

  async countLive(conn: Conn, userId: string, now: Date): Promise<number> {
    const [live] = await conn
      .select({ n: count() })
      .from(consoleSessions)
      .where(and(eq(consoleSessions.userId, userId), gt(consoleSessions.expiresAt, now)));
    return live?.n ?? 0;
  },

  /** Extends these sessions' leases; a row that was swept meanwhile is put back. */
  async renew(
    conn: Conn,
    rows: { id: string; userId: string }[],
    owner: string,
    now: Date,
    expiresAt: Date,
  ): Promise<void> {
    await conn
      .insert(consoleSessions)
      .values(rows.map((r) => ({ id: r.id, userId: r.userId, owner, openedAt: now, expiresAt })))
      .onConflictDoUpdate({ target: consoleSessions.id, set: { expiresAt } });
  },

  async remove(conn: Conn, ids: string[]): Promise<void> {
    await conn.delete(consoleSessions).where(inArray(consoleSessions.id, ids));
  },
};

/** The guest's SSH host key on the instance, as the console checks it (console/session.ts). */
export const consoleHostKeyRepo = {
  /**
   * Pins `key` as the host key of this run when none is stored (the host did not report one,
   * no console pinned one yet), then answers the key stored for the run: the one pinned here
   * or one stored before. Two statements, so a pin another process made meanwhile is seen.
   * Null when the run is over (the instance moved on from `generation`, or left running).
   */
  async pin(
    conn: Conn,
    run: { id: number; generation: number },
    key: { line: string; fingerprint: string },
  ): Promise<string | null> {
    const thisRun = and(
      eq(instances.id, run.id),
      eq(instances.generation, run.generation),
      eq(instances.status, 'running'),
    );
    await conn
      .update(instances)
      .set({ sshHostKey: key.line, sshHostKeyFingerprint: key.fingerprint })
      .where(and(thisRun, isNull(instances.sshHostKey)));
    const [row] = await conn.select({ line: instances.sshHostKey }).from(instances).where(thisRun);
    return row?.line ?? null;
  },
};
