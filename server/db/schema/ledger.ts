import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  customType,
  index,
  integer,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { createdAt } from './columns';
import { providers } from './marketplace';

/**
 * The ledger (docs/rules.md, Money; docs/decisions/002). Wallets and provider earnings
 * keep a cached balance; shared system accounts (escrow, platform revenue, promotions,
 * payment clearing) do not, so no single row is updated by every charge.
 */
export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind').notNull(),
    userId: uuid('user_id').references(() => users.id),
    providerId: integer('provider_id').references(() => providers.id),
    balanceMicros: bigint('balance_micros', { mode: 'bigint' }).notNull().default(sql`0`),
    tracksBalance: boolean('tracks_balance').notNull(),
    /** Wallets and earnings: their events' sequence (docs/decisions/027), bumped by the ledger's trigger. */
    eventSeq: integer('event_seq').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('ledger_accounts_user_kind_key').on(t.kind, t.userId),
    uniqueIndex('ledger_accounts_provider_kind_key').on(t.kind, t.providerId),
    uniqueIndex('ledger_accounts_system_kind_key')
      .on(t.kind)
      .where(sql`${t.userId} is null and ${t.providerId} is null`),
    check(
      'ledger_accounts_kind_check',
      sql`${t.kind} in ('wallet', 'provider_earnings', 'platform_revenue', 'payment_clearing', 'promotions', 'escrow')`,
    ),
    check(
      'ledger_accounts_wallet_nonnegative',
      sql`${t.kind} <> 'wallet' or ${t.balanceMicros} >= 0`,
    ),
    check(
      'ledger_accounts_owner_check',
      sql`(${t.kind} = 'wallet') = (${t.userId} is not null) and (${t.kind} = 'provider_earnings') = (${t.providerId} is not null)`,
    ),
  ],
);

export const ledgerTransactions = pgTable(
  'ledger_transactions',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind').notNull(),
    memo: text('memo').notNull(),
    idempotencyKey: text('idempotency_key'),
    /** What caused it, e.g. "rental:42" or "paypal-capture:…". */
    reference: text('reference'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('ledger_transactions_idempotency_key').on(t.idempotencyKey),
    index('ledger_transactions_reference_idx').on(t.reference),
  ],
);

export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    transactionId: bigint('transaction_id', { mode: 'bigint' })
      .notNull()
      .references(() => ledgerTransactions.id),
    accountId: integer('account_id')
      .notNull()
      .references(() => ledgerAccounts.id),
    amountMicros: bigint('amount_micros', { mode: 'bigint' }).notNull(),
    /** The top-level transaction that wrote it (its event reads the balance it left, migration 0037). */
    txid: customType<{ data: string }>({ dataType: () => 'xid8' })('txid')
      .notNull()
      .default(sql`pg_current_xact_id()`),
    createdAt: createdAt(),
  },
  (t) => [
    index('ledger_entries_account_idx').on(t.accountId),
    /** The credit history's pages (migration 0029). */
    index('ledger_entries_account_id_idx').on(t.accountId, t.id),
    index('ledger_entries_transaction_idx').on(t.transactionId),
    check('ledger_entries_nonzero', sql`${t.amountMicros} <> 0`),
  ],
);

export type LedgerAccount = typeof ledgerAccounts.$inferSelect;
