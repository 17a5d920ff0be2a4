-- UNLOGGED: positions lost in a crash only send a caller to the primary's replica a little early,
-- and the row is written after every write request: skipping the WAL keeps that cheap. It lives and
-- is read on the primary only (a replica cannot read unlogged tables).
CREATE UNLOGGED TABLE "write_positions" (
	"user_id" text PRIMARY KEY NOT NULL,
	"lsn" pg_lsn NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
