CREATE TABLE "comments" (
	"id" text PRIMARY KEY NOT NULL,
	"space_id" text NOT NULL REFERENCES "spaces"("id") ON DELETE cascade,
	"change_request_id" text REFERENCES "change_requests"("id") ON DELETE cascade,
	"revision_id" text NOT NULL REFERENCES "revisions"("id"),
	"page_id" text,
	"node_id" text,
	"table_record" text,
	"table_definition" text,
	"body" text NOT NULL,
	"posted_by" text REFERENCES "users"("id") ON DELETE set null,
	"posted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"edited_at" timestamp (3) with time zone,
	"status" text DEFAULT 'open' NOT NULL,
	"resolved_at" timestamp (3) with time zone,
	"resolved_by" text REFERENCES "users"("id") ON DELETE set null,
	"replies" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- The lists: a space's own discussion (outside change requests), and each change request's.
CREATE INDEX "comments_space_idx" ON "comments" USING btree ("space_id","posted_at","id") WHERE "change_request_id" IS NULL;--> statement-breakpoint
CREATE INDEX "comments_change_request_idx" ON "comments" USING btree ("change_request_id","posted_at","id") WHERE "change_request_id" IS NOT NULL;--> statement-breakpoint
CREATE TABLE "comment_replies" (
	"id" text PRIMARY KEY NOT NULL,
	"comment_id" text NOT NULL REFERENCES "comments"("id") ON DELETE cascade,
	"body" text NOT NULL,
	"posted_by" text REFERENCES "users"("id") ON DELETE set null,
	"posted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"edited_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE INDEX "comment_replies_comment_idx" ON "comment_replies" USING btree ("comment_id","posted_at","id");--> statement-breakpoint
-- One row per user per emoji per comment or reply; `subject_id` is the reply's id, or the comment's.
CREATE TABLE "comment_reactions" (
	"subject_id" text NOT NULL,
	"comment_id" text NOT NULL REFERENCES "comments"("id") ON DELETE cascade,
	"reply_id" text REFERENCES "comment_replies"("id") ON DELETE cascade,
	"user_id" text NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"emoji" text NOT NULL,
	"reacted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "comment_reactions_pk" PRIMARY KEY ("subject_id","user_id","emoji")
);
--> statement-breakpoint
ALTER TABLE "spaces" ADD COLUMN "comments_open" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "change_requests" ADD COLUMN "comments_open" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Open comments of a space's own discussion and of each change request, kept here so that no
-- read counts rows.
CREATE FUNCTION quire_comment_counters() RETURNS trigger AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.status = 'open' THEN
    IF OLD.change_request_id IS NULL THEN
      UPDATE spaces SET comments_open = comments_open - 1 WHERE id = OLD.space_id;
    ELSE
      UPDATE change_requests SET comments_open = comments_open - 1 WHERE id = OLD.change_request_id;
    END IF;
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') AND NEW.status = 'open' THEN
    IF NEW.change_request_id IS NULL THEN
      UPDATE spaces SET comments_open = comments_open + 1 WHERE id = NEW.space_id;
    ELSE
      UPDATE change_requests SET comments_open = comments_open + 1 WHERE id = NEW.change_request_id;
    END IF;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER comment_counters AFTER INSERT OR DELETE OR UPDATE OF status ON comments
  FOR EACH ROW EXECUTE FUNCTION quire_comment_counters();
--> statement-breakpoint
CREATE FUNCTION quire_comment_reply_counters() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    UPDATE comments SET replies = replies - 1 WHERE id = OLD.comment_id;
  ELSE
    UPDATE comments SET replies = replies + 1 WHERE id = NEW.comment_id;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER comment_reply_counters AFTER INSERT OR DELETE ON comment_replies
  FOR EACH ROW EXECUTE FUNCTION quire_comment_reply_counters();
