import { eq, sql } from 'drizzle-orm';
import type { Conn } from '../../db/client';
import { providers } from '../../db/schema';

export const providersRepo = {
  async findByUserId(conn: Conn, userId: string) {
    const rows = await conn.select().from(providers).where(eq(providers.userId, userId)).limit(1);
    return rows[0] ?? null;
  },

  async findByCompanyName(conn: Conn, companyName: string) {
    const rows = await conn
      .select({ id: providers.id })
      .from(providers)
      .where(sql`lower(${providers.companyName}) = lower(${companyName})`)
      .limit(1);
    return rows[0] ?? null;
  },

  async insert(conn: Conn, values: { userId: string; companyName: string; location: string }) {
    const [row] = await conn.insert(providers).values(values).returning();
    if (!row) throw new Error('provider insert returned nothing');
    return row;
  },
};
