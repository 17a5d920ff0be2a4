import { builder } from '../../../graphql/builder';
import { RoleEnum } from '../../../graphql/enums';
import { orNull } from '../../../graphql/errors';
import { getOrganization, organizationPermissions, type OrganizationPermissions } from '../service';
import { OrganizationRef } from './refs';

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
  }),
});
