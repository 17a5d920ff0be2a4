CREATE TABLE "site_customizations" (
	"site_id" text PRIMARY KEY NOT NULL,
	"settings" json NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "site_publishing_auth" (
	"site_id" text PRIMARY KEY NOT NULL,
	"backend" text DEFAULT 'custom' NOT NULL,
	"private_key" text NOT NULL,
	"fallback_url" text,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "site_customizations" ADD CONSTRAINT "site_customizations_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_publishing_auth" ADD CONSTRAINT "site_publishing_auth_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;