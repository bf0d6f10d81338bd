/**
 * The single source of entity types (docs/architecture.md, Folders), one file per area under
 * schema/. Migrations are generated from these by drizzle-kit into server/db/migrations
 * and committed.
 */
export * from './schema/accounts';
export * from './schema/content';
export * from './schema/events';
export * from './schema/idempotency';
export * from './schema/instances';
export * from './schema/ledger';
export * from './schema/marketplace';
export * from './schema/outages';
export * from './schema/payments';
export * from './schema/provider-applications';
export * from './schema/rate-limits';
export * from './schema/spend-caps';
export * from './schema/two-factor';
export * from './schema/webhooks';
