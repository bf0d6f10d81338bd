import { desc, eq } from 'drizzle-orm';
import type { Conn } from '../../db/client';
import { contactMessages } from '../../db/schema';

export type ContactMessageRow = typeof contactMessages.$inferSelect;
export type NewContactMessage = typeof contactMessages.$inferInsert;

export const contactRepo = {
  async insert(conn: Conn, message: NewContactMessage): Promise<ContactMessageRow> {
    const [row] = await conn.insert(contactMessages).values(message).returning();
    if (!row) throw new Error('contact message insert returned nothing');
    return row;
  },

  async markEmailed(conn: Conn, id: string, at: Date): Promise<void> {
    await conn.update(contactMessages).set({ emailedAt: at }).where(eq(contactMessages.id, id));
  },

  /** Newest first. */
  async listRecent(conn: Conn, limit: number): Promise<ContactMessageRow[]> {
    return conn
      .select()
      .from(contactMessages)
      .orderBy(desc(contactMessages.createdAt), desc(contactMessages.id))
      .limit(limit);
  },
};
