-- A listing's reliability is written into the statements that read it
-- (server/modules/listings/reliability-sql.ts, issue 43): these SQL functions of migration
-- 0040 were planned again on every call (a SQL function with a subquery is never inlined),
-- 40 µs a listing, two thirds of a marketplace page's database time. Nothing calls them now.
DROP FUNCTION listing_reliability_json(text, boolean, integer, timestamptz, timestamptz);--> statement-breakpoint
DROP FUNCTION listing_uptime_percent(text, boolean, integer, timestamptz, timestamptz);--> statement-breakpoint
DROP FUNCTION listing_window_start(text, boolean, timestamptz, timestamptz);
