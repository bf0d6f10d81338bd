ALTER TABLE "instances" ADD COLUMN "platform_ssh_public_key" text;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "platform_ssh_private_key" text;