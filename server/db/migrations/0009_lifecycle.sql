-- Issue 9 (docs/decisions/007): rentals become instances. The table is renamed, so every
-- id and every ledger reference 'rental:<id>' stays valid; each row keeps who, listing,
-- provider, money and connection details and gains the lifecycle's columns.
ALTER TABLE "rentals" RENAME TO "instances";--> statement-breakpoint
ALTER SEQUENCE "rentals_id_seq" RENAME TO "instances_id_seq";--> statement-breakpoint
ALTER TABLE "instances" RENAME CONSTRAINT "rentals_pkey" TO "instances_pkey";--> statement-breakpoint
ALTER TABLE "instances" RENAME CONSTRAINT "rentals_user_id_users_id_fk" TO "instances_user_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "instances" RENAME CONSTRAINT "rentals_gpu_listing_id_gpu_listings_id_fk" TO "instances_gpu_listing_id_gpu_listings_id_fk";--> statement-breakpoint
ALTER TABLE "instances" RENAME CONSTRAINT "rentals_provider_id_providers_id_fk" TO "instances_provider_id_providers_id_fk";--> statement-breakpoint
ALTER TABLE "instances" DROP CONSTRAINT "rentals_status_check";--> statement-breakpoint
ALTER TABLE "instances" DROP CONSTRAINT "rentals_duration_check";--> statement-breakpoint
ALTER TABLE "instances" DROP CONSTRAINT "rentals_settled_by_check";--> statement-breakpoint
ALTER TABLE "instances" DROP CONSTRAINT "rentals_settlement_check";--> statement-breakpoint
DROP INDEX "rentals_listing_active_idx";--> statement-breakpoint
DROP INDEX "rentals_ends_at_active_idx";--> statement-breakpoint
DROP INDEX "rentals_provisioning_idx";--> statement-breakpoint
DROP INDEX "rentals_active_ssh_port_key";--> statement-breakpoint
ALTER INDEX "rentals_user_idx" RENAME TO "instances_user_idx";--> statement-breakpoint
ALTER INDEX "rentals_provider_idx" RENAME TO "instances_provider_idx";--> statement-breakpoint
ALTER TABLE "instances" RENAME COLUMN "settled_by" TO "end_reason";--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "host_id" text;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "source" text DEFAULT 'marketplace' NOT NULL;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "template" text;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "billing_plan" text DEFAULT 'booked' NOT NULL;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "generation" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "state_changed_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "storage_gb" integer DEFAULT 50 NOT NULL;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "vnc_address" text;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "paid_through" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "compute_minutes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "storage_minutes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "charged_micros" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "instances" ALTER COLUMN "duration_hours" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "instances" ALTER COLUMN "ends_at" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "instances" ALTER COLUMN "booked_cost_micros" SET DEFAULT 0;--> statement-breakpoint
ALTER TABLE "instances" ALTER COLUMN "storage_fee_micros" SET DEFAULT 0;--> statement-breakpoint
ALTER TABLE "instances" ALTER COLUMN "status" SET DEFAULT 'provisioning';--> statement-breakpoint
-- Old words to lifecycle states. A rental cancelled by its provisioning deadline failed; any
-- other end is a termination. A completed rental reads as completed because it was ready.
UPDATE "instances" SET
  "status" = CASE
    WHEN "status" = 'active' AND "ready_at" IS NULL THEN 'provisioning'
    WHEN "status" = 'active' THEN 'running'
    WHEN "status" = 'cancelled' AND "end_reason" = 'provisioning_timeout' THEN 'failed'
    ELSE 'terminated' END,
  "ready_at" = CASE WHEN "status" = 'completed' AND "ready_at" IS NULL THEN "start_time" ELSE "ready_at" END,
  "state_changed_at" = coalesce("end_time", "ready_at", "start_time"),
  "host_id" = CASE WHEN "status" = 'active' AND EXISTS (
      SELECT 1 FROM "gpu_listings" l WHERE l."id" = "instances"."gpu_listing_id" AND l."is_demo_host")
    THEN 'demo' ELSE NULL END;--> statement-breakpoint
ALTER TABLE "instances" DROP COLUMN "ready_due_at";--> statement-breakpoint
ALTER TABLE "instances" ADD CONSTRAINT "instances_status_check" CHECK ("instances"."status" in ('provisioning', 'running', 'stopping', 'stopped', 'starting', 'terminating', 'terminated', 'failed'));--> statement-breakpoint
ALTER TABLE "instances" ADD CONSTRAINT "instances_source_check" CHECK ("instances"."source" in ('marketplace', 'vm', 'deploy', 'api'));--> statement-breakpoint
ALTER TABLE "instances" ADD CONSTRAINT "instances_billing_plan_check" CHECK ("instances"."billing_plan" in ('booked', 'metered'));--> statement-breakpoint
ALTER TABLE "instances" ADD CONSTRAINT "instances_booked_check" CHECK ("instances"."billing_plan" <> 'booked' or ("instances"."duration_hours" between 1 and 720 and "instances"."ends_at" is not null));--> statement-breakpoint
ALTER TABLE "instances" ADD CONSTRAINT "instances_metered_check" CHECK ("instances"."billing_plan" <> 'metered' or "instances"."paid_through" is not null);--> statement-breakpoint
ALTER TABLE "instances" ADD CONSTRAINT "instances_end_reason_check" CHECK ("instances"."end_reason" is null or "instances"."end_reason" in ('user', 'expiry', 'provisioning_timeout', 'api', 'insufficient_credits', 'host_failed', 'demo_cleanup'));--> statement-breakpoint
ALTER TABLE "instances" ADD CONSTRAINT "instances_ended_check" CHECK (("instances"."status" in ('terminating', 'terminated', 'failed')) = ("instances"."end_time" is not null));--> statement-breakpoint
CREATE INDEX "instances_listing_unit_idx" ON "instances" USING btree ("gpu_listing_id") WHERE "instances"."status" in ('provisioning', 'starting', 'running');--> statement-breakpoint
CREATE INDEX "instances_booked_ends_at_idx" ON "instances" USING btree ("ends_at") WHERE "instances"."billing_plan" = 'booked' and "instances"."end_time" is null;--> statement-breakpoint
CREATE INDEX "instances_provisioning_idx" ON "instances" USING btree ("provisioning_deadline") WHERE "instances"."status" = 'provisioning';--> statement-breakpoint
CREATE INDEX "instances_metered_due_idx" ON "instances" USING btree ("paid_through") WHERE "instances"."billing_plan" = 'metered' and "instances"."end_time" is null;--> statement-breakpoint
CREATE INDEX "instances_host_pending_idx" ON "instances" USING btree ("host_id") WHERE "instances"."status" in ('provisioning', 'starting', 'stopping', 'terminating');--> statement-breakpoint
CREATE UNIQUE INDEX "instances_live_ssh_port_key" ON "instances" USING btree ("ssh_port") WHERE "instances"."end_time" is null and "instances"."ssh_port" is not null;--> statement-breakpoint
CREATE TABLE "balance_alerts" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"low_balance_at" timestamp with time zone,
	"stopped_at" timestamp with time zone,
	"stopped_count" integer DEFAULT 0 NOT NULL
);--> statement-breakpoint
ALTER TABLE "balance_alerts" ADD CONSTRAINT "balance_alerts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
