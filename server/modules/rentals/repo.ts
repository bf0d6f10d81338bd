import { and, desc, eq, isNull, lte, sql } from 'drizzle-orm';
import type { Conn } from '../../db/client';
import { gpuListings, providers, rentals } from '../../db/schema';

const viewColumns = {
  rental: rentals,
  listing: {
    model: gpuListings.model,
    location: gpuListings.location,
    isDemoHost: gpuListings.isDemoHost,
  },
  provider: { companyName: providers.companyName },
};

export type RentalRow = {
  rental: typeof rentals.$inferSelect;
  listing: { model: string; location: string; isDemoHost: boolean };
  provider: { companyName: string };
};

const SSH_PORT_FIRST = 22_000;
const SSH_PORT_LAST = 31_999;

export const rentalsRepo = {
  async insert(conn: Conn, values: typeof rentals.$inferInsert) {
    const [row] = await conn.insert(rentals).values(values).returning();
    if (!row) throw new Error('rental insert returned nothing');
    return row;
  },

  async lockById(conn: Conn, id: number) {
    const rows = await conn.select().from(rentals).where(eq(rentals.id, id)).for('update').limit(1);
    return rows[0] ?? null;
  },

  /** The rental with what its view needs, its row locked for the caller's transaction. */
  async lockView(conn: Conn, id: number): Promise<RentalRow | null> {
    const rows = await conn
      .select(viewColumns)
      .from(rentals)
      .innerJoin(gpuListings, eq(gpuListings.id, rentals.gpuListingId))
      .innerJoin(providers, eq(providers.id, rentals.providerId))
      .where(eq(rentals.id, id))
      .for('update', { of: rentals })
      .limit(1);
    return rows[0] ?? null;
  },

  listByUser(conn: Conn, userId: string): Promise<RentalRow[]> {
    return conn
      .select(viewColumns)
      .from(rentals)
      .innerJoin(gpuListings, eq(gpuListings.id, rentals.gpuListingId))
      .innerJoin(providers, eq(providers.id, rentals.providerId))
      .where(eq(rentals.userId, userId))
      .orderBy(desc(rentals.startTime), desc(rentals.id))
      .limit(500);
  },

  listByProvider(conn: Conn, providerId: number): Promise<RentalRow[]> {
    return conn
      .select(viewColumns)
      .from(rentals)
      .innerJoin(gpuListings, eq(gpuListings.id, rentals.gpuListingId))
      .innerJoin(providers, eq(providers.id, rentals.providerId))
      .where(eq(rentals.providerId, providerId))
      .orderBy(desc(rentals.startTime), desc(rentals.id))
      .limit(500);
  },

  /** Claims due work for this worker; rows another worker holds are skipped, not waited for. */
  async claimDue(conn: Conn, kind: 'ready' | 'timeout' | 'expiry', now: Date, limit: number) {
    const where =
      kind === 'ready'
        ? and(
            eq(rentals.status, 'active'),
            isNull(rentals.readyAt),
            lte(rentals.readyDueAt, now),
            sql`${rentals.readyDueAt} < ${rentals.provisioningDeadline}`,
          )
        : kind === 'timeout'
          ? and(
              eq(rentals.status, 'active'),
              isNull(rentals.readyAt),
              lte(rentals.provisioningDeadline, now),
            )
          : and(eq(rentals.status, 'active'), lte(rentals.endsAt, now));
    return conn
      .select()
      .from(rentals)
      .where(where)
      .orderBy(rentals.id)
      .limit(limit)
      .for('update', { skipLocked: true });
  },

  /** Marks an instance ready (as of readyAt) on a port no other active rental uses. */
  async markReady(conn: Conn, id: number, host: string, readyAt: Date): Promise<boolean> {
    const rows = await conn
      .update(rentals)
      .set({
        readyAt,
        sshHost: host,
        sshPort: sql`(select p from generate_series(${SSH_PORT_FIRST}::int, ${SSH_PORT_LAST}::int) as p
          where not exists (select 1 from ${rentals} r where r.status = 'active' and r.ssh_port = p)
          order by p limit 1)`,
      })
      .where(and(eq(rentals.id, id), eq(rentals.status, 'active'), isNull(rentals.readyAt)))
      .returning({ id: rentals.id });
    return rows.length === 1;
  },

  async markSettled(conn: Conn, id: number, values: Partial<typeof rentals.$inferInsert>) {
    await conn.update(rentals).set(values).where(eq(rentals.id, id));
  },

  async countActiveByUser(conn: Conn, userId: string): Promise<number> {
    const rows = await conn
      .select({ n: sql<number>`count(*)::int` })
      .from(rentals)
      .where(and(eq(rentals.userId, userId), eq(rentals.status, 'active')));
    return rows[0]?.n ?? 0;
  },
};
