-- The event log (docs/decisions/027, issue 40): every change a renter or provider is told of,
-- written by the database in the statement that makes the change — by triggers on the tables
-- that hold it (instances, ledger_entries, hosts), and by the app in the same transaction for
-- what no column records (spend-cap warnings, low balance, test pings). There is no "after
-- commit" in between: an event without its change, or a change without its event, cannot be.
-- Ids are handed out at insert, not at commit, so a reader must not pass an id a transaction
-- still running may commit: see rentgpu_event_bound below.
CREATE TABLE "events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
	"type" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"account_user_id" uuid NOT NULL,
	"subject_kind" text NOT NULL,
	"subject_id" text NOT NULL,
	"subject_seq" bigint NOT NULL,
	"data" jsonb NOT NULL
);
--> statement-breakpoint
CREATE INDEX "events_account_idx" ON "events" USING btree ("account_user_id", "id");
--> statement-breakpoint
CREATE INDEX "events_subject_idx" ON "events" USING btree ("subject_kind", "subject_id", "id");

--> statement-breakpoint
-- Durable readers' cursors (mail, webhooks): advanced in the transaction that records what the
-- reader did with the events up to it.
CREATE TABLE "event_readers" (
	"name" text PRIMARY KEY NOT NULL,
	"last_id" bigint DEFAULT 0 NOT NULL,
	"leased_until" timestamp with time zone,
	"lease_token" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- Sequence numbers of subjects whose rows keep none (spend caps, webhook endpoints, tests).
CREATE TABLE "event_subjects" (
	"subject_kind" text NOT NULL,
	"subject_id" text NOT NULL,
	"seq" bigint NOT NULL,
	CONSTRAINT "event_subjects_pkey" PRIMARY KEY ("subject_kind", "subject_id")
);
--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "event_seq" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD COLUMN "event_seq" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "hosts" ADD COLUMN "event_seq" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
-- The (top-level) transaction that wrote a ledger line: its event reads the balance it left.
ALTER TABLE "ledger_entries" ADD COLUMN "txid" xid8 DEFAULT pg_current_xact_id() NOT NULL;
--> statement-breakpoint
-- Readers never pass an id that may still commit (no skipped event, no reorder). Before its
-- first event a transaction notes the highest id handed out so far (its ids will all be above
-- it) in a shared transaction-level advisory lock (class 1380401152 + high bits, object: low 31
-- bits), held until it ends. A reader first reads the bound — the least of the highest id handed
-- out now and every such note held now — and then, in a later statement, only events at or
-- under it: an id at or under the bound either committed before that statement's snapshot or
-- never will (its transaction noted a lower id, or had not taken one when the bound was read).
-- Only this database's event writers hold readers back, and only for their own duration.
CREATE FUNCTION rentgpu_event_guard() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	high bigint;
BEGIN
	IF current_setting('rentgpu.event_guard', true) IS DISTINCT FROM 'on' THEN
		SELECT CASE WHEN is_called THEN last_value ELSE last_value - 1 END INTO high FROM events_id_seq;
		PERFORM pg_advisory_xact_lock_shared(1380401152 + (high >> 31)::int, (high & 2147483647)::int);
		PERFORM set_config('rentgpu.event_guard', 'on', true);
	END IF;
END
$$;
--> statement-breakpoint
CREATE FUNCTION rentgpu_event_bound() RETURNS bigint LANGUAGE plpgsql VOLATILE AS $$
DECLARE
	high bigint;
	noted bigint;
BEGIN
	-- The sequence first, then the notes: a writer that notes after this read takes ids above it.
	SELECT CASE WHEN is_called THEN last_value ELSE last_value - 1 END INTO high FROM events_id_seq;
	SELECT min(((l.classid::bigint - 1380401152) << 31) + l.objid::bigint) INTO noted FROM pg_locks l
	WHERE l.locktype = 'advisory' AND l.objsubid = 2
		AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
		AND l.classid::bigint BETWEEN 1380401152 AND 1380401152 + 4096;
	RETURN least(high, noted);
END
$$;
--> statement-breakpoint
-- Dollars as the API writes them: six decimals.
CREATE FUNCTION rentgpu_dollars(micros bigint) RETURNS text LANGUAGE sql IMMUTABLE AS $$
	SELECT to_char(micros::numeric / 1000000, 'FM999999999990.000000')
$$;
--> statement-breakpoint
-- One event row, and the wake-up of every process's readers (one NOTIFY per transaction:
-- PostgreSQL folds identical payloads; heard by the signals' listener, docs/decisions/017).
CREATE FUNCTION rentgpu_emit(
	p_type text, p_at timestamptz, p_account uuid, p_subject_kind text, p_subject_id text,
	p_seq bigint, p_data jsonb
) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
	new_id bigint;
BEGIN
	PERFORM rentgpu_event_guard();
	INSERT INTO events (type, at, account_user_id, subject_kind, subject_id, subject_seq, data)
	VALUES (p_type, p_at, p_account, p_subject_kind, p_subject_id, p_seq, p_data)
	RETURNING id INTO new_id;
	PERFORM pg_notify('rentgpu_signals', '{"kind":"events","from":"db"}');
	RETURN new_id;
END
$$;
--> statement-breakpoint
-- Instances: created, every state change (with its end reason), host unreachable and back,
-- the idle warning. BEFORE, so the row's own event_seq counts them without a second write.
CREATE FUNCTION rentgpu_instance_events() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	base jsonb;
	ev text;
BEGIN
	base := jsonb_build_object(
		'instanceId', NEW.id,
		'state', NEW.status,
		'kind', NEW.kind,
		'billingPlan', NEW.billing_plan,
		'hostId', NEW.host_id,
		'listingId', NEW.gpu_listing_id,
		'hourlyRate', rentgpu_dollars(NEW.hourly_rate_micros),
		'charged', rentgpu_dollars(NEW.charged_micros),
		'generation', NEW.generation
	);
	IF TG_OP = 'INSERT' THEN
		NEW.event_seq := NEW.event_seq + 1;
		PERFORM rentgpu_emit('instance.created', NEW.state_changed_at, NEW.user_id, 'instance',
			NEW.id::text, NEW.event_seq, base || jsonb_build_object('source', NEW.source,
			'template', NEW.template, 'image', NEW.container_image));
		RETURN NEW;
	END IF;
	IF NEW.status IS DISTINCT FROM OLD.status THEN
		ev := CASE NEW.status WHEN 'running' THEN 'instance.ready' ELSE 'instance.' || NEW.status END;
		NEW.event_seq := NEW.event_seq + 1;
		PERFORM rentgpu_emit(ev, NEW.state_changed_at, NEW.user_id, 'instance', NEW.id::text,
			NEW.event_seq, base || jsonb_build_object(
				'previousState', OLD.status,
				'wasUnreachable', OLD.unreachable_since IS NOT NULL,
				-- No end reason stored: the renter's own stop or terminate; straight from running to
				-- stopped with a host, its host stopped it (the machine shut down).
				'reason', CASE WHEN NEW.status IN ('stopping', 'stopped', 'terminating', 'terminated', 'failed')
					THEN coalesce(NEW.end_reason, CASE WHEN OLD.status = 'running' AND NEW.status = 'stopped'
						AND NEW.host_id IS NOT NULL THEN 'host' ELSE 'user' END) END,
				'error', CASE WHEN NEW.status = 'failed' THEN NEW.host_error END,
				'readyAt', NEW.ready_at,
				'endTime', NEW.end_time,
				'usedCost', rentgpu_dollars(NEW.used_cost_micros),
				'refund', rentgpu_dollars(NEW.refund_micros)));
	END IF;
	-- (An ended instance's time with its host away is added up when the host is back: not news.)
	IF (NEW.unreachable_since IS NULL) <> (OLD.unreachable_since IS NULL) AND NEW.end_time IS NULL THEN
		NEW.event_seq := NEW.event_seq + 1;
		PERFORM rentgpu_emit(
			CASE WHEN NEW.unreachable_since IS NULL THEN 'instance.host_reachable' ELSE 'instance.host_unreachable' END,
			coalesce(NEW.unreachable_since, NEW.state_changed_at, now()), NEW.user_id, 'instance', NEW.id::text,
			NEW.event_seq, base || jsonb_build_object('unreachableSince', coalesce(NEW.unreachable_since, OLD.unreachable_since)));
	END IF;
	IF NEW.idle_warned_at IS NOT NULL AND OLD.idle_warned_at IS NULL THEN
		NEW.event_seq := NEW.event_seq + 1;
		PERFORM rentgpu_emit('instance.idle_warning', NEW.idle_warned_at, NEW.user_id, 'instance',
			NEW.id::text, NEW.event_seq, base || jsonb_build_object(
				'idleStopMinutes', NEW.idle_stop_minutes, 'idleThresholdPercent', NEW.idle_threshold_percent,
				'lastActiveAt', NEW.last_active_at));
	END IF;
	RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "instances_events_insert" BEFORE INSERT ON "instances"
	FOR EACH ROW EXECUTE FUNCTION rentgpu_instance_events();
--> statement-breakpoint
CREATE TRIGGER "instances_events_update" BEFORE UPDATE ON "instances"
	FOR EACH ROW WHEN (
		OLD.status IS DISTINCT FROM NEW.status
		OR (OLD.unreachable_since IS NULL) <> (NEW.unreachable_since IS NULL)
		OR (OLD.idle_warned_at IS NULL AND NEW.idle_warned_at IS NOT NULL)
	) EXECUTE FUNCTION rentgpu_instance_events();
--> statement-breakpoint
-- The ledger: one event per line on a wallet (wallet.credited / wallet.debited) or a provider's
-- earnings (earnings.*), with the transaction's kind, reference and the balance after that
-- line. Deferred to the commit, in the order the lines were written: some postings move the
-- cached balance in a later statement than their lines, so the balance is read once it is
-- final, less this transaction's later lines on the same account. A line of a savepoint rolled
-- back is never told.
CREATE FUNCTION rentgpu_ledger_events() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	acct record;
	txn record;
	owner uuid;
BEGIN
	SELECT a.kind, coalesce(a.user_id, p.user_id) AS owner INTO acct
		FROM ledger_accounts a LEFT JOIN providers p ON p.id = a.provider_id
		WHERE a.id = NEW.account_id AND a.kind IN ('wallet', 'provider_earnings');
	-- Not a wallet or earnings, or a provider with no user to tell (seeded ones).
	IF NOT FOUND OR acct.owner IS NULL THEN
		RETURN NULL;
	END IF;
	owner := acct.owner;
	UPDATE ledger_accounts SET event_seq = event_seq + 1 WHERE id = NEW.account_id
		RETURNING id, kind, user_id, provider_id, balance_micros, event_seq INTO acct;
	acct.balance_micros := acct.balance_micros - coalesce((
		SELECT sum(l.amount_micros) FROM ledger_entries l
		WHERE l.account_id = NEW.account_id AND l.id > NEW.id AND l.txid = NEW.txid), 0);
	SELECT kind, memo, reference, created_at INTO txn FROM ledger_transactions WHERE id = NEW.transaction_id;
	PERFORM rentgpu_emit(
		CASE WHEN acct.kind = 'wallet' THEN 'wallet.' ELSE 'earnings.' END
			|| CASE WHEN NEW.amount_micros > 0 THEN 'credited' ELSE 'debited' END,
		txn.created_at, owner,
		CASE WHEN acct.kind = 'wallet' THEN 'wallet' ELSE 'earnings' END,
		CASE WHEN acct.kind = 'wallet' THEN acct.user_id::text ELSE acct.provider_id::text END,
		acct.event_seq,
		jsonb_build_object(
			'amount', rentgpu_dollars(abs(NEW.amount_micros)),
			'amountMicros', NEW.amount_micros::text,
			'ledgerKind', txn.kind,
			'memo', txn.memo,
			'reference', txn.reference,
			'transactionId', NEW.transaction_id::text,
			'balance', rentgpu_dollars(acct.balance_micros)));
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "ledger_entries_events" AFTER INSERT ON "ledger_entries"
	DEFERRABLE INITIALLY DEFERRED
	FOR EACH ROW EXECUTE FUNCTION rentgpu_ledger_events();
--> statement-breakpoint
-- What of a host's readiness verdict is news: whether it (and each kind) takes rentals, and which
-- GPUs. Not the problems' wording, which carries measured values (free disk…) every heartbeat.
CREATE FUNCTION rentgpu_readiness_key(r jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
	SELECT CASE WHEN r IS NULL THEN NULL ELSE jsonb_build_array(r -> 'ready', r -> 'readyGpus',
		r #> '{kinds,vm,ready}', r #> '{kinds,container,ready}') END
$$;
--> statement-breakpoint
-- Hosts: offline and back (offline_since), and a new readiness verdict, to the provider's user.
CREATE FUNCTION rentgpu_host_events() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	owner uuid;
BEGIN
	SELECT user_id INTO owner FROM providers WHERE id = NEW.provider_id;
	IF owner IS NULL THEN
		RETURN NEW;
	END IF;
	IF (NEW.offline_since IS NULL) <> (OLD.offline_since IS NULL) THEN
		NEW.event_seq := NEW.event_seq + 1;
		PERFORM rentgpu_emit(
			CASE WHEN NEW.offline_since IS NULL THEN 'host.online' ELSE 'host.offline' END,
			coalesce(NEW.offline_since, NEW.last_heartbeat_at, now()), owner, 'host', NEW.id, NEW.event_seq,
			jsonb_build_object('hostId', NEW.id, 'name', NEW.name,
				'status', CASE WHEN NEW.offline_since IS NULL THEN 'online' ELSE 'offline' END,
				'offlineSince', coalesce(NEW.offline_since, OLD.offline_since),
				'lastHeartbeatAt', NEW.last_heartbeat_at));
	END IF;
	IF NEW.readiness IS NOT NULL AND rentgpu_readiness_key(NEW.readiness) IS DISTINCT FROM rentgpu_readiness_key(OLD.readiness) THEN
		NEW.event_seq := NEW.event_seq + 1;
		PERFORM rentgpu_emit('host.readiness_changed', coalesce(NEW.last_heartbeat_at, now()), owner,
			'host', NEW.id, NEW.event_seq,
			jsonb_build_object('hostId', NEW.id, 'name', NEW.name,
				'ready', NEW.readiness -> 'ready', 'readyGpus', NEW.readiness -> 'readyGpus',
				'problems', NEW.readiness -> 'problems',
				'wasReady', OLD.readiness -> 'ready'));
	END IF;
	RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "hosts_events" BEFORE UPDATE ON "hosts"
	FOR EACH ROW WHEN (
		(OLD.offline_since IS NULL) <> (NEW.offline_since IS NULL)
		OR rentgpu_readiness_key(OLD.readiness) IS DISTINCT FROM rentgpu_readiness_key(NEW.readiness)
	) EXECUTE FUNCTION rentgpu_host_events();
