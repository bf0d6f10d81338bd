ALTER TABLE "instances" ADD COLUMN "provisioning_progress" jsonb;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "ssh_host_key" text;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "ssh_host_key_fingerprint" text;