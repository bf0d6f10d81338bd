-- The hints every process acts on at once travel in the notifications the event's writer sends
-- at commit, not in a read of the log (issue 43): each process read the log again after every
-- commit that wrote events only to wake a host's waiting agent and drop its cached pages
-- (two statements a read; under the rent-then-stop bench about 0.5 statements a pair and
-- 5–10% of the server thread). An instance's event names its host's agent (`host-work`, the
-- host's id); an instance's or a host's event drops the marketplace's cached pages
-- (`read-cache`). Both are the signals of docs/decisions/017 that the server already sends
-- itself, so the handlers are the same. PostgreSQL folds identical payloads within a
-- transaction: a transaction sends each at most once. A process whose listener was away hears
-- a resync (every cache dropped, every agent woken), as before. `events` still wakes the
-- durable readers (mail, webhooks), which read the log.
CREATE OR REPLACE FUNCTION rentgpu_emit(
	p_type text, p_at timestamptz, p_account uuid, p_subject_kind text, p_subject_id text,
	p_seq bigint, p_data jsonb
) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
	new_id bigint;
	host text;
BEGIN
	PERFORM rentgpu_event_guard();
	INSERT INTO events (type, at, account_user_id, subject_kind, subject_id, subject_seq, data)
	VALUES (p_type, p_at, p_account, p_subject_kind, p_subject_id, p_seq, p_data)
	RETURNING id INTO new_id;
	PERFORM pg_notify('rentgpu_signals', '{"kind":"events","from":"db"}');
	IF p_subject_kind = 'instance' OR p_subject_kind = 'host' THEN
		PERFORM pg_notify('rentgpu_signals', '{"kind":"read-cache","from":"db"}');
		host := p_data->>'hostId';
		IF p_subject_kind = 'instance' AND host IS NOT NULL THEN
			PERFORM pg_notify('rentgpu_signals', json_build_object('kind', 'host-work', 'id', host, 'from', 'db')::text);
		END IF;
	END IF;
	RETURN new_id;
END
$$;
