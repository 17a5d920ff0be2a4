import { builder } from '../../../graphql/builder';
import { MemberRoleFilter, RoleEnum, SortOrder } from '../../../graphql/enums';
import { orNull } from '../../../graphql/errors';
import { batchedConnection, GRAPHQL_MAX } from '../../../graphql/relay';
import { OrganizationRef } from '../../organizations/graphql/refs';
import { getOrganization } from '../../organizations/service';
import { UserRef } from '../../users/graphql/refs';
import { getUser } from '../../users/service';
import { getMember, listMembersOfOrganizations, memberTeamCount } from '../service';
import { memberNodeId, OrganizationMemberConnection, OrganizationMemberRef, splitMemberNodeId } from './refs';

builder.node(OrganizationMemberRef, {
  description: "A user's membership of an organization, with their role there.",
  id: { resolve: (m) => memberNodeId(m.organizationId, m.userId) },
  loadOne: (id, ctx) => {
    const { organizationId, userId } = splitMemberNodeId(id);
    return orNull(getMember(ctx, organizationId, userId));
  },
  fields: (t) => ({
    restId: t.exposeString('userId', { description: 'The id of this member in the REST API: the user id.' }),
    role: t.field({ type: RoleEnum, nullable: true, description: 'Role in the organization; null for a guest.', resolve: (m) => m.role }),
    user: t.field({ type: UserRef, description: 'The user.', resolve: (m, _, ctx) => getUser(ctx, m.userId) }),
    organization: t.field({ type: OrganizationRef, description: 'The organization.', resolve: (m, _, ctx) => getOrganization(ctx, m.organizationId) }),
    disabled: t.exposeBoolean('disabled', { description: 'Whether the membership is disabled, blocking access to content.' }),
    sso: t.exposeBoolean('sso', { description: 'Whether the member signs in with single sign-on.' }),
    joinedAt: t.expose('joinedAt', { type: 'DateTime', description: 'When they joined.' }),
    lastSeenAt: t.expose('lastSeenAt', { type: 'DateTime', nullable: true, description: 'When they were last active here.' }),
    teamCount: t.int({ description: 'How many teams of the organization they belong to.', resolve: (m, _, ctx) => memberTeamCount(ctx, m) }),
  }),
});

const MemberSort = builder.enumType('MemberSort', {
  description: 'How to sort members.',
  values: {
    JOINED_AT: { value: 'joinedAt', description: 'By the date they joined.' },
    LAST_SEEN_AT: { value: 'lastSeenAt', description: 'By their last activity; lists only members who have been active.' },
  } as const,
});

builder.objectFields(OrganizationRef, (t) => ({
  members: t.connection(
    {
      type: OrganizationMemberRef,
      description: 'Members of the organization. Guests cannot list members.',
      args: {
        role: t.arg({ type: MemberRoleFilter, description: 'Only members with this role.' }),
        search: t.arg.string({ description: 'Only members whose name or e-mail contains this text.' }),
        sort: t.arg({ type: MemberSort, description: 'Sort key; JOINED_AT by default.' }),
        order: t.arg({ type: SortOrder, description: 'Sort direction; DESC by default.' }),
      },
      resolve: batchedConnection('Organization.members', (ctx, orgs, { role, search, sort, order, ...window }) =>
        listMembersOfOrganizations(ctx, orgs, { role: role ?? undefined, search: search ?? undefined, sort: sort ?? undefined, order: order ?? undefined }, window, GRAPHQL_MAX),
      ),
    },
    OrganizationMemberConnection,
  ),
}));
