-- Choosing an instance's GPU (docs/decisions/020) reads the GPUs the other instances of its
-- pool hold: on its host, or of its demo listing, in a state that holds one. No index had
-- those rows, so every rent, VM create and start read every instance there has ever been
-- (issue 20). Partial indexes of exactly the holding rows.
CREATE INDEX "instances_host_gpus_idx" ON "instances" USING btree ("host_id") WHERE "instances"."status" in ('provisioning', 'starting', 'running', 'stopping', 'terminating');--> statement-breakpoint
CREATE INDEX "instances_listing_gpus_idx" ON "instances" USING btree ("gpu_listing_id") WHERE "instances"."status" in ('provisioning', 'starting', 'running', 'stopping', 'terminating');
