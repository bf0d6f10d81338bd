-- The credit history pages through a wallet's entries newest first (issue 26,
-- server/modules/ledger/history-sql.ts): one account's entries in id order, read from this
-- index rather than every entry of the account sorted.
CREATE INDEX "ledger_entries_account_id_idx" ON "ledger_entries" USING btree ("account_id", "id");
--> statement-breakpoint
-- A demo visitor's own provider says it is theirs, beside the shared seeded "Demo Compute Co."
-- (issue 26 part 4; server/seed/demo-visitor.ts names new ones so).
UPDATE "providers" SET "company_name" = 'Your demo provider'
  WHERE "is_sandbox" AND "company_name" = 'Demo Compute Co.';
