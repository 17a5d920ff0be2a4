import type { RequestContext } from '../../../context/request-context';
import { RoleEnum } from '../../../graphql/enums';
import { defineMutation } from '../../../graphql/mutation';
import type { Role } from '../../../domain/roles';
import { CollectionRef } from '../../collections/graphql/refs';
import { getCollection } from '../../collections/service';
import { SpaceRef } from '../../spaces/graphql/refs';
import { getSpace } from '../../spaces/service';
import { TeamRef } from '../../teams/graphql/refs';
import { UserRef } from '../../users/graphql/refs';
import { inviteToContent, type Content } from '../service';

type DecodedID = { typename: string; id: string };

interface AccessInput {
  contentId: DecodedID;
  userIds?: readonly DecodedID[] | null;
  teamIds?: readonly DecodedID[] | null;
}

/** The space or collection a global ID names, if the viewer may see it; NOT_FOUND otherwise. */
async function contentFor(ctx: RequestContext, id: DecodedID): Promise<Content> {
  return id.typename === 'Space' ? { kind: 'space', row: await getSpace(ctx, id.id) } : { kind: 'collection', row: await getCollection(ctx, id.id) };
}

const ids = (list: readonly DecodedID[] | null | undefined) => (list?.length ? list.map((g) => g.id) : undefined);

/** Gives the users and teams `role` on the content, or takes their grants away with null: all of them or none. */
async function changeAccess(ctx: RequestContext, input: AccessInput, role: Role | null) {
  const content = await contentFor(ctx, input.contentId);
  await inviteToContent(ctx, content, { role, users: ids(input.userIds), teams: ids(input.teamIds) });
  return content.kind === 'space' ? { space: content.row } : { collection: content.row };
}

const contentIdField = (verb: string) =>
  `The space or collection to ${verb}: a global ID of a Space or of a Collection. Access to a collection reaches everything inside it.`;

/** The service names grantees as the REST body does. */
const GRANTEE_FIELDS = { users: 'userIds', teams: 'teamIds' };

const accessPayload = {
  space: { type: SpaceRef, description: 'The space, when contentId named one.' },
  collection: { type: CollectionRef, description: 'The collection, when contentId named one.' },
};

defineMutation('contentAccessGrant', {
  inputDescription: 'Input of contentAccessGrant. Name at least one user or team.',
  description:
    'Gives users and teams a role on a space or a collection, replacing the role granted to them there before. It adds to ' +
    'what they get otherwise: a grant never takes access away. Either every grantee is valid and all are granted, or nothing ' +
    'is written. Admins of the content only.',
  input: (t) => ({
    contentId: t.globalID({ for: [SpaceRef, CollectionRef], required: true, description: contentIdField('give access to') }),
    role: t.field({ type: RoleEnum, required: true, description: 'The role to give each user and team, replacing any role granted to them there before.' }),
    userIds: t.globalIDList({ for: UserRef, description: 'Users to give the role to: members of the organization, guests included. At most 500.' }),
    teamIds: t.globalIDList({ for: TeamRef, description: 'Teams of the organization to give the role to. At most 500.' }),
  }),
  fields: GRANTEE_FIELDS,
  payload: accessPayload,
  resolve: (input, ctx) => changeAccess(ctx, input, input.role),
});

defineMutation('contentAccessRevoke', {
  inputDescription: 'Input of contentAccessRevoke. Name at least one user or team.',
  description:
    'Removes the access granted directly to users and teams on a space or a collection. What they get otherwise stays: ' +
    'their organization role, default levels, grants on the collections above it or to their teams. Revoking access ' +
    'that was not granted succeeds. Either every grantee is valid and all are revoked, or nothing is written. Admins of the content only.',
  input: (t) => ({
    contentId: t.globalID({ for: [SpaceRef, CollectionRef], required: true, description: contentIdField('take access away from') }),
    userIds: t.globalIDList({ for: UserRef, description: 'Users whose grant to remove: members of the organization, guests included. At most 500.' }),
    teamIds: t.globalIDList({ for: TeamRef, description: 'Teams of the organization whose grant to remove. At most 500.' }),
  }),
  fields: GRANTEE_FIELDS,
  payload: accessPayload,
  gone: () => ({}),
  resolve: (input, ctx) => changeAccess(ctx, input, null),
});
