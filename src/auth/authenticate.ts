import { and, eq, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { Viewer } from '../context/request-context';
import { UnauthenticatedError } from '../domain/errors';
import { hashToken } from '../lib/ids';
import { rowAsJson, rowFromJson } from '../db/json-row';
import { organizationMembers, type MemberRow } from '../db/schema/members';
import { organizations, type OrganizationRow } from '../db/schema/organizations';
import { apiTokens, users } from '../db/schema/users';
import { INTEGRATION_TOKEN_PREFIX, loadIntegrationViewer } from './integration-tokens';
import type { Session, SessionCache } from './sessions';
import { loadSiteViewer, looksLikeSiteToken } from '../access-control/site-tokens';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** One membership of the viewer with its organization, as the session statement returns them. */
interface MembershipJson {
  member: Record<string, unknown>;
  organization: Record<string, unknown>;
}

/**
 * The token's user, all their memberships and those organizations, in one statement built once per
 * database. A single sign-on token brings the membership of its own organization only.
 */
const sessionStatements = new WeakMap<Db, ReturnType<typeof prepareSessionStatement>>();

function prepareSessionStatement(db: Db) {
  const m = organizationMembers;
  return db
    .select({
      user: users,
      organizationId: apiTokens.scopeOrganizationId,
      memberships: sql<MembershipJson[]>`coalesce(json_agg(json_build_object('member', ${rowAsJson(m)}, 'organization', ${rowAsJson(organizations)}))
        filter (where ${m.organizationId} is not null), '[]'::json)`,
    })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .leftJoin(m, and(eq(m.userId, users.id), or(isNull(apiTokens.scopeOrganizationId), eq(m.organizationId, apiTokens.scopeOrganizationId))))
    .leftJoin(organizations, eq(organizations.id, m.organizationId))
    .where(eq(apiTokens.tokenHash, sql.placeholder('tokenHash')))
    .groupBy(users.id, apiTokens.id)
    .prepare('quire_session');
}

async function loadSession(db: Db, tokenHash: string): Promise<Session | null> {
  let statement = sessionStatements.get(db);
  if (!statement) sessionStatements.set(db, (statement = prepareSessionStatement(db)));
  const [row] = await statement.execute({ tokenHash });
  if (!row) return null;
  return {
    user: row.user,
    memberships: row.memberships.map((m) => rowFromJson<MemberRow>(organizationMembers, m.member)),
    organizations: row.memberships.map((m) => rowFromJson<OrganizationRow>(organizations, m.organization)),
    organizationId: row.organizationId,
  };
}

/**
 * Resolves `Authorization: Bearer <token>`. No header: anonymous (null). A header that does not
 * carry a valid token is refused outright, so a typo never silently turns into "anonymous". A
 * token seen recently is answered from `sessions` without a statement.
 */
export async function authenticate(db: Db, header: string | null, sessions?: SessionCache, now: () => Date = () => new Date()): Promise<Viewer | null> {
  if (!header) return null;
  const match = BEARER.exec(header);
  if (!match) throw new UnauthenticatedError('Malformed Authorization header: expected "Bearer <token>"');
  // A published site's short-lived token: verified by its signature, never stored.
  if (looksLikeSiteToken(match[1])) return loadSiteViewer(db, match[1], now());
  const tokenHash = hashToken(match[1]);
  if (match[1].startsWith(INTEGRATION_TOKEN_PREFIX)) {
    const viewer = await loadIntegrationViewer(db, tokenHash, new Date());
    if (!viewer) throw new UnauthenticatedError('Invalid or revoked API token');
    return viewer;
  }
  let session = sessions?.get(tokenHash);
  if (!session) {
    const generation = sessions?.begin() ?? 0;
    const loaded = await loadSession(db, tokenHash);
    if (!loaded) throw new UnauthenticatedError('Invalid or revoked API token');
    sessions?.store(tokenHash, loaded, generation);
    session = loaded;
  }
  const { memberships, organizations } = sessionMaps(session);
  return { user: session.user, memberships, organizations, ...(session.organizationId !== null ? { organizationId: session.organizationId } : {}) };
}

/**
 * The session's memberships and organizations by id, built once per cached session and shared by
 * its requests (an admin of a hundred organizations paid two hundred entries on each): read-only,
 * a write in a request gives that request maps of its own (src/access-control/membership.ts).
 */
const maps = new WeakMap<Session, Pick<Required<Viewer>, 'memberships' | 'organizations'>>();
function sessionMaps(session: Session) {
  let built = maps.get(session);
  if (!built) {
    built = { memberships: new Map(session.memberships.map((m) => [m.organizationId, m])), organizations: new Map(session.organizations.map((o) => [o.id, o])) };
    maps.set(session, built);
  }
  return built;
}
