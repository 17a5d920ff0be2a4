ALTER TABLE "spaces" ADD COLUMN "published_sites" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- A space's count of published sites showing it, recounted whenever a site space or a site's
-- `published` changes. Row triggers: a cascade from a deleted site runs them with the site gone.
CREATE FUNCTION quire_recount_space_publications(space text) RETURNS void LANGUAGE sql AS $$
  UPDATE spaces SET published_sites = (
    SELECT count(*) FROM site_spaces ss JOIN sites s ON s.id = ss.site_id AND s.published WHERE ss.space_id = space
  ) WHERE id = space;
$$;--> statement-breakpoint
CREATE FUNCTION quire_site_spaces_publications() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN PERFORM quire_recount_space_publications(OLD.space_id); END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN PERFORM quire_recount_space_publications(NEW.space_id); END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER site_spaces_publications AFTER INSERT OR UPDATE OF space_id OR DELETE ON site_spaces
  FOR EACH ROW EXECUTE FUNCTION quire_site_spaces_publications();--> statement-breakpoint
CREATE FUNCTION quire_sites_publications() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM quire_recount_space_publications(ss.space_id) FROM site_spaces ss WHERE ss.site_id = NEW.id;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER sites_publications AFTER UPDATE OF published ON sites
  FOR EACH ROW WHEN (OLD.published IS DISTINCT FROM NEW.published) EXECUTE FUNCTION quire_sites_publications();
