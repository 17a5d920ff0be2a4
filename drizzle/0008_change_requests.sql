CREATE TABLE "change_request_contributors" (
	"change_request_id" text NOT NULL,
	"user_id" text NOT NULL,
	"first_contributed_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "change_request_contributors_change_request_id_user_id_pk" PRIMARY KEY("change_request_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "change_requests" (
	"id" text PRIMARY KEY NOT NULL,
	"space_id" text NOT NULL,
	"number" integer NOT NULL,
	"subject" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"revision_id" text NOT NULL,
	"revision_initial" text NOT NULL,
	"revision_merged_ancestor" text,
	"revision_merged" text,
	"created_by" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "spaces" ADD COLUMN "change_requests_total" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "spaces" ADD COLUMN "change_requests_open" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "spaces" ADD COLUMN "change_requests_draft" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "change_request_contributors" ADD CONSTRAINT "change_request_contributors_change_request_id_change_requests_id_fk" FOREIGN KEY ("change_request_id") REFERENCES "public"."change_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "change_request_contributors" ADD CONSTRAINT "change_request_contributors_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "change_requests" ADD CONSTRAINT "change_requests_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "change_requests" ADD CONSTRAINT "change_requests_revision_id_revisions_id_fk" FOREIGN KEY ("revision_id") REFERENCES "public"."revisions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "change_requests" ADD CONSTRAINT "change_requests_revision_initial_revisions_id_fk" FOREIGN KEY ("revision_initial") REFERENCES "public"."revisions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "change_requests" ADD CONSTRAINT "change_requests_revision_merged_ancestor_revisions_id_fk" FOREIGN KEY ("revision_merged_ancestor") REFERENCES "public"."revisions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "change_requests" ADD CONSTRAINT "change_requests_revision_merged_revisions_id_fk" FOREIGN KEY ("revision_merged") REFERENCES "public"."revisions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "change_requests" ADD CONSTRAINT "change_requests_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "change_request_contributors_user_idx" ON "change_request_contributors" USING btree ("user_id","change_request_id");--> statement-breakpoint
CREATE UNIQUE INDEX "change_requests_number_idx" ON "change_requests" USING btree ("space_id","number");--> statement-breakpoint
CREATE INDEX "change_requests_status_idx" ON "change_requests" USING btree ("space_id","status","created_at","id");--> statement-breakpoint
CREATE INDEX "change_requests_space_idx" ON "change_requests" USING btree ("space_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "change_requests_merged_idx" ON "change_requests" USING btree ("revision_merged");--> statement-breakpoint
-- The counters a space answers with, kept here so that no read counts rows.
CREATE FUNCTION quire_change_request_counters() RETURNS trigger AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE spaces SET
      change_requests_total = change_requests_total - 1,
      change_requests_open = change_requests_open - (OLD.status = 'open')::int,
      change_requests_draft = change_requests_draft - (OLD.status = 'draft')::int
    WHERE id = OLD.space_id;
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    UPDATE spaces SET
      change_requests_total = change_requests_total + 1,
      change_requests_open = change_requests_open + (NEW.status = 'open')::int,
      change_requests_draft = change_requests_draft + (NEW.status = 'draft')::int
    WHERE id = NEW.space_id;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER change_request_counters AFTER INSERT OR DELETE OR UPDATE OF status, space_id ON change_requests
  FOR EACH ROW EXECUTE FUNCTION quire_change_request_counters();
