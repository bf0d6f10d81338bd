ALTER TABLE "gpu_listings" ADD COLUMN "gpu_problem" text;
