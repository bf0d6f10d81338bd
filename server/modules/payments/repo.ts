import { desc, eq, sql } from 'drizzle-orm';
import type { Conn } from '../../db/client';
import {
  type PaymentOrder,
  paymentOrderEvents,
  paymentOrders,
  paypalWebhookEvents,
} from '../../db/schema';

export type OrderStatus = 'creating' | 'created' | 'pending' | 'completed' | 'failed' | 'review';

export const paymentsRepo = {
  async insertOrder(conn: Conn, values: typeof paymentOrders.$inferInsert): Promise<PaymentOrder> {
    const [row] = await conn.insert(paymentOrders).values(values).returning();
    if (!row) throw new Error('payment order insert returned nothing');
    return row;
  },

  async findByPaypalOrderId(conn: Conn, paypalOrderId: string) {
    const rows = await conn
      .select()
      .from(paymentOrders)
      .where(eq(paymentOrders.paypalOrderId, paypalOrderId))
      .limit(1);
    return rows[0] ?? null;
  },

  async findByCaptureId(conn: Conn, captureId: string) {
    const rows = await conn
      .select()
      .from(paymentOrders)
      .where(eq(paymentOrders.paypalCaptureId, captureId))
      .limit(1);
    return rows[0] ?? null;
  },

  async findById(conn: Conn, id: string) {
    const rows = await conn.select().from(paymentOrders).where(eq(paymentOrders.id, id)).limit(1);
    return rows[0] ?? null;
  },

  /** Locks the order row: two captures of one order settle one after the other. */
  async lockById(conn: Conn, id: string) {
    const rows = await conn
      .select()
      .from(paymentOrders)
      .where(eq(paymentOrders.id, id))
      .for('update')
      .limit(1);
    return rows[0] ?? null;
  },

  async update(
    conn: Conn,
    id: string,
    patch: Partial<
      Pick<
        typeof paymentOrders.$inferInsert,
        'status' | 'paypalOrderId' | 'paypalCaptureId' | 'reviewReason' | 'completedAt'
      >
    >,
  ) {
    await conn
      .update(paymentOrders)
      .set({ ...patch, updatedAt: sql`now()` })
      .where(eq(paymentOrders.id, id));
  },

  async insertEvent(
    conn: Conn,
    event: {
      orderId: string;
      fromStatus: string | null;
      toStatus: string;
      source: string;
      note?: string | null;
    },
  ) {
    await conn.insert(paymentOrderEvents).values({ ...event, note: event.note ?? null });
  },

  listEvents(conn: Conn, orderId: string) {
    return conn
      .select()
      .from(paymentOrderEvents)
      .where(eq(paymentOrderEvents.orderId, orderId))
      .orderBy(paymentOrderEvents.id);
  },

  listByUser(conn: Conn, userId: string, limit = 200) {
    return conn
      .select()
      .from(paymentOrders)
      .where(eq(paymentOrders.userId, userId))
      .orderBy(desc(paymentOrders.createdAt))
      .limit(limit);
  },

  async findWebhookEvent(conn: Conn, id: string) {
    const rows = await conn
      .select()
      .from(paypalWebhookEvents)
      .where(eq(paypalWebhookEvents.id, id))
      .limit(1);
    return rows[0] ?? null;
  },

  async recordWebhookEvent(
    conn: Conn,
    event: { id: string; eventType: string; resourceId: string | null; outcome: string },
  ) {
    await conn.insert(paypalWebhookEvents).values(event).onConflictDoNothing();
  },
};
