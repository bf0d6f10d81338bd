-- What a renter compares listings by (issue 42; docs/architecture.md, "Marketplace queries").
--
-- gpu_count: the GPUs one instance of the listing gets, named by its model ("4x H100" is a
-- 4-GPU node sold whole per unit; shared/gpu-models.ts parseMultiGpu), 1 otherwise.
-- gpu_hour_rate_micros: the hourly price per GPU (the marketplace's gpu-price-asc sort and its
-- maxGpuHourPrice filter). gpu_memory_gb: the memory on each of those GPUs (memory_gb is the
-- node's total; the minVramGb filter). Generated, so no write path can leave them behind.
ALTER TABLE "gpu_listings" ADD COLUMN "gpu_count" integer GENERATED ALWAYS AS
  (greatest(1, coalesce(substring("model" from '^([1-9][0-9]?)x\s')::integer, 1))) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "gpu_listings" ADD COLUMN "gpu_hour_rate_micros" bigint GENERATED ALWAYS AS
  ("hourly_rate_micros" / greatest(1, coalesce(substring("model" from '^([1-9][0-9]?)x\s')::integer, 1))) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "gpu_listings" ADD COLUMN "gpu_memory_gb" integer GENERATED ALWAYS AS
  ("memory_gb" / greatest(1, coalesce(substring("model" from '^([1-9][0-9]?)x\s')::integer, 1))) STORED NOT NULL;--> statement-breakpoint
-- The machine a demo-host listing stands for (server/seed/demo-data.ts), as a host's heartbeat
-- would report it: {cores, totalBytes, guestBytes, gpuCount, diskBytes, driverVersion,
-- cudaVersion}. Its GPU share, disk and versions are read from it as from a real host's
-- inventory (server/modules/listings/gpu-share.ts). Null: the demo host's bounds (ADR 024).
ALTER TABLE "gpu_listings" ADD COLUMN "demo_machine" jsonb;--> statement-breakpoint
-- The marketplace's gpu-price-asc sort, as its other sorts (migration 0015).
CREATE INDEX "gpu_listings_market_gpu_rate_idx" ON "gpu_listings" USING btree ("gpu_hour_rate_micros","id")
  WHERE "gpu_listings"."removed_at" is null and "gpu_listings"."status" in ('available', 'rented') and not "gpu_listings"."is_sandbox";--> statement-breakpoint
-- The recorded outages of the machines demo-host listings stand for (the seed writes a history
-- for each), measured as a real host's host_outages are: a demo listing's reliability.
CREATE TABLE "demo_host_outages" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "demo_host_outages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"listing_id" integer NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone NOT NULL,
	CONSTRAINT "demo_host_outages_period_check" CHECK ("demo_host_outages"."ended_at" >= "demo_host_outages"."started_at")
);--> statement-breakpoint
ALTER TABLE "demo_host_outages" ADD CONSTRAINT "demo_host_outages_listing_id_gpu_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."gpu_listings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "demo_host_outages_listing_idx" ON "demo_host_outages" USING btree ("listing_id","started_at");--> statement-breakpoint
-- Where a listing's reliability window starts: 30 days before `now`, or when its host enrolled
-- (a demo listing: when it was listed) if later; null without a host that enrolled.
CREATE FUNCTION listing_window_start(p_host_id text, p_is_demo boolean, p_listed_at timestamptz, p_now timestamptz)
RETURNS timestamptz LANGUAGE sql STABLE AS $$
  SELECT greatest(p_now - interval '30 days', CASE
    WHEN p_host_id IS NOT NULL THEN (SELECT h.enrolled_at FROM hosts h WHERE h.id = p_host_id)
    WHEN p_is_demo THEN p_listed_at END)
$$;--> statement-breakpoint
-- A listing's host uptime over the window, percent rounded down to one decimal (as
-- shared/rules/uptime.ts: a host's outages never overlap, one is open at most); null with fewer
-- than 3 days observed (RELIABILITY_MIN_OBSERVED_DAYS, shared/contracts/listings.ts).
CREATE FUNCTION listing_uptime_percent(p_host_id text, p_is_demo boolean, p_listing_id integer, p_listed_at timestamptz, p_now timestamptz)
RETURNS numeric LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN s.start IS NULL OR s.start > p_now - interval '3 days' THEN NULL
    ELSE greatest(0, least(100, floor((1 - coalesce((
      SELECT sum(extract(epoch FROM least(coalesce(o.ended_at, p_now), p_now) - greatest(o.started_at, s.start)))
      FROM (SELECT started_at, ended_at FROM host_outages WHERE host_id = p_host_id
        UNION ALL SELECT started_at, ended_at FROM demo_host_outages
          WHERE p_host_id IS NULL AND p_is_demo AND listing_id = p_listing_id) o
      WHERE coalesce(o.ended_at, p_now) > s.start AND o.started_at < p_now), 0)
      / extract(epoch FROM p_now - s.start)) * 1000 + 0.000001) / 10)) END
  FROM (SELECT listing_window_start(p_host_id, p_is_demo, p_listed_at, p_now) AS start) s
$$;--> statement-breakpoint
-- reliability (shared/contracts/listings.ts reliabilityView) as JSON text.
CREATE FUNCTION listing_reliability_json(p_host_id text, p_is_demo boolean, p_listing_id integer, p_listed_at timestamptz, p_now timestamptz)
RETURNS text LANGUAGE sql STABLE AS $$
  SELECT '{"uptimePercent":' || coalesce(listing_uptime_percent(p_host_id, p_is_demo, p_listing_id, p_listed_at, p_now)::float8::text, 'null')
    || ',"windowDays":30,"observedDays":' || coalesce(greatest(0, floor(extract(epoch FROM p_now - s.start) / 8640))::float8 / 10, 0)::text || '}'
  FROM (SELECT listing_window_start(p_host_id, p_is_demo, p_listed_at, p_now) AS start) s
$$;
