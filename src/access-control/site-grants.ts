import type { Action, ActionResources } from '../context/actions';
import type { SiteGrant } from '../context/request-context';

/*
 * The policies of a published site's API token (the one its URL lookup gives the renderer): it
 * reads what that site shows its visitor, and nothing else. Its holder is a member of nothing, so
 * the user policies would refuse everything; these answer from the grant alone, and every write
 * is refused.
 */

type SiteGrantPolicy<A extends Action> = (grant: SiteGrant, resource: ActionResources[A]) => boolean;

const never = () => false;
const publishedSpace = (g: SiteGrant, space: ActionResources['space:view']) => space.organizationId === g.organizationId && g.spaceIds.has(space.id) && !space.deletedAt;

const sitePolicies: { [A in Action]: SiteGrantPolicy<A> } = {
  'organization:view': never,
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
  'space:view': publishedSpace,
  'space:readContent': publishedSpace,
  'space:comment': never,
  'space:edit': never,
  'space:review': never,
  'space:merge': never,
  'space:admin': never,
  // The site's settings and structure as its editors see them are not the visitor's.
  'site:view': never,
  'site:readPublished': (g, site) => site.id === g.siteId && site.organizationId === g.organizationId && site.published,
  'site:manage': never,
  'translation:view': never,
  'translation:manage': never,
  // Public and unlisted integrations render the blocks of the site's pages, and so do the private
  // ones of the site's own organization (its published pages already show their blocks).
  'integration:view': (g, row) => row.visibility !== 'private' || row.ownerId === g.organizationId,
  'integration:publish': never,
  'integration:operate': never,
  'installation:view': never,
  'installation:manage': never,
};

export function siteGrantAllows<A extends Action>(grant: SiteGrant, action: A, resource: ActionResources[A]): boolean {
  return (sitePolicies[action] as SiteGrantPolicy<A>)(grant, resource);
}
