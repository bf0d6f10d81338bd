ALTER TABLE "rentals" DROP CONSTRAINT "rentals_settled_by_check";--> statement-breakpoint
DROP INDEX "providers_company_key";--> statement-breakpoint
ALTER TABLE "providers" ADD COLUMN "is_sandbox" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "users_demo_created_idx" ON "users" USING btree ("created_at") WHERE "users"."is_demo" and "users"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "providers_company_key" ON "providers" USING btree ("company_name") WHERE not "providers"."is_sandbox";--> statement-breakpoint
ALTER TABLE "rentals" ADD CONSTRAINT "rentals_settled_by_check" CHECK ("rentals"."settled_by" is null or "rentals"."settled_by" in ('user', 'expiry', 'provisioning_timeout', 'api', 'demo_cleanup'));