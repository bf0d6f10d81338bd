-- Every worker job's claim query is served by an index of the rows it may claim, so an idle
-- pass reads nothing that only history holds (issue 22; docs/architecture.md, "The worker";
-- server/worker/idle-plans.test.ts checks the plans). Each predicate is the query's own.
-- unreachable-instances (instancesRepo.claimUnreachable): live instances whose host is dark.
CREATE INDEX "instances_unreachable_idx" ON "instances" USING btree ("unreachable_since")
  WHERE "unreachable_since" IS NOT NULL AND "end_time" IS NULL
    AND "status" IN ('running', 'starting', 'stopping');--> statement-breakpoint
-- outage-credits (outage-credits.ts): outages not credited that are open or lasted > 4 hours.
-- A short outage is never credited and would otherwise be read on every pass forever.
CREATE INDEX "host_outages_creditable_idx" ON "host_outages" USING btree ("started_at")
  WHERE "credited_at" IS NULL
    AND ("ended_at" IS NULL OR "ended_at" - "started_at" > interval '4 hours');--> statement-breakpoint
-- silent-hosts (hostsRepo.lockSilentHosts): enrolled hosts, online and not removed, by the
-- time they were last heard from.
CREATE INDEX "hosts_silent_idx" ON "hosts" USING btree ((coalesce("last_heartbeat_at", "enrolled_at")))
  WHERE "offline_since" IS NULL AND "removed_at" IS NULL AND "enrolled_at" IS NOT NULL;
