CREATE TABLE "rentals" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "rentals_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" uuid NOT NULL,
	"gpu_listing_id" integer NOT NULL,
	"provider_id" integer NOT NULL,
	"duration_hours" integer NOT NULL,
	"hourly_rate_micros" bigint NOT NULL,
	"booked_cost_micros" bigint NOT NULL,
	"storage_fee_micros" bigint NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"start_time" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"ready_due_at" timestamp with time zone,
	"provisioning_deadline" timestamp with time zone NOT NULL,
	"ready_at" timestamp with time zone,
	"end_time" timestamp with time zone,
	"ssh_host" text,
	"ssh_port" integer,
	"ssh_username" text DEFAULT 'ubuntu' NOT NULL,
	"used_seconds" integer,
	"used_cost_micros" bigint,
	"refund_micros" bigint,
	"platform_fee_micros" bigint,
	"settled_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rentals_status_check" CHECK ("rentals"."status" in ('active', 'completed', 'cancelled')),
	CONSTRAINT "rentals_duration_check" CHECK ("rentals"."duration_hours" between 1 and 720),
	CONSTRAINT "rentals_settled_by_check" CHECK ("rentals"."settled_by" is null or "rentals"."settled_by" in ('user', 'expiry', 'provisioning_timeout', 'api')),
	CONSTRAINT "rentals_settlement_check" CHECK (("rentals"."status" = 'active') = ("rentals"."end_time" is null))
);
--> statement-breakpoint
ALTER TABLE "gpu_listings" ADD COLUMN "memory_gb" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "gpu_listings" ADD COLUMN "performance_score" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD COLUMN "reference" text;--> statement-breakpoint
ALTER TABLE "rentals" ADD CONSTRAINT "rentals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rentals" ADD CONSTRAINT "rentals_gpu_listing_id_gpu_listings_id_fk" FOREIGN KEY ("gpu_listing_id") REFERENCES "public"."gpu_listings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rentals" ADD CONSTRAINT "rentals_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "rentals_user_idx" ON "rentals" USING btree ("user_id","start_time");--> statement-breakpoint
CREATE INDEX "rentals_provider_idx" ON "rentals" USING btree ("provider_id","start_time");--> statement-breakpoint
CREATE INDEX "rentals_listing_active_idx" ON "rentals" USING btree ("gpu_listing_id") WHERE "rentals"."status" = 'active';--> statement-breakpoint
CREATE INDEX "rentals_ends_at_active_idx" ON "rentals" USING btree ("ends_at") WHERE "rentals"."status" = 'active';--> statement-breakpoint
CREATE INDEX "rentals_provisioning_idx" ON "rentals" USING btree ("provisioning_deadline") WHERE "rentals"."status" = 'active' and "rentals"."ready_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "rentals_active_ssh_port_key" ON "rentals" USING btree ("ssh_port") WHERE "rentals"."status" = 'active' and "rentals"."ssh_port" is not null;--> statement-breakpoint
CREATE INDEX "gpu_listings_rate_idx" ON "gpu_listings" USING btree ("hourly_rate_micros","id");--> statement-breakpoint
CREATE INDEX "ledger_transactions_reference_idx" ON "ledger_transactions" USING btree ("reference");