import type { RequestContext } from '../../../context/request-context';
import type { Page, PageArgs } from '../../../domain/page';
import { builder, type BuilderTypes } from '../../../graphql/builder';
import { RoleEnum } from '../../../graphql/enums';
import { connectionArgs, GRAPHQL_MAX, pageToConnection, totalCountField } from '../../../graphql/relay';
import { CollectionRef } from '../../collections/graphql/refs';
import type { CollectionRow } from '../../../db/schema/collections';
import { SpaceRef } from '../../spaces/graphql/refs';
import type { SpaceRow } from '../../../db/schema/spaces';
import { TeamRef } from '../../teams/graphql/refs';
import { UserRef } from '../../users/graphql/refs';
import { listTeamGrants, listUserGrants, viewerContentRole, type Content, type TeamGrant, type UserGrant } from '../service';

/*
 * Who has access to a space or a collection, the GraphQL side of `/v1/{spaces,collections}/{id}/permissions`:
 * the viewer's own role and the grants to users and teams.
 */

const ContentUserAccessRef = builder.objectRef<UserGrant>('ContentUserAccess').implement({
  description: 'Access granted directly to one user on a space or a collection.',
  fields: (t) => ({
    role: t.field({ type: RoleEnum, description: 'The role granted, on top of what the user gets otherwise and not capped by their organization role.', resolve: (g) => g.role }),
    user: t.field({ type: UserRef, description: 'The user given access.', resolve: (g) => g.user }),
    grantedAt: t.expose('grantedAt', { type: 'DateTime', description: 'When the access was granted or last changed.' }),
  }),
});

const ContentTeamAccessRef = builder.objectRef<TeamGrant>('ContentTeamAccess').implement({
  description: 'Access granted to one team on a space or a collection: every member of the team gets it.',
  fields: (t) => ({
    role: t.field({ type: RoleEnum, description: 'The role granted to each member of the team, on top of what they get otherwise and not capped by their organization role.', resolve: (g) => g.role }),
    team: t.field({ type: TeamRef, description: 'The team given access.', resolve: (g) => g.team }),
    grantedAt: t.expose('grantedAt', { type: 'DateTime', description: 'When the access was granted or last changed.' }),
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

/** The three access fields, alike on spaces and collections. */
function accessFields<Row extends SpaceRow | CollectionRow>(
  t: PothosSchemaTypes.ObjectFieldBuilder<BuilderTypes, Row>,
  noun: 'space' | 'collection',
  content: (row: Row) => Content,
) {
  const list =
    <T>(load: (ctx: RequestContext, c: Content, args: PageArgs, max: number) => Promise<Page<T>>) =>
    async (row: Row, args: PageArgs, ctx: RequestContext) =>
      pageToConnection(await load(ctx, content(row), connectionArgs(args), GRAPHQL_MAX));
  return {
    viewerRole: t.field({
      type: RoleEnum,
      nullable: true,
      description:
        `The viewer's role on the ${noun}, from their organization role, the default levels of the ${noun} and of the ` +
        'collections above it, and the access granted to them and their teams there; null when they have none.',
      resolve: (row, _, ctx) => viewerContentRole(ctx, content(row)),
    }),
    userAccess: t.connection(
      {
        type: ContentUserAccessRef,
        description: `Access granted directly to users on this ${noun}, oldest first. Access granted on collections above it is not listed.${PER_PARENT}`,
        resolve: list(listUserGrants),
      },
      ContentUserAccessConnection,
    ),
    teamAccess: t.connection(
      {
        type: ContentTeamAccessRef,
        description:
          `Access granted to teams on this ${noun}, oldest first; guests see only their own teams. Access granted on collections above it is not listed.${PER_PARENT}`,
        resolve: list(listTeamGrants),
      },
      ContentTeamAccessConnection,
    ),
  };
}

builder.objectFields(SpaceRef, (t) => accessFields(t, 'space', (row) => ({ kind: 'space', row })));
builder.objectFields(CollectionRef, (t) => accessFields(t, 'collection', (row) => ({ kind: 'collection', row })));
