-- Instances keep recent sessions (a token's user and memberships) in memory; a change to any of
-- them is announced on the channel quire_sessions with the user's id, and every instance forgets
-- that user's sessions. Triggers cover every writer: the services, the command line, plain SQL.
CREATE OR REPLACE FUNCTION quire_notify_sessions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'users' THEN
    PERFORM pg_notify('quire_sessions', CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END);
  ELSE
    PERFORM pg_notify('quire_sessions', CASE WHEN TG_OP = 'DELETE' THEN OLD.user_id ELSE NEW.user_id END);
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER organization_members_sessions AFTER INSERT OR UPDATE OR DELETE ON organization_members
  FOR EACH ROW EXECUTE FUNCTION quire_notify_sessions();--> statement-breakpoint
CREATE TRIGGER api_tokens_sessions AFTER UPDATE OR DELETE ON api_tokens
  FOR EACH ROW EXECUTE FUNCTION quire_notify_sessions();--> statement-breakpoint
CREATE TRIGGER users_sessions AFTER UPDATE OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION quire_notify_sessions();
