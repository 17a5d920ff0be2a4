-- Search finds word forms and prefixes (issue 31). Each section's `tsv` now holds its words twice:
-- stemmed in the space's configuration, and as written (`simple`) so that the word being typed
-- matches as a prefix and exact words rank first. Spaces without a language (or one PostgreSQL has
-- no configuration for) are stemmed as English instead of `simple`. One pass in SQL: the column is
-- dropped before the configuration changes so that each row's vector is computed once, when the
-- column is added again (PostgreSQL 15 cannot change a generated column's expression in place).
DROP INDEX "search_sections_tsv_idx";--> statement-breakpoint
ALTER TABLE "search_sections" DROP COLUMN "tsv";--> statement-breakpoint
UPDATE "search_sections" SET "config" = 'english' WHERE "config" = 'simple'::regconfig;--> statement-breakpoint
ALTER TABLE "search_sections" ADD COLUMN "tsv" tsvector GENERATED ALWAYS AS (
	setweight(to_tsvector("config", "page_title") || to_tsvector('simple', "page_title"), 'A')
	|| setweight(to_tsvector("config", "heading") || to_tsvector('simple', "heading"), 'B')
	|| setweight(to_tsvector("config", "body") || to_tsvector('simple', "body"), 'D')
) STORED;--> statement-breakpoint
CREATE INDEX "search_sections_tsv_idx" ON "search_sections" USING gin ("tsv");
