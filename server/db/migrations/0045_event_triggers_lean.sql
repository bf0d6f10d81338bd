-- The event log's triggers in fewer statements (issue 43). Each statement a PL/pgSQL function
-- runs (PERFORM, SELECT INTO, UPDATE) is an executor started and ended; under rent-then-stop the
-- triggers were a fifth of PostgreSQL's CPU (perf, 2026-11-29), about five events a pair.
-- Same events, same order, same rows:
--   rentgpu_emit    the readers' guard is called only by a transaction's first event (the
--                   check was already the guard's first step); a hint already sent by this
--                   transaction is not sent again (PostgreSQL folded it, after a statement);
--                   the notification and its mark are one statement.
--   ledger events   the owner, the account's sequence and the posting's head in one UPDATE
--                   (were a SELECT, an UPDATE and a SELECT).
CREATE OR REPLACE FUNCTION rentgpu_emit(
	p_type text, p_at timestamptz, p_account uuid, p_subject_kind text, p_subject_id text,
	p_seq bigint, p_data jsonb
) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
	new_id bigint;
	hint text;
	sent text;
BEGIN
	IF current_setting('rentgpu.event_guard', true) IS DISTINCT FROM 'on' THEN
		PERFORM rentgpu_event_guard();
	END IF;
	INSERT INTO events (type, at, account_user_id, subject_kind, subject_id, subject_seq, data)
	VALUES (p_type, p_at, p_account, p_subject_kind, p_subject_id, p_seq, p_data)
	RETURNING id INTO new_id;
	IF p_subject_kind = 'instance' AND p_data->>'hostId' IS NOT NULL THEN
		hint := 'instance ' || (p_data->>'hostId');
	ELSIF p_subject_kind = 'instance' OR p_subject_kind = 'host' THEN
		hint := p_subject_kind;
	END IF;
	-- rentgpu.event_notified: 'on' once any notification went out; the hint itself when the
	-- last one sent was a hint (a transaction's events are mostly of one subject).
	sent := current_setting('rentgpu.event_notified', true);
	IF hint IS NOT NULL THEN
		IF sent IS DISTINCT FROM 'hint:' || hint THEN
			PERFORM pg_notify('rentgpu_signals', json_build_object('kind', 'events', 'id', hint, 'from', 'db')::text),
				set_config('rentgpu.event_notified', 'hint:' || hint, true);
		END IF;
	ELSIF sent IS NULL OR sent = '' THEN
		PERFORM pg_notify('rentgpu_signals', '{"kind":"events","from":"db"}'),
			set_config('rentgpu.event_notified', 'on', true);
	END IF;
	RETURN new_id;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION rentgpu_ledger_events() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	acct record;
BEGIN
	-- A wallet or a provider's earnings with a user to tell (not a seeded provider's): its
	-- sequence moved, its owner and the posting's head read, in one statement.
	UPDATE ledger_accounts a SET event_seq = a.event_seq + 1
		FROM ledger_transactions t
		WHERE a.id = NEW.account_id AND t.id = NEW.transaction_id
			AND a.kind IN ('wallet', 'provider_earnings')
			AND coalesce(a.user_id, (SELECT p.user_id FROM providers p WHERE p.id = a.provider_id)) IS NOT NULL
		RETURNING a.kind, a.user_id, a.provider_id, a.balance_micros, a.event_seq,
			coalesce(a.user_id, (SELECT p.user_id FROM providers p WHERE p.id = a.provider_id)) AS owner,
			t.kind AS txn_kind, t.memo, t.reference, t.created_at
		INTO acct;
	IF NOT FOUND THEN
		RETURN NULL;
	END IF;
	acct.balance_micros := acct.balance_micros - coalesce((
		SELECT sum(l.amount_micros) FROM ledger_entries l
		WHERE l.account_id = NEW.account_id AND l.id > NEW.id AND l.txid = NEW.txid), 0);
	PERFORM rentgpu_emit(
		CASE WHEN acct.kind = 'wallet' THEN 'wallet.' ELSE 'earnings.' END
			|| CASE WHEN NEW.amount_micros > 0 THEN 'credited' ELSE 'debited' END,
		acct.created_at, acct.owner,
		CASE WHEN acct.kind = 'wallet' THEN 'wallet' ELSE 'earnings' END,
		CASE WHEN acct.kind = 'wallet' THEN acct.user_id::text ELSE acct.provider_id::text END,
		acct.event_seq,
		jsonb_build_object(
			'amount', rentgpu_dollars(abs(NEW.amount_micros)),
			'amountMicros', NEW.amount_micros::text,
			'ledgerKind', acct.txn_kind,
			'memo', acct.memo,
			'reference', acct.reference,
			'transactionId', NEW.transaction_id::text,
			'balance', rentgpu_dollars(acct.balance_micros)));
	RETURN NULL;
END
$$;
