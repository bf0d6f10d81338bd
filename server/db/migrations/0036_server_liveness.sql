-- The server's own heartbeat (issue 39, part 2): each pass of the silent-hosts job beats it.
-- A gap longer than SERVER_GAP_MS between beats (the server was stopped, restarted, or could
-- not run its worker) moves resumed_at to the beat that ended it: hosts are then given a full
-- grace period from resumed_at before they are marked offline, and no outage starts before it.
CREATE TABLE "server_liveness" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"last_beat_at" timestamp with time zone NOT NULL,
	"resumed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "server_liveness_one_row_check" CHECK ("server_liveness"."id")
);
