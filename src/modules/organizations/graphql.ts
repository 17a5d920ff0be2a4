import { pageLoader } from '../../app/loaders';
import { requireViewer } from '../../domain/authz';
import type { Page } from '../../domain/page';
import { builder } from '../../graphql/builder';
import { orNull, runMutation, userErrorsField } from '../../graphql/errors';
import { OrganizationMemberRef, OrganizationRef, RoleEnum, TeamRef, UserRef } from '../../graphql/refs';
import { connectionArgs, GRAPHQL_MAX, pageToConnection, restIdFrom, totalCountField } from '../../graphql/relay';
import { listMembersOfOrganizations } from '../members/service';
import type { MemberRow } from '../members/table';
import { listTeamsOfOrganizations } from '../teams/service';
import type { TeamRow } from '../teams/table';
import { getOrganization, listViewerOrganizations, organizationPermissions, updateOrganization, type OrganizationPermissions } from './service';

const OrganizationPermissionsRef = builder.objectRef<OrganizationPermissions>('OrganizationPermissions').implement({
  description: 'What the viewer may do in an organization; the same checks the API enforces.',
  fields: (t) => ({
    view: t.exposeBoolean('view', { description: 'See the organization.' }),
    admin: t.exposeBoolean('admin', { description: 'Manage its settings, members, invites and teams.' }),
    ownTeam: t.exposeBoolean('ownTeam', { description: 'Manage at least one team.' }),
    createContent: t.exposeBoolean('createContent', { description: 'Create spaces and collections.' }),
    createOpenAPISpec: t.exposeBoolean('createOpenAPISpec', { description: 'Create OpenAPI specifications.' }),
    ingestConversations: t.exposeBoolean('ingestConversations', { description: 'Ingest conversations.' }),
    viewBilling: t.exposeBoolean('viewBilling', { description: 'See billing details.' }),
    listMembers: t.exposeBoolean('listMembers', { description: 'List the members.' }),
    listTeams: t.exposeBoolean('listTeams', { description: 'List the teams.' }),
    listIntegrations: t.exposeBoolean('listIntegrations', { description: 'List the integrations.' }),
    listInstallations: t.exposeBoolean('listInstallations', { description: 'List integration installations.' }),
    installIntegration: t.exposeBoolean('installIntegration', { description: 'Install integrations.' }),
  }),
});

export const MemberRoleFilter = builder.enumType('MemberRoleFilter', {
  description: 'Filter for a member list: a role, or guests.',
  values: {
    ADMIN: { value: 'admin', description: 'Admins.' },
    CREATE: { value: 'create', description: 'Members with the create role.' },
    REVIEW: { value: 'review', description: 'Members with the review role.' },
    EDIT: { value: 'edit', description: 'Members with the edit role.' },
    COMMENT: { value: 'comment', description: 'Members with the comment role.' },
    READ: { value: 'read', description: 'Members with the read role.' },
    GUEST: { value: 'guest', description: 'Guests: members without a role.' },
  } as const,
});

const MemberSort = builder.enumType('MemberSort', {
  description: 'How to sort members.',
  values: {
    JOINED_AT: { value: 'joinedAt', description: 'By the date they joined.' },
    LAST_SEEN_AT: { value: 'lastSeenAt', description: 'By their last activity; lists only members who have been active.' },
  } as const,
});

export const SortOrder = builder.enumType('SortOrder', {
  description: 'Sort direction.',
  values: {
    ASC: { value: 'asc', description: 'Oldest or smallest first.' },
    DESC: { value: 'desc', description: 'Newest or largest first.' },
  } as const,
});

