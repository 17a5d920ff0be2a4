CREATE TABLE "share_links" (
	"id" text PRIMARY KEY NOT NULL,
	"site_id" text NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"key" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "site_spaces" (
	"id" text PRIMARY KEY NOT NULL,
	"site_id" text NOT NULL,
	"space_id" text NOT NULL,
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
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "share_links" ADD CONSTRAINT "share_links_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_spaces" ADD CONSTRAINT "site_spaces_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_spaces" ADD CONSTRAINT "site_spaces_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sites" ADD CONSTRAINT "sites_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "share_links_key_idx" ON "share_links" USING btree ("key");--> statement-breakpoint
CREATE INDEX "share_links_site_idx" ON "share_links" USING btree ("site_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "site_spaces_path_idx" ON "site_spaces" USING btree ("site_id","path");--> statement-breakpoint
CREATE INDEX "site_spaces_site_idx" ON "site_spaces" USING btree ("site_id","position","id");--> statement-breakpoint
CREATE INDEX "site_spaces_space_idx" ON "site_spaces" USING btree ("space_id");--> statement-breakpoint
CREATE INDEX "sites_organization_idx" ON "sites" USING btree ("organization_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "sites_basename_idx" ON "sites" USING btree ("organization_id","basename") WHERE "sites"."basename" is not null;