-- Idempotency claims hold a short lease, renewed while their request runs, so a claim left by
-- a process that died is taken over by a retry within seconds (docs/decisions/009, "Leases").
-- The lease is by the database's clock, the one clock every process shares. Rows claimed
-- before this migration (and claims written by a process of the previous version during a
-- rolling deployment) get the old fixed lease of 5 minutes.
ALTER TABLE "idempotency_keys" ADD COLUMN "lease_expires_at" timestamp with time zone DEFAULT (now() + interval '5 minutes') NOT NULL;
