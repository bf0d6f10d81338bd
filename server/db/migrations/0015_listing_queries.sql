-- The marketplace's pages from indexes (docs/architecture.md, "Marketplace queries"):
-- trigram search, the provider's name and sandbox flag copied onto each listing, and one
-- partial index per sort over the listings the marketplace shows.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
ALTER TABLE "gpu_listings" ADD COLUMN "provider_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "gpu_listings" ADD COLUMN "is_sandbox" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "gpu_listings" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(model || chr(10) || location || chr(10) || provider_name)) STORED NOT NULL;--> statement-breakpoint
-- Nearly every listing's search_text is its own, so how many match a substring is estimated
-- from the histogram: 500 samples tell a 1% search from a 0.01% one (the default 100 took
-- "city 42", 1%, for 10 rows of 100,000 and read 1,475 through the trigram index, 50 ms,
-- where the id index with a filter took 1.6 ms).
ALTER TABLE "gpu_listings" ALTER COLUMN "search_text" SET STATISTICS 500;--> statement-breakpoint
UPDATE "gpu_listings" l SET "provider_name" = p."company_name", "is_sandbox" = p."is_sandbox"
  FROM "providers" p WHERE p."id" = l."provider_id";--> statement-breakpoint
-- A listing's copies are always its provider's values: set on insert, and on any update that
-- names them or moves the listing (a write of other values is overwritten).
CREATE FUNCTION gpu_listings_copy_provider() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT p.company_name, p.is_sandbox INTO NEW.provider_name, NEW.is_sandbox
    FROM providers p WHERE p.id = NEW.provider_id;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER gpu_listings_copy_provider
  BEFORE INSERT OR UPDATE OF provider_id, provider_name, is_sandbox ON gpu_listings
  FOR EACH ROW EXECUTE FUNCTION gpu_listings_copy_provider();--> statement-breakpoint
-- A provider renamed (or its sandbox flag changed) renames its listings' copies.
CREATE FUNCTION providers_copy_to_listings() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE gpu_listings SET provider_name = NEW.company_name, is_sandbox = NEW.is_sandbox
    WHERE provider_id = NEW.id;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER providers_copy_to_listings
  AFTER UPDATE OF company_name, is_sandbox ON providers
  FOR EACH ROW
  WHEN (OLD.company_name IS DISTINCT FROM NEW.company_name OR OLD.is_sandbox IS DISTINCT FROM NEW.is_sandbox)
  EXECUTE FUNCTION providers_copy_to_listings();--> statement-breakpoint
DROP INDEX "gpu_listings_provider_idx";--> statement-breakpoint
CREATE INDEX "gpu_listings_provider_idx" ON "gpu_listings" USING btree ("provider_id","id");--> statement-breakpoint
CREATE INDEX "gpu_listings_market_id_idx" ON "gpu_listings" USING btree ("id") WHERE "gpu_listings"."removed_at" is null and "gpu_listings"."status" in ('available', 'rented') and not "gpu_listings"."is_sandbox";--> statement-breakpoint
CREATE INDEX "gpu_listings_market_rate_idx" ON "gpu_listings" USING btree ("hourly_rate_micros","id") WHERE "gpu_listings"."removed_at" is null and "gpu_listings"."status" in ('available', 'rented') and not "gpu_listings"."is_sandbox";--> statement-breakpoint
CREATE INDEX "gpu_listings_market_rate_desc_idx" ON "gpu_listings" USING btree ((- "hourly_rate_micros"),"id") WHERE "gpu_listings"."removed_at" is null and "gpu_listings"."status" in ('available', 'rented') and not "gpu_listings"."is_sandbox";--> statement-breakpoint
CREATE INDEX "gpu_listings_market_memory_idx" ON "gpu_listings" USING btree ((- "memory_gb"),"id") WHERE "gpu_listings"."removed_at" is null and "gpu_listings"."status" in ('available', 'rented') and not "gpu_listings"."is_sandbox";--> statement-breakpoint
CREATE INDEX "gpu_listings_market_performance_idx" ON "gpu_listings" USING btree ((- "performance_score"),"id") WHERE "gpu_listings"."removed_at" is null and "gpu_listings"."status" in ('available', 'rented') and not "gpu_listings"."is_sandbox";--> statement-breakpoint
CREATE INDEX "gpu_listings_market_search_idx" ON "gpu_listings" USING gin ("search_text" gin_trgm_ops) WHERE "gpu_listings"."removed_at" is null and "gpu_listings"."status" in ('available', 'rented') and not "gpu_listings"."is_sandbox";--> statement-breakpoint
CREATE INDEX "gpu_listings_market_model_idx" ON "gpu_listings" USING gin ("model" gin_trgm_ops) WHERE "gpu_listings"."removed_at" is null and "gpu_listings"."status" in ('available', 'rented') and not "gpu_listings"."is_sandbox";
