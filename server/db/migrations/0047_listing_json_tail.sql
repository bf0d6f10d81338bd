-- A rental's two writes of a listing (its unit taken, then given back), a readiness verdict and
-- its host's state change only the end of the listing's stored JSON (migration 0032: status,
-- availableCount, totalCount and hostStatus for the marketplace's text, availableCount for the
-- public API's), so gpu_listings_json_counts now writes only that end again, onto the text as it
-- stands, instead of building both texts from every column and the provider's row (issue 43:
-- rent-then-stop's PostgreSQL work). Measured with pgbench on 10,000 listings, a transaction
-- a write, a unit taken and given back on one of 100 listings (the rent bench's page), three
-- alternating rounds of 10 s: 0.478, 0.512, 0.632 ms for the pair written this way, 0.611, 0.649,
-- 0.736 built anew, 0.456, 0.447, 0.432 with the trigger off.
--
-- The end is found by its first key: `,"status":"` in the marketplace's text and
-- `,"availableCount":` in the public API's. Neither can occur earlier: no key before them has
-- that name, and a quote inside a JSON string is escaped. A text without it (none written yet)
-- is built whole, as is every text when any other column of gpu_listings_json's list is written
-- (that trigger runs first, by name, and builds both from the row). A change of the texts'
-- shape must therefore write them again in its migration (`SET market_json = market_json`), as
-- 0032 did.
CREATE OR REPLACE FUNCTION gpu_listings_json() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  p record;
  hourly text;
  daily text;
  counts text;
  host_status text;
  status_at int;
  count_at int;
BEGIN
  -- sellableUnits (shared/rules/gpu-binding.ts): the units a renter can get now.
  counts := ',"availableCount":' || greatest(NEW.available_count - NEW.unready_gpus, 0)::text;
  IF NEW.host_id IS NULL THEN
    NEW.host_online := false;
  ELSIF TG_OP = 'INSERT' OR NEW.host_id IS DISTINCT FROM OLD.host_id THEN
    SELECT removed_at IS NULL AND offline_since IS NULL AND last_heartbeat_at IS NOT NULL
      INTO NEW.host_online FROM hosts WHERE id = NEW.host_id FOR SHARE;
    NEW.host_online := coalesce(NEW.host_online, false);
  END IF;
  -- hostStatusOfListing (server/modules/listings/repo.ts).
  host_status := CASE WHEN NEW.host_id IS NULL THEN
      (CASE WHEN NEW.is_demo_host THEN '"demo"' ELSE '"none"' END)
    WHEN NEW.host_online THEN
      (CASE WHEN NEW.unready_gpus > 0 AND NEW.unready_gpus >= NEW.total_count
        THEN '"not_ready"' ELSE '"online"' END)
    ELSE '"offline"' END;
  -- Only what gpu_listings_json_counts watches changed (a rental, a release, a readiness
  -- verdict, its host's state): the stored texts end with those values, so only their ends
  -- are written again.
  IF TG_NAME = 'gpu_listings_json_counts' THEN
    status_at := strpos(NEW.market_json, ',"status":"');
    count_at := strpos(NEW.public_json, ',"availableCount":');
    IF status_at > 0 AND count_at > 0 THEN
      NEW.market_json := left(NEW.market_json, status_at - 1)
        || ',"status":"' || NEW.status || '"' || counts
        || ',"totalCount":' || NEW.total_count::text
        || ',"hostStatus":' || host_status;
      NEW.public_json := left(NEW.public_json, count_at - 1) || counts;
      RETURN NEW;
    END IF;
  END IF;
  -- microsToDollars (shared/rules/money.ts): cents, rounded half up.
  hourly := '"' || ((NEW.hourly_rate_micros + 5000) / 1000000)::text || '.'
    || lpad((((NEW.hourly_rate_micros + 5000) / 10000) % 100)::text, 2, '0') || '"';
  daily := '"' || ((NEW.hourly_rate_micros * 24 + 5000) / 1000000)::text || '.'
    || lpad((((NEW.hourly_rate_micros * 24 + 5000) / 10000) % 100)::text, 2, '0') || '"';
  SELECT company_name, location, is_verified, reputation INTO p
    FROM providers WHERE id = NEW.provider_id;
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
    || ',"totalCount":' || NEW.total_count::text
    || ',"hostStatus":' || host_status;
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
$$;
