-- UNLOGGED: counters need no crash safety, and skipping the WAL keeps each count cheap.
CREATE UNLOGGED TABLE "rate_limit_windows" (
	"bucket" text NOT NULL,
	"window_end" timestamp (3) with time zone NOT NULL,
	"hits" integer NOT NULL,
	CONSTRAINT "rate_limit_windows_bucket_window_end_pk" PRIMARY KEY("bucket","window_end")
);
--> statement-breakpoint
CREATE INDEX "rate_limit_windows_window_end_index" ON "rate_limit_windows" USING btree ("window_end");