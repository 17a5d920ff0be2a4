import { encodeGlobalID } from '@pothos/plugin-relay';
import type { RequestContext } from '../../app/context';
import { ValidationError } from '../../domain/errors';
import type { Role } from '../../domain/roles';
import { builder } from '../../graphql/builder';
import { userErrorsField, type UserErrorShape } from '../../graphql/errors';
import { CollectionRef, RoleEnum, runContentMutation, SpaceRef, TeamRef, UserRef } from '../../graphql/refs';
import { connectionArgs, GRAPHQL_MAX, pageToConnection, totalCountField } from '../../graphql/relay';
import { getCollection } from '../collections/service';
import type { CollectionRow } from '../collections/table';
import { getSpace } from '../spaces/service';
import type { SpaceRow } from '../spaces/table';
import { loadTeam } from '../teams/service';
import { getUser } from '../users/service';
import { contentRole, inviteToContent, listContentGrants, type Content } from './service';
import type { ContentGrantRow } from './table';

/*
 * Who has access to a space or a collection, the GraphQL side of `/v1/{spaces,collections}/{id}/permissions`:
 * the viewer's own role, the grants to users and teams, and the mutations that give and take them.
 */

const ContentUserAccessRef = builder.objectRef<ContentGrantRow>('ContentUserAccess').implement({
  description: 'Access granted directly to one user on a space or a collection.',
  fields: (t) => ({
    role: t.field({ type: RoleEnum, description: 'The role granted, on top of what the user gets otherwise and not capped by their organization role.', resolve: (g) => g.role }),
    user: t.field({ type: UserRef, description: 'The user given access.', resolve: (g, _, ctx) => getUser(ctx, g.userId!) }),
    grantedAt: t.expose('createdAt', { type: 'DateTime', description: 'When the access was granted or last changed.' }),
  }),
});

const ContentTeamAccessRef = builder.objectRef<ContentGrantRow>('ContentTeamAccess').implement({
  description: 'Access granted to one team on a space or a collection: every member of the team gets it.',
  fields: (t) => ({
    role: t.field({ type: RoleEnum, description: 'The role granted to each member of the team, on top of what they get otherwise and not capped by their organization role.', resolve: (g) => g.role }),
    team: t.field({
      type: TeamRef,
      nullable: true,
      description: 'The team given access; null when the viewer may not see the team (a guest outside it, say).',
      resolve: async (g, _, ctx) => {
        const team = await loadTeam(ctx, g.teamId!);
        return team && (await ctx.authz.can('team:view', team)) ? team : null;
      },
    }),
    grantedAt: t.expose('createdAt', { type: 'DateTime', description: 'When the access was granted or last changed.' }),
  }),
});

const ContentUserAccessConnection = builder.connectionObject(
  { type: ContentUserAccessRef, name: 'ContentUserAccessConnection', description: 'A page of access granted to users.', fields: totalCountField },
  { name: 'ContentUserAccessEdge', description: 'Access granted to a user, in a page, with its cursor.' },
);

const ContentTeamAccessConnection = builder.connectionObject(
  { type: ContentTeamAccessRef, name: 'ContentTeamAccessConnection', description: 'A page of access granted to teams.', fields: totalCountField },
  { name: 'ContentTeamAccessEdge', description: 'Access granted to a team, in a page, with its cursor.' },
);

/** Said on every access connection: they run one query per parent, unlike the batched lists elsewhere. */
const PER_PARENT =
  ' Costs one database query per object it is asked for: meant for one space or collection at a time, not for each item of a long list.';

/**
 * The three access fields, alike on spaces and collections. The grant lists are read per parent:
 * `listContentGrants` pages the grants of one piece of content.
 */
function accessFields<Row extends SpaceRow | CollectionRow>(
  t: PothosSchemaTypes.ObjectFieldBuilder<typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never, Row>,
  noun: 'space' | 'collection',
  content: (row: Row) => Content,
) {
  return {
    viewerRole: t.field({
      type: RoleEnum,
      nullable: true,
      description:
        `The viewer's role on the ${noun}, from their organization role, the default levels of the ${noun} and of the ` +
        'collections above it, and the access granted to them and their teams there; null when they have none.',
      resolve: (row, _, ctx) => contentRole(ctx, content(row)),
    }),
    userAccess: t.connection(
      {
        type: ContentUserAccessRef,
        description: `Access granted directly to users on this ${noun}, oldest first. Access granted on collections above it is not listed.${PER_PARENT}`,
        resolve: async (row, args, ctx) => pageToConnection(await listContentGrants(ctx, content(row), 'user', connectionArgs(args), GRAPHQL_MAX)),
      },
      ContentUserAccessConnection,
    ),
    teamAccess: t.connection(
      {
        type: ContentTeamAccessRef,
        description: `Access granted to teams on this ${noun}, oldest first. Access granted on collections above it is not listed.${PER_PARENT}`,
        resolve: async (row, args, ctx) => pageToConnection(await listContentGrants(ctx, content(row), 'team', connectionArgs(args), GRAPHQL_MAX)),
      },
      ContentTeamAccessConnection,
    ),
  };
}

