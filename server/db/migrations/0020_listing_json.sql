-- Each listing's marketplace JSON, written when the listing or its provider changes rather
-- than on every page read (docs/architecture.md, "Marketplace queries"): a page is then 51
-- stored texts with the few values that change with every rental (status, counts) and the
-- host's state appended. Writing the JSON per row on each read was three quarters of the
-- database's work for a page.
--
-- market_json: presentListing's view (server/modules/listings/presenter.ts) up to and
-- including `"hostUptimePercent":null`, without status, availableCount, totalCount and
-- hostStatus and the closing brace (page-query.ts appends them). public_json:
-- presentPublicListing's (public-api/presenter.ts) without availableCount and the closing
-- brace. Strings are written by to_json, as JSON.stringify writes them.
ALTER TABLE "gpu_listings" ADD COLUMN "market_json" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "gpu_listings" ADD COLUMN "public_json" text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE FUNCTION gpu_listings_json() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  p record;
  hourly text;
  daily text;
BEGIN
  SELECT company_name, location, is_verified, reputation INTO p
    FROM providers WHERE id = NEW.provider_id;
  -- microsToDollars (shared/rules/money.ts): cents, rounded half up.
  hourly := '"' || ((NEW.hourly_rate_micros + 5000) / 1000000)::text || '.'
    || lpad((((NEW.hourly_rate_micros + 5000) / 10000) % 100)::text, 2, '0') || '"';
  daily := '"' || ((NEW.hourly_rate_micros * 24 + 5000) / 1000000)::text || '.'
    || lpad((((NEW.hourly_rate_micros * 24 + 5000) / 10000) % 100)::text, 2, '0') || '"';
  NEW.market_json := '{"id":' || NEW.id::text
    || ',"providerId":' || NEW.provider_id::text
    || ',"model":' || to_json(NEW.model)::text
    || ',"memory":' || to_json(NEW.memory)::text
    || ',"cudaCores":' || coalesce(NEW.cuda_cores::text, 'null')
    || ',"tensorCores":' || coalesce(NEW.tensor_cores::text, 'null')
    || ',"location":' || to_json(NEW.location)::text
    || ',"bandwidth":' || to_json(NEW.bandwidth)::text
    || ',"hourlyRate":' || hourly
    || ',"dailyRate":' || daily
    || ',"specifications":'
    || to_json((jsonb_build_object('bandwidth', NEW.bandwidth) || NEW.specifications)::text)::text
    || ',"isDemoHost":' || NEW.is_demo_host::text
    || ',"provider":{"id":' || NEW.provider_id::text
    || ',"companyName":' || to_json(p.company_name)::text
    || ',"location":' || to_json(p.location)::text
    || ',"isVerified":' || p.is_verified::text
    || ',"reputation":' || to_json(p.reputation::text)::text
    || '},"hostId":' || coalesce(to_json(NEW.host_id)::text, 'null')
    || ',"hostUptimePercent":null';
  NEW.public_json := '{"id":' || NEW.id::text
    || ',"model":' || to_json(NEW.model)::text
    || ',"memory":' || to_json(NEW.memory)::text
    || ',"cudaCores":' || coalesce(NEW.cuda_cores::text, 'null')
    || ',"location":' || to_json(NEW.location)::text
    || ',"hourlyRate":' || hourly
    || ',"dailyRate":' || daily
    || ',"provider":{"name":' || to_json(p.company_name)::text
    || ',"reputation":' || to_json(p.reputation::text)::text || '}';
  RETURN NEW;
END
$$;--> statement-breakpoint
-- Not on a rental's writes (available_count, status): those values are appended per read.
-- A write of the JSON columns themselves is overwritten. Fires after
-- gpu_listings_copy_provider (triggers run in name order).
CREATE TRIGGER gpu_listings_json
  BEFORE INSERT OR UPDATE OF provider_id, model, memory, cuda_cores, tensor_cores, location,
    bandwidth, hourly_rate_micros, specifications, is_demo_host, host_id, provider_name,
    market_json, public_json
  ON gpu_listings
  FOR EACH ROW EXECUTE FUNCTION gpu_listings_json();--> statement-breakpoint
-- A provider's name, location, verification or reputation changed: its listings' copies and
-- JSON are written again (the update of provider_name fires both listing triggers).
DROP TRIGGER providers_copy_to_listings ON providers;--> statement-breakpoint
CREATE TRIGGER providers_copy_to_listings
  AFTER UPDATE OF company_name, is_sandbox, location, is_verified, reputation ON providers
  FOR EACH ROW
  WHEN (OLD.company_name IS DISTINCT FROM NEW.company_name OR OLD.is_sandbox IS DISTINCT FROM NEW.is_sandbox
    OR OLD.location IS DISTINCT FROM NEW.location OR OLD.is_verified IS DISTINCT FROM NEW.is_verified
    OR OLD.reputation IS DISTINCT FROM NEW.reputation)
  EXECUTE FUNCTION providers_copy_to_listings();--> statement-breakpoint
UPDATE "gpu_listings" SET "provider_name" = "provider_name";
