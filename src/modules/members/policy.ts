import { definePolicies } from '../../domain/authz';
import type { OrganizationRow } from '../organizations/table';
import { viewerMembership } from './service';
import type { MemberRow } from './table';

export interface MemberResource {
  organization: OrganizationRow;
  member: MemberRow;
}

declare module '../../domain/authz' {
  interface ActionResources {
    /** See one member's record: anyone who may list members, and every member their own. */
    'member:view': MemberResource;
    /** Leave the organization yourself, or remove someone as an admin. */
    'member:remove': MemberResource;
  }
}

const isSelf = (viewerId: string | undefined, r: MemberResource) => viewerId === r.member.userId;

definePolicies({
  'member:view': async (ctx, r) => isSelf(ctx.viewer?.user.id, r) || (await ctx.authz.can('organization:listMembers', r.organization)),
  'member:remove': async (ctx, r) => isSelf(ctx.viewer?.user.id, r) || (await ctx.authz.can('organization:admin', r.organization)),
});

