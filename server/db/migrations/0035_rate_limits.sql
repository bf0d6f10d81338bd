-- Rate limits counted once for every server process on one PostgreSQL without Redis (issue 39:
-- each process's memory let each allow the whole limit). One row per counter and fixed window:
-- a hit is one upsert (server/lib/rate-limit.ts, DatabaseRateLimiter); rows whose window ended
-- are deleted by the processes as they go. UNLOGGED: a counter needs no crash safety (a crash
-- of PostgreSQL empties the table, which ends every window early) and skips the WAL.
CREATE UNLOGGED TABLE "rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"count" integer NOT NULL,
	"reset_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "rate_limits_reset_idx" ON "rate_limits" USING btree ("reset_at");
