CREATE TABLE "api_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"key_hash" text NOT NULL,
	"permissions" text[] NOT NULL,
	"rate_tier" text DEFAULT 'standard' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "api_keys_rate_tier_check" CHECK ("api_keys"."rate_tier" in ('standard', 'pro', 'enterprise')),
	CONSTRAINT "api_keys_permissions_check" CHECK (cardinality("api_keys"."permissions") > 0 and "api_keys"."permissions" <@ array['read', 'write', 'admin']::text[])
);
--> statement-breakpoint
CREATE TABLE "payment_order_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "payment_order_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"order_id" uuid NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"source" text NOT NULL,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"provider" text DEFAULT 'paypal' NOT NULL,
	"paypal_order_id" text,
	"package_id" text,
	"amount_micros" bigint NOT NULL,
	"bonus_micros" bigint DEFAULT 0 NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"status" text DEFAULT 'creating' NOT NULL,
	"paypal_capture_id" text,
	"review_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "payment_orders_status_check" CHECK ("payment_orders"."status" in ('creating', 'created', 'pending', 'completed', 'failed', 'review')),
	CONSTRAINT "payment_orders_amount_check" CHECK ("payment_orders"."amount_micros" > 0 and "payment_orders"."bonus_micros" >= 0),
	CONSTRAINT "payment_orders_completed_check" CHECK ("payment_orders"."status" <> 'completed' or ("payment_orders"."completed_at" is not null and "payment_orders"."paypal_capture_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "paypal_webhook_events" (
	"id" text PRIMARY KEY NOT NULL,
	"event_type" text NOT NULL,
	"resource_id" text,
	"outcome" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ssh_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"key_type" text NOT NULL,
	"public_key" text NOT NULL,
	"fingerprint" text NOT NULL,
	"comment" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ssh_keys_type_check" CHECK ("ssh_keys"."key_type" in ('ssh-ed25519', 'ssh-rsa', 'ecdsa-sha2-nistp256', 'ecdsa-sha2-nistp384', 'ecdsa-sha2-nistp521'))
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "phone" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "location" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "bio" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "company" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "website" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_order_events" ADD CONSTRAINT "payment_order_events_order_id_payment_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."payment_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_orders" ADD CONSTRAINT "payment_orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ssh_keys" ADD CONSTRAINT "ssh_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_key_hash_key" ON "api_keys" USING btree ("key_hash");--> statement-breakpoint
CREATE INDEX "api_keys_user_idx" ON "api_keys" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "payment_order_events_order_idx" ON "payment_order_events" USING btree ("order_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_orders_paypal_order_key" ON "payment_orders" USING btree ("paypal_order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_orders_paypal_capture_key" ON "payment_orders" USING btree ("paypal_capture_id");--> statement-breakpoint
CREATE INDEX "payment_orders_user_idx" ON "payment_orders" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "ssh_keys_user_fingerprint_key" ON "ssh_keys" USING btree ("user_id","fingerprint");--> statement-breakpoint
-- The shared system accounts exist from the start, so no business transaction creates one
-- (and a rolled-back creation can never be remembered by a cache).
INSERT INTO "ledger_accounts" ("kind", "tracks_balance")
SELECT k, false FROM unnest(ARRAY['platform_revenue', 'payment_clearing', 'promotions', 'escrow']) AS k
WHERE NOT EXISTS (
  SELECT 1 FROM "ledger_accounts" a WHERE a."kind" = k AND a."user_id" IS NULL AND a."provider_id" IS NULL
);
