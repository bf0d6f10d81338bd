-- Host readiness (docs/decisions/021): the verdict of shared/rules/host-readiness.ts on the
-- host's last heartbeat. Null: never judged (before its first heartbeat, or the demo host).
ALTER TABLE "hosts" ADD COLUMN "readiness" jsonb;
