CREATE TABLE "collections" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"parent_id" text,
	"title" text NOT NULL,
	"description" text,
	"default_level" text DEFAULT 'inherit',
	"position" double precision NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "spaces" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"parent_id" text,
	"title" text NOT NULL,
	"emoji" text,
	"icon" text,
	"visibility" text DEFAULT 'private' NOT NULL,
	"edit_mode" text DEFAULT 'live' NOT NULL,
	"language" text,
	"default_level" text DEFAULT 'inherit',
	"revision_id" text NOT NULL,
	"position" double precision NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "revisions" (
	"id" text PRIMARY KEY NOT NULL,
	"space_id" text NOT NULL,
	"parent_id" text,
	"type" text NOT NULL,
	"created_by" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "content_grants" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"space_id" text,
	"collection_id" text,
	"user_id" text,
	"team_id" text,
	"role" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "content_grants_one_target" CHECK (("content_grants"."space_id" is null) <> ("content_grants"."collection_id" is null)),
	CONSTRAINT "content_grants_one_grantee" CHECK (("content_grants"."user_id" is null) <> ("content_grants"."team_id" is null))
);
--> statement-breakpoint
ALTER TABLE "collections" ADD CONSTRAINT "collections_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collections" ADD CONSTRAINT "collections_parent_id_collections_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."collections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "spaces" ADD CONSTRAINT "spaces_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "spaces" ADD CONSTRAINT "spaces_parent_id_collections_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."collections"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "revisions" ADD CONSTRAINT "revisions_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "revisions" ADD CONSTRAINT "revisions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_grants" ADD CONSTRAINT "content_grants_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_grants" ADD CONSTRAINT "content_grants_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_grants" ADD CONSTRAINT "content_grants_collection_id_collections_id_fk" FOREIGN KEY ("collection_id") REFERENCES "public"."collections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_grants" ADD CONSTRAINT "content_grants_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_grants" ADD CONSTRAINT "content_grants_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "collections_organization_idx" ON "collections" USING btree ("organization_id","created_at","id");--> statement-breakpoint
CREATE INDEX "collections_parent_idx" ON "collections" USING btree ("parent_id","position","id");--> statement-breakpoint
CREATE INDEX "spaces_organization_idx" ON "spaces" USING btree ("organization_id","created_at","id");--> statement-breakpoint
CREATE INDEX "spaces_parent_idx" ON "spaces" USING btree ("parent_id","position","id");--> statement-breakpoint
CREATE INDEX "spaces_deleted_idx" ON "spaces" USING btree ("deleted_at");--> statement-breakpoint
CREATE INDEX "revisions_space_idx" ON "revisions" USING btree ("space_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "content_grants_space_user" ON "content_grants" USING btree ("space_id","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "content_grants_space_team" ON "content_grants" USING btree ("space_id","team_id");--> statement-breakpoint
CREATE UNIQUE INDEX "content_grants_collection_user" ON "content_grants" USING btree ("collection_id","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "content_grants_collection_team" ON "content_grants" USING btree ("collection_id","team_id");--> statement-breakpoint
CREATE INDEX "content_grants_user_idx" ON "content_grants" USING btree ("organization_id","user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "content_grants_team_idx" ON "content_grants" USING btree ("team_id");