-- What is shown is what is given (issue 25, part 5; shared/rules/gpu-share.ts).
-- The memory an instance's guest really has, in MiB, fitted to its GPU's share of the host
-- when it was created (memory_gb is what was asked, in whole GB). Null on older rows: their
-- memory_gb, still capped by the share when the host boots them.
ALTER TABLE "instances" ADD COLUMN "memory_mib" integer;--> statement-breakpoint
-- A demo listing moved onto a provider's host runs there, not on the demo host: its flag
-- follows where it runs, and a listing can no longer be both.
UPDATE "gpu_listings" SET "is_demo_host" = false WHERE "is_demo_host" AND "host_id" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "gpu_listings" ADD CONSTRAINT "gpu_listings_demo_host_has_no_host"
  CHECK (NOT ("is_demo_host" AND "host_id" IS NOT NULL));
