ALTER TABLE "api_keys" ADD COLUMN "daily_cap_micros" bigint;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "monthly_cap_micros" bigint;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_caps_positive" CHECK (("api_keys"."daily_cap_micros" is null or "api_keys"."daily_cap_micros" > 0) and ("api_keys"."monthly_cap_micros" is null or "api_keys"."monthly_cap_micros" > 0));--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "api_key_id" uuid;--> statement-breakpoint
ALTER TABLE "instances" ADD CONSTRAINT "instances_api_key_id_api_keys_id_fk" FOREIGN KEY ("api_key_id") REFERENCES "public"."api_keys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "instances_api_key_live_idx" ON "instances" USING btree ("api_key_id") WHERE "instances"."api_key_id" is not null and "instances"."end_time" is null;--> statement-breakpoint
ALTER TABLE "instances" DROP CONSTRAINT "instances_end_reason_check";--> statement-breakpoint
ALTER TABLE "instances" ADD CONSTRAINT "instances_end_reason_check" CHECK ("instances"."end_reason" is null or "instances"."end_reason" in ('user', 'expiry', 'provisioning_timeout', 'api', 'insufficient_credits', 'host_failed', 'demo_cleanup', 'deadline_stop', 'deadline_terminate', 'spend_cap'));--> statement-breakpoint
CREATE TABLE "spend_periods" (
	"user_id" uuid NOT NULL,
	"scope" text NOT NULL,
	"period" text NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"spent_micros" bigint DEFAULT 0 NOT NULL,
	"warned_at" timestamp with time zone,
	CONSTRAINT "spend_periods_pkey" PRIMARY KEY("user_id","scope","period","starts_at"),
	CONSTRAINT "spend_periods_period_check" CHECK ("spend_periods"."period" in ('day', 'month')),
	CONSTRAINT "spend_periods_spent_check" CHECK ("spend_periods"."spent_micros" >= 0)
);
--> statement-breakpoint
ALTER TABLE "spend_periods" ADD CONSTRAINT "spend_periods_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
