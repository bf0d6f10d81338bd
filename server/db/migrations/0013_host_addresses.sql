DROP INDEX "instances_live_ssh_port_key";--> statement-breakpoint
ALTER TABLE "hosts" ADD COLUMN "public_host" text;--> statement-breakpoint
ALTER TABLE "hosts" ADD COLUMN "agent_address" text;--> statement-breakpoint
CREATE UNIQUE INDEX "instances_live_host_port_key" ON "instances" USING btree ("host_id","ssh_port") WHERE "instances"."end_time" is null and "instances"."ssh_port" is not null;