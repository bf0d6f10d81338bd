-- The marketplace's sort indexes carry what a free-text page's choosing statement reads
-- (server/modules/listings/page-statements.ts, issue 43): the search text, the GPU type, the
-- ready-to-run columns, the filters' columns and a descending sort's own column. Such a
-- statement (ids only, in the sort's order) then walks the index alone, an index-only scan,
-- without a heap page for every listing it passes: `city 42` at 100,000 listings passes 4,781
-- (2.3 ms on the heap, 0.6 ms in the index), `city 1` with H100 by price 2,135 (3.0 ms, 0.35 ms).
-- A listing changed since the last VACUUM is read from the heap as before (its page is not yet
-- all-visible). Names unchanged; drizzle's index builder has no INCLUDE (the schema says so).
DROP INDEX "gpu_listings_market_id_idx";
--> statement-breakpoint
CREATE INDEX "gpu_listings_market_id_idx" ON "gpu_listings" USING btree ("id") INCLUDE ("gpu_hour_rate_micros","search_text","model","is_demo_host","host_online","unready_gpus","total_count","gpu_count","gpu_memory_gb") WHERE "gpu_listings"."removed_at" is null and "gpu_listings"."status" in ('available', 'rented') and not "gpu_listings"."is_sandbox";
--> statement-breakpoint
DROP INDEX "gpu_listings_market_rate_idx";
--> statement-breakpoint
CREATE INDEX "gpu_listings_market_rate_idx" ON "gpu_listings" USING btree ("hourly_rate_micros","id") INCLUDE ("gpu_hour_rate_micros","search_text","model","is_demo_host","host_online","unready_gpus","total_count","gpu_count","gpu_memory_gb") WHERE "gpu_listings"."removed_at" is null and "gpu_listings"."status" in ('available', 'rented') and not "gpu_listings"."is_sandbox";
--> statement-breakpoint
DROP INDEX "gpu_listings_market_rate_desc_idx";
--> statement-breakpoint
CREATE INDEX "gpu_listings_market_rate_desc_idx" ON "gpu_listings" USING btree ((- "hourly_rate_micros"),"id") INCLUDE ("hourly_rate_micros","gpu_hour_rate_micros","search_text","model","is_demo_host","host_online","unready_gpus","total_count","gpu_count","gpu_memory_gb") WHERE "gpu_listings"."removed_at" is null and "gpu_listings"."status" in ('available', 'rented') and not "gpu_listings"."is_sandbox";
--> statement-breakpoint
DROP INDEX "gpu_listings_market_memory_idx";
--> statement-breakpoint
CREATE INDEX "gpu_listings_market_memory_idx" ON "gpu_listings" USING btree ((- "memory_gb"),"id") INCLUDE ("memory_gb","gpu_hour_rate_micros","search_text","model","is_demo_host","host_online","unready_gpus","total_count","gpu_count","gpu_memory_gb") WHERE "gpu_listings"."removed_at" is null and "gpu_listings"."status" in ('available', 'rented') and not "gpu_listings"."is_sandbox";
--> statement-breakpoint
DROP INDEX "gpu_listings_market_gpu_rate_idx";
--> statement-breakpoint
CREATE INDEX "gpu_listings_market_gpu_rate_idx" ON "gpu_listings" USING btree ("gpu_hour_rate_micros","id") INCLUDE ("search_text","model","is_demo_host","host_online","unready_gpus","total_count","gpu_count","gpu_memory_gb") WHERE "gpu_listings"."removed_at" is null and "gpu_listings"."status" in ('available', 'rented') and not "gpu_listings"."is_sandbox";
--> statement-breakpoint
DROP INDEX "gpu_listings_market_performance_idx";
--> statement-breakpoint
CREATE INDEX "gpu_listings_market_performance_idx" ON "gpu_listings" USING btree ((- "performance_score"),"id") INCLUDE ("performance_score","gpu_hour_rate_micros","search_text","model","is_demo_host","host_online","unready_gpus","total_count","gpu_count","gpu_memory_gb") WHERE "gpu_listings"."removed_at" is null and "gpu_listings"."status" in ('available', 'rented') and not "gpu_listings"."is_sandbox";
