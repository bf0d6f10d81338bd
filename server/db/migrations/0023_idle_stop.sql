-- Idle stop (issue 23, part 4; docs/decisions/019): a metered instance may be stopped when
-- its GPUs stay under a threshold and no web console is open for N minutes. One "last active
-- at" per instance, not a sample history; a warning 10 minutes before (idle_warned_at).
ALTER TABLE "instances" ADD COLUMN "idle_stop_minutes" integer;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "idle_threshold_percent" integer DEFAULT 5 NOT NULL;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "last_active_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "idle_warned_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "instances" ADD CONSTRAINT "instances_idle_stop_check" CHECK (("instances"."idle_stop_minutes" is null or "instances"."idle_stop_minutes" >= 0) and "instances"."idle_threshold_percent" between 1 and 100);--> statement-breakpoint
CREATE INDEX "instances_idle_stop_idx" ON "instances" USING btree ("last_active_at") WHERE "instances"."idle_stop_minutes" > 0 and "instances"."end_time" is null;--> statement-breakpoint
ALTER TABLE "instances" DROP CONSTRAINT "instances_end_reason_check";--> statement-breakpoint
ALTER TABLE "instances" ADD CONSTRAINT "instances_end_reason_check" CHECK ("instances"."end_reason" is null or "instances"."end_reason" in ('user', 'expiry', 'provisioning_timeout', 'api', 'insufficient_credits', 'host_failed', 'demo_cleanup', 'deadline_stop', 'deadline_terminate', 'spend_cap', 'idle_stop'));
