import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { ProviderApplication } from '../../../shared/contracts/provider-application';
import type { Conn } from '../../db/client';
import { providerApplications } from '../../db/schema';

export const providerApplicationsRepo = {
  async insert(conn: Conn, userId: string, application: ProviderApplication) {
    const [row] = await conn
      .insert(providerApplications)
      .values({ userId, application })
      .onConflictDoNothing()
      .returning();
    return row ?? null;
  },

  async findPendingByUser(conn: Conn, userId: string) {
    const rows = await conn
      .select()
      .from(providerApplications)
      .where(
        and(eq(providerApplications.userId, userId), eq(providerApplications.status, 'pending')),
      )
      .limit(1);
    return rows[0] ?? null;
  },

  async latestByUser(conn: Conn, userId: string) {
    const rows = await conn
      .select()
      .from(providerApplications)
      .where(eq(providerApplications.userId, userId))
      .orderBy(desc(providerApplications.createdAt), desc(providerApplications.id))
      .limit(1);
    return rows[0] ?? null;
  },

  /** Pending first, then newest first. */
  list(conn: Conn, limit: number) {
    return conn
      .select()
      .from(providerApplications)
      .orderBy(
        asc(sql`case when ${providerApplications.status} = 'pending' then 0 else 1 end`),
        desc(providerApplications.createdAt),
      )
      .limit(limit);
  },

  async lockById(conn: Conn, id: string) {
    const rows = await conn
      .select()
      .from(providerApplications)
      .where(eq(providerApplications.id, id))
      .for('update');
    return rows[0] ?? null;
  },

  async deleteAllForUser(conn: Conn, userId: string) {
    await conn.delete(providerApplications).where(eq(providerApplications.userId, userId));
  },

  async review(
    conn: Conn,
    id: string,
    values: {
      status: 'approved' | 'rejected';
      reviewedBy: string;
      reviewedAt: Date;
      rejectionReason?: string;
      providerId?: number;
    },
  ) {
    const [row] = await conn
      .update(providerApplications)
      .set(values)
      .where(and(eq(providerApplications.id, id), eq(providerApplications.status, 'pending')))
      .returning();
    return row ?? null;
  },
};
