import { eq } from 'drizzle-orm';
import type { Conn } from '../../db/client';
import { providers } from '../../db/schema';

export const providersRepo = {
  async findByUserId(conn: Conn, userId: string) {
    const rows = await conn.select().from(providers).where(eq(providers.userId, userId)).limit(1);
    return rows[0] ?? null;
  },
};
