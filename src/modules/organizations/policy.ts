import type { RequestContext } from '../../app/context';
import { definePolicies } from '../../domain/authz';
import { roleAtLeast } from '../../domain/roles';
import { viewerMembership } from '../members/service';
import type { OrganizationRow } from './table';

declare module '../../domain/authz' {
  interface ActionResources {
    /** See the organization at all: any member who is not disabled, guests included. */
    'organization:view': OrganizationRow;
    /** Change settings, members, invites and teams. */
    'organization:admin': OrganizationRow;
    /** List members and teams: every member but guests. */
    'organization:listMembers': OrganizationRow;
    'organization:createContent': OrganizationRow;
  }
}

const membership = (ctx: RequestContext, org: OrganizationRow) => viewerMembership(ctx, org.id);

definePolicies({
  'organization:view': async (ctx, org) => (await membership(ctx, org)) != null,
  'organization:admin': async (ctx, org) => (await membership(ctx, org))?.role === 'admin',
  'organization:listMembers': async (ctx, org) => (await membership(ctx, org))?.role != null,
  'organization:createContent': async (ctx, org) => roleAtLeast((await membership(ctx, org))?.role, 'create'),
});
