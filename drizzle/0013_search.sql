-- Full-text search over the current revision of each space: one row per section of a page (the
-- text before its first heading, then one per heading). Kept when a space's revision moves; a
-- space whose `search_spaces.revision_id` differs from its own is (re)indexed at its next search,
-- which also backfills the spaces that existed before this migration.
CREATE TABLE "search_sections" (
	"space_id" text NOT NULL,
	"page_id" text NOT NULL,
	"section" integer NOT NULL,
	"config" regconfig NOT NULL,
	"page_title" text NOT NULL,
	"page_path" text NOT NULL,
	"body_hash" text,
	"heading" text NOT NULL,
	"anchor" text NOT NULL,
	"body" text NOT NULL,
	"tsv" tsvector GENERATED ALWAYS AS (
		setweight(to_tsvector("config", "page_title"), 'A') || setweight(to_tsvector("config", "heading"), 'B') || setweight(to_tsvector("config", "body"), 'D')
	) STORED,
	CONSTRAINT "search_sections_pk" PRIMARY KEY("space_id","page_id","section")
);
--> statement-breakpoint
CREATE TABLE "search_spaces" (
	"space_id" text PRIMARY KEY NOT NULL,
	"revision_id" text NOT NULL,
	"language" text
);
--> statement-breakpoint
ALTER TABLE "search_sections" ADD CONSTRAINT "search_sections_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "search_spaces" ADD CONSTRAINT "search_spaces_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "search_sections_tsv_idx" ON "search_sections" USING gin ("tsv");
