-- A listing's stored JSON also holds what a rental, a host's readiness verdict or its host's
-- state changes (status, availableCount, totalCount, hostStatus): a page read then appends
-- only a GPU share to each stored text, instead of building those values per row on every
-- read (about a third of the database's work for a page) and looking up each listing's host
-- (a subplan that made planning a search statement half again as costly; docs/architecture.md,
-- "Marketplace queries"). The price is the trigger on a rental's two writes of
-- available_count, and on a host's listings when it comes online or goes offline.
--
-- market_json: presentListing's view (server/modules/listings/presenter.ts) up to and
-- including hostStatus, without gpuShare and the closing brace (page-query.ts appends them).
-- public_json: presentPublicListing's (public-api/presenter.ts) up to and including
-- availableCount, without gpuShare and the closing brace.
--
-- host_online: whether the listing's host is online (enrolled, not removed, heard from, not
-- marked offline; hostStatusOfListing in server/modules/listings/repo.ts). Read from the
-- host when the listing is put on it (holding the host's row, so that a change of the host's
-- state waits for it or is seen by it), and written by the host's trigger when it changes.
ALTER TABLE "gpu_listings" ADD COLUMN "host_online" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE OR REPLACE FUNCTION gpu_listings_json() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  p record;
  hourly text;
  daily text;
  counts text;
  host_status text;
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
$$;--> statement-breakpoint
-- A rental, a release, a status change, a host's readiness verdict or its host's state: the
-- JSON is written again. Only when one of them changed (a heartbeat that changes nothing
-- writes nothing). Runs after gpu_listings_copy_provider and gpu_listings_json (name order).
CREATE TRIGGER gpu_listings_json_counts
  BEFORE UPDATE OF status, available_count, total_count, unready_gpus, host_online ON gpu_listings
  FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.available_count IS DISTINCT FROM NEW.available_count
    OR OLD.total_count IS DISTINCT FROM NEW.total_count OR OLD.unready_gpus IS DISTINCT FROM NEW.unready_gpus
    OR OLD.host_online IS DISTINCT FROM NEW.host_online)
  EXECUTE FUNCTION gpu_listings_json();--> statement-breakpoint
CREATE FUNCTION hosts_online_to_listings() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE gpu_listings
    SET host_online = (NEW.removed_at IS NULL AND NEW.offline_since IS NULL
      AND NEW.last_heartbeat_at IS NOT NULL)
    WHERE host_id = NEW.id;
  RETURN NULL;
END
$$;--> statement-breakpoint
-- A host came online or went offline (its first heartbeat, a silence the worker marked, a
-- heartbeat after one, its removal): its listings' state and JSON follow. A heartbeat that
-- leaves it as it was fires nothing.
CREATE TRIGGER hosts_online_to_listings
  AFTER UPDATE OF removed_at, offline_since, last_heartbeat_at ON hosts
  FOR EACH ROW
  WHEN ((OLD.removed_at IS NULL AND OLD.offline_since IS NULL AND OLD.last_heartbeat_at IS NOT NULL)
    IS DISTINCT FROM (NEW.removed_at IS NULL AND NEW.offline_since IS NULL AND NEW.last_heartbeat_at IS NOT NULL))
  EXECUTE FUNCTION hosts_online_to_listings();--> statement-breakpoint
UPDATE "gpu_listings" SET "host_online" = coalesce((SELECT h.removed_at IS NULL AND h.offline_since IS NULL
    AND h.last_heartbeat_at IS NOT NULL FROM hosts h WHERE h.id = gpu_listings.host_id), false),
  "market_json" = "market_json";
