import { param, sql, type SQL } from 'drizzle-orm';
import type { ListedKind } from '../context/actions';
import { requireViewer, type RequestContext } from '../context/request-context';
import { collections } from '../db/schema/collections';
import { spaces } from '../db/schema/spaces';
import { prerendered } from '../db/prerendered';
import { tokenReaches, viewerMembership } from './membership';

/**
 * The SQL twin of `resolveContentRole`, for lists: which rows may the user see at all (any role)?
 * Computing it in the query keeps keyset pages full and their counts right whatever the user may
 * see. Admins see everything; other members see content whose nearest non-inherited default level
 * is set (the organization role when none is), guests only what is granted; a grant on a
 * collection reaches all it contains. `test/access-control/visibility.test.ts` checks that both agree.
 *
 * The collection tree of the listed organizations is walked once per statement, into sets the
 * per-row checks look into: collections whose default reaches members, and collections granted to
 * the user on themselves or an ancestor. Every subquery names those organizations, so that none
 * reads another organization's rows (test/app/tenant-scoping.test.ts).
 */
function tree(userId: string, orgs: SQL, pick: SQL): SQL {
  const granted = (column: SQL) =>
    sql`exists (select 1 from content_grants g where g.collection_id = ${column} and (g.user_id = ${userId} or g.team_id in ${teamsOf(userId, orgs)}))`;
  return sql`(with recursive tree(id, eff, granted, member, admin) as (
      select c.id, case when c.default_level = 'inherit' then m.role else c.default_level end, ${granted(sql`c.id`)},
        m.role is not null, m.role = 'admin'
      from collections c join organization_members m on m.organization_id = c.organization_id and m.user_id = ${userId} and not m.disabled
      where c.parent_id is null and c.organization_id = any(${orgs})
      union all
      select c.id, case when c.default_level = 'inherit' then t.eff else c.default_level end, t.granted or ${granted(sql`c.id`)},
        t.member, t.admin
      from collections c join tree t on c.parent_id = t.id
    ) select id from tree where ${pick})`;
}

/** The teams of the user in the listed organizations. */
function teamsOf(userId: string, orgs: SQL): SQL {
  return sql`(select team_id from team_members where user_id = ${userId} and organization_id = any(${orgs}))`;
}

export function visibleCollections(userId: string, organizationIds: readonly string[]): SQL {
  return sql`${collections.id} in ${tree(userId, orgsParam(organizationIds), sql`admin or granted or (member and eff is not null)`)}`;
}

/** Organizations of the list where the user is an enabled member matching `pick`. */
function organizationsWhere(userId: string, orgs: SQL, pick: SQL): SQL {
  return sql`(select organization_id from organization_members where organization_id = any(${orgs}) and user_id = ${userId} and not disabled and ${pick})`;
}

export function visibleSpaces(userId: string, organizationIds: readonly string[]): SQL {
  const orgs = orgsParam(organizationIds);
  const openByDefault = tree(userId, orgs, sql`member and eff is not null`);
  const grantedAbove = tree(userId, orgs, sql`granted`);
  // Grants count only in organizations the user is still an enabled member of.
  const grantedSpaces = sql`(select g.space_id from content_grants g
    join organization_members m on m.organization_id = g.organization_id and m.user_id = ${userId} and not m.disabled
    where g.organization_id = any(${orgs}) and g.space_id is not null and (g.user_id = ${userId} or g.team_id in ${teamsOf(userId, orgs)}))`;
  // Uncorrelated IN subqueries: PostgreSQL runs each once per statement into a hash table, and
  // each row then costs a few hash probes.
  return sql`(${spaces.organizationId} in ${organizationsWhere(userId, orgs, sql`role = 'admin'`)}
    or (${spaces.organizationId} in ${organizationsWhere(userId, orgs, sql`role is not null`)} and ${spaces.defaultLevel} is not null and (
      ${spaces.defaultLevel} <> 'inherit' or ${spaces.parentId} is null or ${spaces.parentId} in ${openByDefault}))
    or ${spaces.parentId} in ${grantedAbove}
    or ${spaces.id} in ${grantedSpaces})`;
}

const orgsParam = (organizationIds: readonly string[]) => sql`${param([...organizationIds])}::text[]`;

/**
 * The filter for a list of spaces or collections in these organizations: none when the viewer
 * administers every one of them (they see everything there), the visibility rules above otherwise.
 */
export async function listFilter(ctx: RequestContext, kind: ListedKind, listed: readonly string[]): Promise<SQL | undefined> {
  const viewer = requireViewer(ctx);
  // The SQL reads memberships itself: organizations the token does not reach must not be in it,
  // and a list that holds one of them is never left unfiltered.
  const organizationIds = listed.filter((id) => tokenReaches(viewer, id));
  const roles = await Promise.all(organizationIds.map(async (id) => (await viewerMembership(ctx, id))?.role));
  if (organizationIds.length > 0 && organizationIds.length === listed.length && roles.every((role) => role === 'admin')) return undefined;
  return filterFor(kind, viewer.user.id, organizationIds);
}

/** The filters last asked for, by kind, user and organizations: each depends on nothing else. */
const filters = new Map<string, SQL>();
const KEPT_FILTERS = 1000;

function filterFor(kind: ListedKind, userId: string, organizationIds: readonly string[]): SQL {
  const key = `${kind}|${userId}|${organizationIds.join(',')}`;
  let filter = filters.get(key);
  if (filter) {
    // Most recently used last, so the oldest goes first.
    filters.delete(key);
  } else {
    filter = prerendered(kind === 'space' ? visibleSpaces(userId, organizationIds) : visibleCollections(userId, organizationIds));
    if (filters.size >= KEPT_FILTERS) filters.delete(filters.keys().next().value!);
  }
  filters.set(key, filter);
  return filter;
}
