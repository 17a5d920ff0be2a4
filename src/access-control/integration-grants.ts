import { inArray, sql, type SQL } from 'drizzle-orm';
import type { Action, ActionResources, ListedKind } from '../context/actions';
import type { IntegrationGrant, RequestContext } from '../context/request-context';
import { spaces } from '../db/schema/spaces';
import { spaceAllows } from './policies';

/*
 * The policies of integration callers: an integration's own token and an installation's token.
 * They are members of nothing, so the user policies would refuse everything; these answer
 * instead, from the grant alone: an installation acts with exactly its integration's scopes, on
 * exactly the spaces and sites it was given, in exactly its organization.
 */

type GrantPolicy<A extends Action> = (grant: IntegrationGrant, resource: ActionResources[A], ctx: RequestContext) => boolean;

const has = (grant: IntegrationGrant, ...scopes: string[]) => scopes.some((s) => grant.scopes.has(s));

function onSpace(grant: IntegrationGrant, space: ActionResources['space:view']): boolean {
  if (grant.kind !== 'installation' || space.organizationId !== grant.organizationId) return false;
  return grant.spaceSelection === 'all' || grant.spaceIds.has(space.id);
}

function onSite(grant: IntegrationGrant, site: ActionResources['site:view']): boolean {
  if (grant.kind !== 'installation' || site.organizationId !== grant.organizationId) return false;
  return grant.siteSelection === 'all' || grant.siteIds.has(site.id);
}

const SPACE_READ = ['space:content:read', 'space:content:write', 'space:metadata:read', 'space:metadata:write'];
const never = () => false;

const grantPolicies: { [A in Action]: GrantPolicy<A> } = {
  'organization:view': (g, org) => g.kind === 'installation' && org.id === g.organizationId,
  'organization:admin': never,
  'organization:listMembers': never,
  'organization:createContent': never,
  'organization:ownTeam': never,
  'member:view': never,
  'member:remove': never,
  'team:view': never,
  'team:admin': never,
  'collection:view': never,
  'collection:create': never,
  'collection:admin': never,
  'space:view': (g, space) => onSpace(g, space) && has(g, ...SPACE_READ),
  // The metadata scopes show the space itself, not its pages.
  'space:readContent': (g, space) => onSpace(g, space) && has(g, 'space:content:read', 'space:content:write'),
  'space:comment': never,
  // Writing content: `space:content:write`, and only where a member with `edit` could (not locked).
  'space:edit': (g, space) => onSpace(g, space) && has(g, 'space:content:write') && spaceAllows('space:edit', 'edit', space),
  'space:review': never,
  'space:merge': (g, space) => onSpace(g, space) && has(g, 'space:content:write') && spaceAllows('space:merge', 'edit', space),
  'space:admin': never,
  'site:view': (g, site) => onSite(g, site) && has(g, 'site:metadata:read'),
  'site:readPublished': never,
  'site:manage': never,
  'translation:view': never,
  'translation:manage': never,
  'integration:view': (g, row) => row.id === g.integrationId || row.visibility !== 'private',
  'integration:publish': never,
  'integration:operate': (g, row) => g.kind === 'integration' && row.id === g.integrationId,
  'installation:view': (g, row) => row.integrationId === g.integrationId && (g.kind === 'integration' || row.id === g.installationId),
  'installation:manage': (g, row) => row.integrationId === g.integrationId && (g.kind === 'integration' || row.id === g.installationId),
};

export function grantAllows<A extends Action>(ctx: RequestContext, grant: IntegrationGrant, action: A, resource: ActionResources[A]): boolean {
  return (grantPolicies[action] as GrantPolicy<A>)(grant, resource, ctx);
}

/** The SQL twin of the grant's `space:view`, for lists; collections are never listed to integrations. */
export function grantListFilter(grant: IntegrationGrant, kind: ListedKind): SQL {
  if (kind !== 'space' || grant.kind !== 'installation' || !has(grant, ...SPACE_READ)) return sql`false`;
  const inOrg = sql`${spaces.organizationId} = ${grant.organizationId}`;
  if (grant.spaceSelection === 'all') return inOrg;
  const ids = [...grant.spaceIds];
  return ids.length ? sql`(${inOrg} and ${inArray(spaces.id, ids)})` : sql`false`;
}
