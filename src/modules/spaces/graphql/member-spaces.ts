import { builder } from '../../../graphql/builder';
import { RoleEnum, SortOrder } from '../../../graphql/enums';
import { connectionArgs, GRAPHQL_MAX, pageToConnection, totalCountField } from '../../../graphql/relay';
import { OrganizationMemberRef } from '../../members/graphql/refs';
import type { SpaceRow } from '../../../db/schema/spaces';
import type { Role } from '../../../domain/roles';
import { listMemberSpaces } from '../service';
import { SpaceRef } from './refs';

/* The spaces granted to one member, as REST's /orgs/{id}/members/{userId}/spaces lists them. */

const MemberSpaceRef = builder.objectRef<{ role: Role; space: SpaceRow }>('OrganizationMemberSpace').implement({
  description: 'A space a member was given a role on, directly, with that role.',
  fields: (t) => ({
    space: t.field({ type: SpaceRef, description: 'The space.', resolve: (m) => m.space }),
    role: t.field({ type: RoleEnum, description: 'The role they were given on it.', resolve: (m) => m.role }),
  }),
});

builder.objectFields(OrganizationMemberRef, (t) => ({
  spaces: t.connection(
    {
      type: MemberSpaceRef,
      description: 'The spaces they were given a role on directly, among those the viewer may see; newest grant first by default.',
      args: { order: t.arg({ type: SortOrder, description: 'Order of the grants by time; DESC by default.' }) },
      resolve: async (m, args, ctx) =>
        pageToConnection(await listMemberSpaces(ctx, m.organizationId, m.userId, { order: args.order ?? undefined }, connectionArgs(args), GRAPHQL_MAX)),
    },
    { name: 'OrganizationMemberSpaceConnection', description: "A page of a member's spaces.", fields: totalCountField },
    { name: 'OrganizationMemberSpaceEdge', description: "One of a member's spaces, with its cursor." },
  ),
}));
