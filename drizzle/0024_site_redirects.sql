-- Site redirects (issue 32): a path of a site that sends its readers to a section, a site space or a page
-- of it. Written with drizzle-kit generate from src/db/schema/sites.ts, this table's statements only:
-- the snapshots stop at 0013, so a full generate repeats the tables made by hand since.
CREATE TABLE "site_redirects" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"site_id" text NOT NULL,
	"source" text NOT NULL,
	"kind" text NOT NULL,
	"site_section_id" text,
	"site_space_id" text,
	"page_id" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "site_redirects" ADD CONSTRAINT "site_redirects_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_redirects" ADD CONSTRAINT "site_redirects_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_redirects" ADD CONSTRAINT "site_redirects_site_section_id_site_sections_id_fk" FOREIGN KEY ("site_section_id") REFERENCES "public"."site_sections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_redirects" ADD CONSTRAINT "site_redirects_site_space_id_site_spaces_id_fk" FOREIGN KEY ("site_space_id") REFERENCES "public"."site_spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "site_redirects_source_idx" ON "site_redirects" USING btree ("site_id","source");--> statement-breakpoint
CREATE INDEX "site_redirects_site_idx" ON "site_redirects" USING btree ("site_id","created_at","id");
