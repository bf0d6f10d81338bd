CREATE TABLE "instance_outages" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "instance_outages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"instance_id" integer NOT NULL,
	"host_id" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"minutes_not_charged" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "instance_outages_minutes_check" CHECK ("instance_outages"."minutes_not_charged" >= 0),
	CONSTRAINT "instance_outages_period_check" CHECK ("instance_outages"."ended_at" is null or "instance_outages"."ended_at" >= "instance_outages"."started_at")
);
--> statement-breakpoint
ALTER TABLE "instance_outages" ADD CONSTRAINT "instance_outages_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instance_outages" ADD CONSTRAINT "instance_outages_host_id_hosts_id_fk" FOREIGN KEY ("host_id") REFERENCES "public"."hosts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "instance_outages_instance_idx" ON "instance_outages" USING btree ("instance_id","started_at");--> statement-breakpoint
CREATE INDEX "instance_outages_host_idx" ON "instance_outages" USING btree ("host_id","started_at");--> statement-breakpoint
CREATE UNIQUE INDEX "instance_outages_open_key" ON "instance_outages" USING btree ("instance_id") WHERE "instance_outages"."ended_at" is null;--> statement-breakpoint
INSERT INTO "instance_outages" ("instance_id", "host_id", "started_at")
	SELECT "id", "host_id", "unreachable_since" FROM "instances"
	WHERE "unreachable_since" IS NOT NULL AND "host_id" IS NOT NULL;
