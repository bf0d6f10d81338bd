-- Two kinds of instance, one product (issue 38; docs/decisions/025): a `vm` (QEMU, GPUs passed
-- through) or a `container` (an OCI image run by Podman on the host's own NVIDIA driver).
-- Every row before this one is a VM. A container names the image it runs (as asked, a
-- reference); its host reports the digest it resolved that reference to, which the renter sees.
ALTER TABLE "instances" ADD COLUMN "kind" text DEFAULT 'vm' NOT NULL;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "container_image" text;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "image_digest" text;--> statement-breakpoint
ALTER TABLE "instances" ADD CONSTRAINT "instances_kind_check" CHECK ("instances"."kind" in ('vm', 'container'));--> statement-breakpoint
ALTER TABLE "instances" ADD CONSTRAINT "instances_container_image_check" CHECK ("instances"."kind" <> 'container' or "instances"."container_image" is not null);
