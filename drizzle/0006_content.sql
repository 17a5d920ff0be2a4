CREATE TABLE "blobs" (
	"hash" text PRIMARY KEY NOT NULL,
	"bytes" "bytea" NOT NULL,
	"size" integer NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "content_objects" (
	"hash" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"data" jsonb NOT NULL,
	"size" integer NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "revisions" ADD COLUMN "parents" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "revisions" ADD COLUMN "pages" text;--> statement-breakpoint
ALTER TABLE "revisions" ADD COLUMN "files" text;--> statement-breakpoint
ALTER TABLE "revisions" ADD COLUMN "variables" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
-- The revisions written before content existed: 'initial' and 'duplicate' were edits of nothing.
UPDATE "revisions" SET "parents" = CASE WHEN "parent_id" IS NULL THEN '{}' ELSE ARRAY["parent_id"] END, "type" = 'edits';--> statement-breakpoint
-- Revisions are immutable: what a revision holds never changes once it is written.
CREATE OR REPLACE FUNCTION quire_revisions_are_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'revisions are immutable: revision % cannot be changed', OLD.id USING ERRCODE = 'raise_exception';
END
$$;--> statement-breakpoint
CREATE TRIGGER revisions_immutable BEFORE UPDATE ON "revisions" FOR EACH ROW EXECUTE FUNCTION quire_revisions_are_immutable();
