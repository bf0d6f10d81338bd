-- What every process acts on at once travels in the notification the event's writer sends at
-- commit, not in a read of the log (issue 43). Each process read the log after every commit
-- that wrote events only to wake a host's waiting agent and to drop its cached marketplace
-- pages: two statements a read, about 0.5 statements of a rent-then-stop pair. Now the
-- `events` signal's id is the hint (server/modules/events/hints.ts):
--   `instance <host id>`  an instance's event on a host: wake that host's agent, drop the pages;
--   `instance`, `host`    an instance's event without a host, a host's event: drop the pages;
--   none                  any other event: only the durable readers (mail, webhooks) wake.
-- One notification a transaction where it can be: PostgreSQL folds identical payloads, and a
-- transaction that already sent one does not send the plain one (every `events` signal wakes
-- the durable readers). A process whose listener was away hears a resync (every cache dropped,
-- every waiting agent woken), as before.
CREATE OR REPLACE FUNCTION rentgpu_emit(
	p_type text, p_at timestamptz, p_account uuid, p_subject_kind text, p_subject_id text,
	p_seq bigint, p_data jsonb
) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
	new_id bigint;
	hint text;
BEGIN
	PERFORM rentgpu_event_guard();
	INSERT INTO events (type, at, account_user_id, subject_kind, subject_id, subject_seq, data)
	VALUES (p_type, p_at, p_account, p_subject_kind, p_subject_id, p_seq, p_data)
	RETURNING id INTO new_id;
	IF p_subject_kind = 'instance' AND p_data->>'hostId' IS NOT NULL THEN
		hint := 'instance ' || (p_data->>'hostId');
	ELSIF p_subject_kind = 'instance' OR p_subject_kind = 'host' THEN
		hint := p_subject_kind;
	END IF;
	IF hint IS NOT NULL THEN
		PERFORM pg_notify('rentgpu_signals', json_build_object('kind', 'events', 'id', hint, 'from', 'db')::text);
		PERFORM set_config('rentgpu.event_notified', 'on', true);
	ELSIF current_setting('rentgpu.event_notified', true) IS DISTINCT FROM 'on' THEN
		PERFORM pg_notify('rentgpu_signals', '{"kind":"events","from":"db"}');
		PERFORM set_config('rentgpu.event_notified', 'on', true);
	END IF;
	RETURN new_id;
END
$$;
