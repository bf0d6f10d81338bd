import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { createdAt } from './columns';

/**
 * A credit purchase through PayPal. The server fixes amount and bonus when it creates the
 * order; the wallet is credited once, when PayPal reports that exact amount captured.
 */
export const paymentOrders = pgTable(
  'payment_orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    provider: text('provider').notNull().default('paypal'),
    paypalOrderId: text('paypal_order_id'),
    packageId: text('package_id'),
    amountMicros: bigint('amount_micros', { mode: 'bigint' }).notNull(),
    bonusMicros: bigint('bonus_micros', { mode: 'bigint' }).notNull().default(sql`0`),
    currency: text('currency').notNull().default('USD'),
    status: text('status').notNull().default('creating'),
    paypalCaptureId: text('paypal_capture_id'),
    reviewReason: text('review_reason'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('payment_orders_paypal_order_key').on(t.paypalOrderId),
    uniqueIndex('payment_orders_paypal_capture_key').on(t.paypalCaptureId),
    index('payment_orders_user_idx').on(t.userId, t.createdAt),
    check(
      'payment_orders_status_check',
      sql`${t.status} in ('creating', 'created', 'pending', 'completed', 'failed', 'review')`,
    ),
    check('payment_orders_amount_check', sql`${t.amountMicros} > 0 and ${t.bonusMicros} >= 0`),
    check(
      'payment_orders_completed_check',
      sql`${t.status} <> 'completed' or (${t.completedAt} is not null and ${t.paypalCaptureId} is not null)`,
    ),
  ],
);

/** Every status change of a payment order, with what caused it. */
export const paymentOrderEvents = pgTable(
  'payment_order_events',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => paymentOrders.id),
    fromStatus: text('from_status'),
    toStatus: text('to_status').notNull(),
    source: text('source').notNull(),
    note: text('note'),
    createdAt: createdAt(),
  },
  (t) => [index('payment_order_events_order_idx').on(t.orderId, t.id)],
);

/** PayPal webhook deliveries already handled (PayPal retries; each event counts once). */
export const paypalWebhookEvents = pgTable('paypal_webhook_events', {
  id: text('id').primaryKey(),
  eventType: text('event_type').notNull(),
  resourceId: text('resource_id'),
  outcome: text('outcome').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

export type PaymentOrder = typeof paymentOrders.$inferSelect;
