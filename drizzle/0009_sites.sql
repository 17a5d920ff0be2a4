CREATE TABLE "share_links" (
	"id" text PRIMARY KEY NOT NULL,
	"site_id" text NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"key" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "site_section_groups" (
	"id" text PRIMARY KEY NOT NULL,
	"site_id" text NOT NULL,
	"title" text NOT NULL,
	"icon" text,
	"position" double precision NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "site_sections" (
	"id" text PRIMARY KEY NOT NULL,
	"site_id" text NOT NULL,
	"group_id" text,
	"title" text NOT NULL,
	"description" text,
	"path" text NOT NULL,
	"icon" text,
	"condition" text,
	"default_site_space_id" text,
	"position" double precision NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "site_spaces" (
	"id" text PRIMARY KEY NOT NULL,
	"site_id" text NOT NULL,
	"space_id" text NOT NULL,
	"section_id" text,
	"path" text NOT NULL,
	"condition" text,
	"position" double precision NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sites" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"type" text DEFAULT 'basic' NOT NULL,
	"title" text NOT NULL,
	"visibility" text DEFAULT 'public' NOT NULL,
	"basename" text,
	"proxy_origin" text,
	"published" boolean DEFAULT false NOT NULL,
	"adaptive_content" boolean DEFAULT false NOT NULL,
	"agents_context" text DEFAULT 'included' NOT NULL,
	"default_site_space_id" text,
	"default_site_section_id" text,
	"adaptive_schema" json,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "share_links" ADD CONSTRAINT "share_links_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_section_groups" ADD CONSTRAINT "site_section_groups_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_sections" ADD CONSTRAINT "site_sections_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_sections" ADD CONSTRAINT "site_sections_group_id_site_section_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."site_section_groups"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_spaces" ADD CONSTRAINT "site_spaces_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_spaces" ADD CONSTRAINT "site_spaces_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_spaces" ADD CONSTRAINT "site_spaces_section_id_site_sections_id_fk" FOREIGN KEY ("section_id") REFERENCES "public"."site_sections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sites" ADD CONSTRAINT "sites_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "share_links_key_idx" ON "share_links" USING btree ("key");--> statement-breakpoint
CREATE INDEX "share_links_site_idx" ON "share_links" USING btree ("site_id","created_at","id");--> statement-breakpoint
CREATE INDEX "site_section_groups_site_idx" ON "site_section_groups" USING btree ("site_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "site_sections_path_idx" ON "site_sections" USING btree ("site_id","path");--> statement-breakpoint
CREATE INDEX "site_sections_site_idx" ON "site_sections" USING btree ("site_id","position");--> statement-breakpoint
CREATE INDEX "site_spaces_site_idx" ON "site_spaces" USING btree ("site_id","position","id");--> statement-breakpoint
CREATE INDEX "site_spaces_space_idx" ON "site_spaces" USING btree ("space_id");--> statement-breakpoint
CREATE INDEX "sites_organization_idx" ON "sites" USING btree ("organization_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "sites_basename_idx" ON "sites" USING btree ("organization_id","basename") WHERE "sites"."basename" is not null;