CREATE TABLE "integration_events" (
	"id" text PRIMARY KEY NOT NULL,
	"integration_id" text NOT NULL,
	"installation_id" text,
	"space_id" text,
	"site_id" text,
	"type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"logs" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"error" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "integration_installations" (
	"id" text PRIMARY KEY NOT NULL,
	"integration_id" text NOT NULL,
	"organization_id" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"space_selection" text DEFAULT 'selected' NOT NULL,
	"site_selection" text DEFAULT 'selected' NOT NULL,
	"configuration" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"external_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "integration_site_installations" (
	"id" text PRIMARY KEY NOT NULL,
	"installation_id" text NOT NULL,
	"integration_id" text NOT NULL,
	"site_id" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"configuration" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"external_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "integration_space_installations" (
	"id" text PRIMARY KEY NOT NULL,
	"installation_id" text NOT NULL,
	"integration_id" text NOT NULL,
	"space_id" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"configuration" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"external_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "integration_tokens" (
	"id" text PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"integration_id" text NOT NULL,
	"installation_id" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "integrations" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"owner_id" text NOT NULL,
	"bot_user_id" text NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"runtime" text DEFAULT 'v1' NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"summary" text,
	"visibility" text DEFAULT 'private' NOT NULL,
	"target" text DEFAULT 'all' NOT NULL,
	"scopes" text[] DEFAULT '{}'::text[] NOT NULL,
	"categories" text[] DEFAULT '{}'::text[] NOT NULL,
	"manifest" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"block_domains" text[] DEFAULT '{}'::text[] NOT NULL,
	"icon_blob" text,
	"preview_blobs" text[] DEFAULT '{}'::text[] NOT NULL,
	"script_blob" text NOT NULL,
	"secrets" text,
	"signing_secret" text NOT NULL,
	"dev_tunnel_url" text,
	"dev_all" boolean DEFAULT false NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "integration_events" ADD CONSTRAINT "integration_events_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "integration_events" ADD CONSTRAINT "integration_events_installation_id_integration_installations_id_fk" FOREIGN KEY ("installation_id") REFERENCES "public"."integration_installations"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "integration_installations" ADD CONSTRAINT "integration_installations_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "integration_installations" ADD CONSTRAINT "integration_installations_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "integration_site_installations" ADD CONSTRAINT "integration_site_installations_installation_id_integration_installations_id_fk" FOREIGN KEY ("installation_id") REFERENCES "public"."integration_installations"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "integration_site_installations" ADD CONSTRAINT "integration_site_installations_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "integration_site_installations" ADD CONSTRAINT "integration_site_installations_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "integration_space_installations" ADD CONSTRAINT "integration_space_installations_installation_id_integration_installations_id_fk" FOREIGN KEY ("installation_id") REFERENCES "public"."integration_installations"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "integration_space_installations" ADD CONSTRAINT "integration_space_installations_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "integration_space_installations" ADD CONSTRAINT "integration_space_installations_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "integration_tokens" ADD CONSTRAINT "integration_tokens_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "integration_tokens" ADD CONSTRAINT "integration_tokens_installation_id_integration_installations_id_fk" FOREIGN KEY ("installation_id") REFERENCES "public"."integration_installations"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "integrations" ADD CONSTRAINT "integrations_owner_id_organizations_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "integrations" ADD CONSTRAINT "integrations_bot_user_id_users_id_fk" FOREIGN KEY ("bot_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "integration_events_list_idx" ON "integration_events" USING btree ("integration_id","created_at","id");
--> statement-breakpoint
CREATE UNIQUE INDEX "integration_installations_org_key" ON "integration_installations" USING btree ("integration_id","organization_id");
--> statement-breakpoint
CREATE INDEX "integration_installations_list_idx" ON "integration_installations" USING btree ("integration_id","created_at","id");
--> statement-breakpoint
CREATE INDEX "integration_installations_org_idx" ON "integration_installations" USING btree ("organization_id");
--> statement-breakpoint
CREATE UNIQUE INDEX "integration_site_installations_key" ON "integration_site_installations" USING btree ("installation_id","site_id");
--> statement-breakpoint
CREATE INDEX "integration_site_installations_list_idx" ON "integration_site_installations" USING btree ("integration_id","created_at","id");
--> statement-breakpoint
CREATE INDEX "integration_site_installations_site_idx" ON "integration_site_installations" USING btree ("site_id");
--> statement-breakpoint
CREATE UNIQUE INDEX "integration_space_installations_key" ON "integration_space_installations" USING btree ("installation_id","space_id");
--> statement-breakpoint
CREATE INDEX "integration_space_installations_list_idx" ON "integration_space_installations" USING btree ("integration_id","created_at","id");
--> statement-breakpoint
CREATE INDEX "integration_space_installations_space_idx" ON "integration_space_installations" USING btree ("space_id");
--> statement-breakpoint
CREATE UNIQUE INDEX "integration_tokens_hash_key" ON "integration_tokens" USING btree ("token_hash");
--> statement-breakpoint
CREATE INDEX "integration_tokens_installation_idx" ON "integration_tokens" USING btree ("installation_id");
--> statement-breakpoint
CREATE UNIQUE INDEX "integrations_name_key" ON "integrations" USING btree ("name");
--> statement-breakpoint
CREATE INDEX "integrations_owner_idx" ON "integrations" USING btree ("owner_id");
--> statement-breakpoint
CREATE INDEX "integrations_list_idx" ON "integrations" USING btree ("created_at","id");
