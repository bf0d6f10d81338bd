CREATE TABLE "host_outages" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "host_outages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"host_id" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"credited_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "hosts" (
	"id" text PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"name" text NOT NULL,
	"enrol_token_hash" text,
	"enrol_token_expires_at" timestamp with time zone,
	"enrolled_at" timestamp with time zone,
	"credential_hash" text,
	"hostname" text,
	"agent_version" text,
	"accelerator" text,
	"inventory" jsonb,
	"last_heartbeat_at" timestamp with time zone,
	"offline_since" timestamp with time zone,
	"heartbeat_count" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"removed_at" timestamp with time zone,
	CONSTRAINT "hosts_accelerator_check" CHECK ("hosts"."accelerator" is null or "hosts"."accelerator" in ('kvm', 'tcg', 'none'))
);
--> statement-breakpoint
DROP INDEX "instances_live_ssh_port_key";--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "cpus" integer DEFAULT 8 NOT NULL;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "memory_gb" integer DEFAULT 32 NOT NULL;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "gpu_indexes" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "ssh_public_keys" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "vnc_password" text;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "user_data" text;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "unreachable_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "unreachable_seconds" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "host_error" text;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "host_released_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "gpu_listings" ADD COLUMN "host_id" text;--> statement-breakpoint
ALTER TABLE "gpu_listings" ADD COLUMN "host_gpu_indexes" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "host_outages" ADD CONSTRAINT "host_outages_host_id_hosts_id_fk" FOREIGN KEY ("host_id") REFERENCES "public"."hosts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hosts" ADD CONSTRAINT "hosts_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "host_outages_host_idx" ON "host_outages" USING btree ("host_id","started_at");--> statement-breakpoint
CREATE UNIQUE INDEX "host_outages_open_key" ON "host_outages" USING btree ("host_id") WHERE "host_outages"."ended_at" is null;--> statement-breakpoint
CREATE INDEX "hosts_provider_idx" ON "hosts" USING btree ("provider_id");--> statement-breakpoint
CREATE UNIQUE INDEX "hosts_enrol_token_key" ON "hosts" USING btree ("enrol_token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "hosts_credential_key" ON "hosts" USING btree ("credential_hash");--> statement-breakpoint
CREATE INDEX "hosts_online_idx" ON "hosts" USING btree ("last_heartbeat_at") WHERE "hosts"."offline_since" is null and "hosts"."enrolled_at" is not null;--> statement-breakpoint
ALTER TABLE "gpu_listings" ADD CONSTRAINT "gpu_listings_host_id_hosts_id_fk" FOREIGN KEY ("host_id") REFERENCES "public"."hosts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "instances_on_host_idx" ON "instances" USING btree ("host_id") WHERE "instances"."host_released_at" is null and "instances"."host_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "instances_live_ssh_port_key" ON "instances" USING btree ("ssh_host","ssh_port") WHERE "instances"."end_time" is null and "instances"."ssh_port" is not null;