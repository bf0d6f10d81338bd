-- Selling only what a host can serve (docs/decisions/021): how many of the GPUs a listing
-- sells its host's readiness verdict says cannot serve a VM, kept after each heartbeat and
-- placement. The marketplace shows, and a rent takes, only available_count - unready_gpus.
-- 0 on existing rows until their host's next heartbeat (at most 30 s).
ALTER TABLE "gpu_listings" ADD COLUMN "unready_gpus" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "gpu_listings" ADD CONSTRAINT "gpu_listings_unready_gpus_check" CHECK ("unready_gpus" >= 0);
