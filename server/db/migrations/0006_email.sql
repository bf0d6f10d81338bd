ALTER TABLE "otp_codes" ADD COLUMN "purpose" text DEFAULT 'sign-in' NOT NULL;--> statement-breakpoint
ALTER TABLE "otp_codes" ADD COLUMN "user_id" uuid;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "pending_email" text;--> statement-breakpoint
ALTER TABLE "otp_codes" ADD CONSTRAINT "otp_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "otp_codes_user_idx" ON "otp_codes" USING btree ("user_id","created_at");--> statement-breakpoint
ALTER TABLE "otp_codes" ADD CONSTRAINT "otp_codes_purpose_check" CHECK (("otp_codes"."purpose" = 'sign-in' and "otp_codes"."user_id" is null) or ("otp_codes"."purpose" = 'email-change' and "otp_codes"."user_id" is not null));--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_pending_email_lower_check" CHECK ("users"."pending_email" = lower("users"."pending_email"));