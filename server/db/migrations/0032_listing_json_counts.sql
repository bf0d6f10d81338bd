-- A listing's stored JSON also holds what a rental or a host's readiness changes (status,
-- availableCount, totalCount): a page read then appends only the host's state (and a GPU
-- share) to each stored text, instead of building those values per row on every read, which
-- was about a third of the database's work for a page (docs/architecture.md, "Marketplace
-- queries"). The price is the trigger on a rental's two writes of available_count.
--
-- market_json: presentListing's view (server/modules/listings/presenter.ts) up to and
-- including totalCount, without hostStatus, gpuShare and the closing brace (page-query.ts
-- appends them). public_json: presentPublicListing's (public-api/presenter.ts) up to and
-- including availableCount, without gpuShare and the closing brace.
CREATE OR REPLACE FUNCTION gpu_listings_json() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  p record;
  hourly text;
  daily text;
  counts text;
BEGIN
  SELECT company_name, location, is_verified, reputation INTO p
    FROM providers WHERE id = NEW.provider_id;
  -- microsToDollars (shared/rules/money.ts): cents, rounded half up.
  hourly := '"' || ((NEW.hourly_rate_micros + 5000) / 1000000)::text || '.'
    || lpad((((NEW.hourly_rate_micros + 5000) / 10000) % 100)::text, 2, '0') || '"';
  daily := '"' || ((NEW.hourly_rate_micros * 24 + 5000) / 1000000)::text || '.'
    || lpad((((NEW.hourly_rate_micros * 24 + 5000) / 10000) % 100)::text, 2, '0') || '"';
  -- sellableUnits (shared/rules/gpu-binding.ts): the units a renter can get now.
  counts := ',"availableCount":' || greatest(NEW.available_count - NEW.unready_gpus, 0)::text;
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
    || ',"hostUptimePercent":null'
    || ',"status":"' || NEW.status || '"' || counts
    || ',"totalCount":' || NEW.total_count::text;
  NEW.public_json := '{"id":' || NEW.id::text
    || ',"model":' || to_json(NEW.model)::text
    || ',"memory":' || to_json(NEW.memory)::text
    || ',"cudaCores":' || coalesce(NEW.cuda_cores::text, 'null')
    || ',"location":' || to_json(NEW.location)::text
    || ',"hourlyRate":' || hourly
    || ',"dailyRate":' || daily
    || ',"provider":{"name":' || to_json(p.company_name)::text
    || ',"reputation":' || to_json(p.reputation::text)::text || '}'
    || counts;
  RETURN NEW;
END
$$;--> statement-breakpoint
-- A rental, a release, a status change or a host's readiness verdict: the counts in the JSON
-- are written again. Only when one of them changed (a heartbeat that changes nothing writes
-- nothing). Runs after gpu_listings_copy_provider and gpu_listings_json (name order).
CREATE TRIGGER gpu_listings_json_counts
  BEFORE UPDATE OF status, available_count, total_count, unready_gpus ON gpu_listings
  FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.available_count IS DISTINCT FROM NEW.available_count
    OR OLD.total_count IS DISTINCT FROM NEW.total_count OR OLD.unready_gpus IS DISTINCT FROM NEW.unready_gpus)
  EXECUTE FUNCTION gpu_listings_json();--> statement-breakpoint
UPDATE "gpu_listings" SET "market_json" = "market_json";