builder.node(OrganizationRef, {
  description: 'An organization: it owns members, teams and content.',
  id: { resolve: (o) => o.id },
  loadOne: (id, ctx) => orNull(getOrganization(ctx, id)),
  fields: (t) => ({
    restId: t.exposeString('id', { description: 'The id of this organization in the REST API (`/v1/orgs/{organizationId}`).' }),
    title: t.exposeString('title', { description: 'Name of the organization.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the organization was created.' }),
    emailDomains: t.exposeStringList('emailDomains', { description: 'E-mail domains whose users may find and join the organization.' }),
    hostname: t.exposeString('hostname', { nullable: true, description: 'Default hostname prefix for public content.' }),
    type: t.exposeString('type', { description: 'Kind of organization: business or community.' }),
    defaultRole: t.field({
      type: RoleEnum,
      nullable: true,
      description: 'Role given to people who join without one chosen for them; null makes them guests.',
      resolve: (o) => o.defaultRole,
    }),
    sso: t.exposeBoolean('sso', { description: 'Whether single sign-on is enforced organization-wide.' }),
    ai: t.exposeBoolean('ai', { description: 'Whether AI features are enabled.' }),
    inviteLinks: t.exposeBoolean('inviteLinks', { description: 'Whether invite links can be used to join.' }),
    plan: t.exposeString('plan', { description: 'Product plan of the organization.' }),
    logoUrl: t.exposeString('logoUrl', { nullable: true, description: 'URL of the logo, when one is set.' }),
    viewerPermissions: t.field({
      type: OrganizationPermissionsRef,
      description: 'What the viewer may do here.',
      resolve: (o, _, ctx) => organizationPermissions(ctx, o),
    }),
    viewerCanAdminister: t.boolean({
      description: 'Whether the viewer may change settings, members and teams.',
      resolve: (o, _, ctx) => ctx.authz.can('organization:admin', o),
    }),
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
        resolve: async (org, args, ctx) => {
          const filter = { role: args.role ?? undefined, search: args.search ?? undefined, sort: args.sort ?? undefined, order: args.order ?? undefined };
          const page = await pageLoader<Page<MemberRow>>(ctx, 'Organization.members', { filter, ...connectionArgs(args) }, async (ids) =>
            listMembersOfOrganizations(ctx, await Promise.all(ids.map((id) => getOrganization(ctx, id))), filter, connectionArgs(args), GRAPHQL_MAX),
          ).load(org.id);
          return pageToConnection(page);
        },
      },
      { name: 'OrganizationMemberConnection', description: 'A page of organization members.', fields: totalCountField },
      { name: 'OrganizationMemberEdge', description: 'A member in a page, with its cursor.' },
    ),
    teams: t.connection(
      {
        type: TeamRef,
        description: 'Teams of the organization, oldest first. Guests cannot list teams.',
        args: { title: t.arg.string({ description: 'Only teams whose title contains this text (case-insensitive).' }) },
        resolve: async (org, args, ctx) => {
          const filter = { title: args.title ?? undefined };
          const page = await pageLoader<Page<TeamRow>>(ctx, 'Organization.teams', { filter, ...connectionArgs(args) }, async (ids) =>
            listTeamsOfOrganizations(ctx, await Promise.all(ids.map((id) => getOrganization(ctx, id))), filter, connectionArgs(args), GRAPHQL_MAX),
          ).load(org.id);
          return pageToConnection(page);
        },
      },
      { name: 'TeamConnection', description: 'A page of teams.', fields: totalCountField },
      { name: 'TeamEdge', description: 'A team in a page, with its cursor.' },
    ),
  }),
});

const Viewer = builder.objectRef<{ userId: string }>('Viewer').implement({
  description: 'The person the API token belongs to.',
  fields: (t) => ({
    user: t.field({ type: UserRef, description: 'Their user account.', resolve: (_, __, ctx) => requireViewer(ctx).user }),
    organizations: t.connection(
      {
        type: OrganizationRef,
        description: 'Organizations they belong to, oldest first.',
        resolve: async (_, args, ctx) => pageToConnection(await listViewerOrganizations(ctx, connectionArgs(args), GRAPHQL_MAX)),
      },
      { name: 'OrganizationConnection', description: 'A page of organizations.', fields: totalCountField },
      { name: 'OrganizationEdge', description: 'An organization in a page, with its cursor.' },
    ),
  }),
});

builder.queryFields((t) => ({
  viewer: t.field({
    type: Viewer,
    nullable: true,
    description: 'The caller, from their API token; null without a token.',
    resolve: (_, __, ctx) => (ctx.viewer ? { userId: ctx.viewer.user.id } : null),
  }),
  organization: t.field({
    type: OrganizationRef,
    nullable: true,
    description: 'An organization by its REST id or its global ID; null when missing or not visible.',
    args: { id: t.arg.id({ required: true, description: 'REST id or global ID of the organization.' }) },
    resolve: (_, { id }, ctx) => orNull(getOrganization(ctx, restIdFrom(String(id), 'Organization'))),
  }),
}));

const DefaultContentInput = builder.inputType('OrganizationDefaultContentInput', {
  description: 'The content shown by default: a site.',
  fields: (t) => ({ site: t.string({ required: true, description: 'Id of the site.' }) }),
});

builder.relayMutationField(
  'organizationUpdate',
  {
    description: 'Input of organizationUpdate.',
    inputFields: (t) => ({
      organizationId: t.globalID({ for: OrganizationRef, required: true, description: 'The organization to change.' }),
      title: t.string({ description: 'New name, 2 to 255 characters.' }),
      emailDomains: t.stringList({ description: 'E-mail domains whose users may find and join the organization.' }),
      hostname: t.string({ description: 'Default hostname prefix for public content, 3 to 32 characters.' }),
      defaultRole: t.field({ type: RoleEnum, description: 'Role for people joining without one; pass null for guests.' }),
      defaultContent: t.field({ type: DefaultContentInput, description: 'The content shown by default; null to unset.' }),
      logo: t.string({ description: 'URL of the logo (at most 2048 characters); null to remove it.' }),
      sso: t.boolean({ description: 'Enforce single sign-on organization-wide.' }),
      ai: t.boolean({ description: 'Enable AI features.' }),
      inviteLinks: t.boolean({ description: 'Allow joining through invite links.' }),
    }),
  },
  {
    description: 'Changes the settings of an organization. Admins only.',
    resolve: (_, { input }, ctx) => {
      const { organizationId, clientMutationId: _c, defaultContent, ...changes } = input;
      const patch: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(changes)) if (value !== undefined) patch[key] = value;
      if (defaultContent !== undefined) patch.defaultContent = defaultContent ? { type: 'site', site: defaultContent.site } : null;
      return runMutation(async () => ({ organization: await updateOrganization(ctx, organizationId.id, patch) }));
    },
  },
  {
    description: 'Result of organizationUpdate.',
    outputFields: (t) => ({
      organization: t.field({ type: OrganizationRef, nullable: true, description: 'The organization after the change.', resolve: (p) => p.organization ?? null }),
      userErrors: userErrorsField(t),
    }),
  },
);
