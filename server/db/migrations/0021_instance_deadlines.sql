-- Deadlines (issue 23, part 5): a metered instance may carry "stop at" and "terminate at".
-- The worker's deadline jobs claim due rows through the partial indexes below (live rows with
-- a deadline only), and record why they acted as the end reason.
ALTER TABLE "instances" ADD COLUMN "stop_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "terminate_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "instances_stop_at_idx" ON "instances" USING btree ("stop_at") WHERE "instances"."stop_at" is not null and "instances"."end_time" is null;--> statement-breakpoint
CREATE INDEX "instances_terminate_at_idx" ON "instances" USING btree ("terminate_at") WHERE "instances"."terminate_at" is not null and "instances"."end_time" is null;--> statement-breakpoint
ALTER TABLE "instances" DROP CONSTRAINT "instances_end_reason_check";--> statement-breakpoint
ALTER TABLE "instances" ADD CONSTRAINT "instances_end_reason_check" CHECK ("instances"."end_reason" is null or "instances"."end_reason" in ('user', 'expiry', 'provisioning_timeout', 'api', 'insufficient_credits', 'host_failed', 'demo_cleanup', 'deadline_stop', 'deadline_terminate'));
