-- How many members an organization has, kept on write so that `members { totalCount }` counts no rows.
ALTER TABLE "organizations" ADD COLUMN "members_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "organizations" o SET "members_count" = (SELECT count(*) FROM "organization_members" m WHERE m."organization_id" = o."id");--> statement-breakpoint
CREATE FUNCTION quire_member_count() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    UPDATE organizations SET members_count = members_count - 1 WHERE id = OLD.organization_id;
  ELSE
    UPDATE organizations SET members_count = members_count + 1 WHERE id = NEW.organization_id;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER member_count AFTER INSERT OR DELETE ON organization_members
  FOR EACH ROW EXECUTE FUNCTION quire_member_count();