builder.objectFields(SpaceRef, (t) => accessFields(t, 'space', (row) => ({ kind: 'space', row })));
builder.objectFields(CollectionRef, (t) => accessFields(t, 'collection', (row) => ({ kind: 'collection', row })));

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

/** The service names its fields as the REST body does (`users`, `teams`) and quotes REST ids. */
const GRANTEE_FIELDS: Record<string, string> = { users: 'userIds', teams: 'teamIds' };

function renameGranteeErrors(errors: UserErrorShape[], input: AccessInput): void {
  const globalIds = new Map<string, string>([
    ...(input.userIds ?? []).map((g) => [g.id, encodeGlobalID('User', g.id)] as const),
    ...(input.teamIds ?? []).map((g) => [g.id, encodeGlobalID('Team', g.id)] as const),
  ]);
  for (const error of errors) {
    const field = error.field?.[0];
    if (!field || !GRANTEE_FIELDS[field]) continue;
    error.field = [GRANTEE_FIELDS[field], ...error.field!.slice(1)];
    error.message = error.message.replace(`${field}:`, `${GRANTEE_FIELDS[field]}:`).replace(/"([^"]+)"/, (quoted, id) => `"${globalIds.get(id) ?? id}"`);
  }
}

/** Gives the users and teams `role` on the content, or takes their grants away with null: all of them or none. */
async function changeAccess(ctx: RequestContext, input: AccessInput, role: Role | null) {
  const users = [...new Set((input.userIds ?? []).map((g) => g.id))];
  const teams = [...new Set((input.teamIds ?? []).map((g) => g.id))];
  const result = await runContentMutation(async () => {
    const content = await contentFor(ctx, input.contentId);
    if (!users.length && !teams.length) throw new ValidationError('name at least one user in userIds or one team in teamIds');
    await inviteToContent(ctx, content, { role, ...(users.length ? { users } : {}), ...(teams.length ? { teams } : {}) });
    return content.kind === 'space' ? { space: content.row } : { collection: content.row };
  });
  renameGranteeErrors(result.userErrors, input);
  return result;
}

const contentIdField = (verb: string) =>
  `The space or collection to ${verb}: a global ID of a Space or of a Collection. Access to a collection reaches everything inside it.`;

builder.relayMutationField(
  'contentAccessGrant',
  {
    description: 'Input of contentAccessGrant. Name at least one user or team.',
    inputFields: (t) => ({
      contentId: t.globalID({ for: [SpaceRef, CollectionRef], required: true, description: contentIdField('give access to') }),
      role: t.field({ type: RoleEnum, required: true, description: 'The role to give each user and team, replacing any role granted to them there before.' }),
      userIds: t.globalIDList({ for: UserRef, description: 'Users to give the role to: members of the organization, guests included. At most 500.' }),
      teamIds: t.globalIDList({ for: TeamRef, description: 'Teams of the organization to give the role to. At most 500.' }),
    }),
  },
  {
    description:
      'Gives users and teams a role on a space or a collection, replacing the role granted to them there before. It adds to ' +
      'what they get otherwise: a grant never takes access away. Either every grantee is valid and all are granted, or nothing ' +
      'is written. Admins of the content only.',
    resolve: (_, { input }, ctx) => changeAccess(ctx, input, input.role),
  },
  {
    description: 'Result of contentAccessGrant.',
    outputFields: (t) => ({
      space: t.field({ type: SpaceRef, nullable: true, description: 'The space, when contentId named one.', resolve: (p) => p.space ?? null }),
      collection: t.field({ type: CollectionRef, nullable: true, description: 'The collection, when contentId named one.', resolve: (p) => p.collection ?? null }),
      userErrors: userErrorsField(t),
    }),
  },
);

builder.relayMutationField(
  'contentAccessRevoke',
  {
    description: 'Input of contentAccessRevoke. Name at least one user or team.',
    inputFields: (t) => ({
      contentId: t.globalID({ for: [SpaceRef, CollectionRef], required: true, description: contentIdField('take access away from') }),
      userIds: t.globalIDList({ for: UserRef, description: 'Users whose grant to remove: members of the organization, guests included. At most 500.' }),
      teamIds: t.globalIDList({ for: TeamRef, description: 'Teams of the organization whose grant to remove. At most 500.' }),
    }),
  },
  {
    description:
      'Removes the access granted directly to users and teams on a space or a collection. What they get otherwise stays: ' +
      'their organization role, default levels, grants on the collections above it or to their teams. Revoking access ' +
      'that was not granted succeeds. Either every grantee is valid and all are revoked, or nothing is written. Admins of the content only.',
    resolve: (_, { input }, ctx) => changeAccess(ctx, input, null),
  },
  {
    description: 'Result of contentAccessRevoke.',
    outputFields: (t) => ({
      space: t.field({ type: SpaceRef, nullable: true, description: 'The space, when contentId named one.', resolve: (p) => p.space ?? null }),
      collection: t.field({ type: CollectionRef, nullable: true, description: 'The collection, when contentId named one.', resolve: (p) => p.collection ?? null }),
      userErrors: userErrorsField(t),
    }),
  },
);
