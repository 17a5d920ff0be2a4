-- Sessions also hold the viewer's organizations: a change to one is announced as 'o:<id>', and
-- every instance forgets the sessions that hold it.
CREATE OR REPLACE FUNCTION quire_notify_organization() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('quire_sessions', 'o:' || OLD.id);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER organizations_sessions AFTER UPDATE OR DELETE ON organizations
  FOR EACH ROW EXECUTE FUNCTION quire_notify_organization();
