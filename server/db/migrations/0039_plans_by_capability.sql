-- Plans by capability (issue 41, docs/decisions/016): a billing plan is named by its code in
-- server/modules/instances/plans/, not by a list in the schema, so a new plan needs no change
-- here; the name is a short lower-case word. A plan that may be preempted ends as `preempted`.
ALTER TABLE "instances" DROP CONSTRAINT "instances_billing_plan_check";--> statement-breakpoint
ALTER TABLE "instances" ADD CONSTRAINT "instances_billing_plan_check" CHECK ("instances"."billing_plan" ~ '^[a-z][a-z_]{0,31}$');--> statement-breakpoint
ALTER TABLE "instances" DROP CONSTRAINT "instances_end_reason_check";--> statement-breakpoint
ALTER TABLE "instances" ADD CONSTRAINT "instances_end_reason_check" CHECK ("instances"."end_reason" is null or "instances"."end_reason" in ('user', 'expiry', 'provisioning_timeout', 'api', 'insufficient_credits', 'host_failed', 'demo_cleanup', 'deadline_stop', 'deadline_terminate', 'spend_cap', 'idle_stop', 'preempted'));
