import type { PageArgs } from '../../../domain/page';
import { builder } from '../../../graphql/builder';
import { enumValues } from '../../../graphql/enums';
import { orNull } from '../../../graphql/errors';
import { batchedConnection, connectionArgs, GRAPHQL_MAX, pageToConnection, totalCountField } from '../../../graphql/relay';
import { OrganizationRef } from '../../organizations/graphql/refs';
import { getOrganization } from '../../organizations/service';
import { INTEGRATION_CATEGORIES, type IntegrationListInput } from '../input';
import { assetUrl, integrationUrls } from '../present';
import { devModeOf, getIntegration, getIntegrationById, listIntegrations, listIntegrationsOf } from '../service';
import { IntegrationRef } from './refs';

const CATEGORY_DESCRIPTIONS: Record<(typeof INTEGRATION_CATEGORIES)[number], string> = {
  analytics: 'Measures how content is read.',
  collaboration: 'Works with chat and project tools.',
  content: 'Brings content in or shows it in blocks.',
  gitsync: 'Keeps content in step with a Git repository.',
  marketing: 'Reaches readers: forms, banners, campaigns.',
  'visitor-auth': 'Signs visitors of published content in.',
  other: 'Anything else.',
};

export const IntegrationCategoryEnum = builder.enumType('IntegrationCategory', {
  description: 'What kind of help an integration brings, as its publisher files it.',
  values: enumValues(INTEGRATION_CATEGORIES, (c) => CATEGORY_DESCRIPTIONS[c]),
});

export const IntegrationVisibilityEnum = builder.enumType('IntegrationVisibility', {
  description: 'Who may see and install an integration.',
  values: {
    PUBLIC: { value: 'public' as const, description: 'Everyone; it is listed.' },
    UNLISTED: { value: 'unlisted' as const, description: 'Everyone who knows its name; it is not listed to other organizations.' },
    PRIVATE: { value: 'private' as const, description: 'Only the organization that publishes it, which alone may install it.' },
  },
});

export const IntegrationTargetEnum = builder.enumType('IntegrationTarget', {
  description: 'What an integration is installed on to do its work.',
  values: {
    ALL: { value: 'all' as const, description: 'Spaces and sites alike.' },
    SPACE: { value: 'space' as const, description: 'Spaces.' },
    SITE: { value: 'site' as const, description: 'Sites.' },
    ORGANIZATION: { value: 'organization' as const, description: 'The organization as a whole.' },
  },
});

const DevModeRef = builder.objectRef<{ tunnelUrl: string; all: boolean }>('IntegrationDevMode').implement({
  description: "Dev mode: the integration's events go to its developer's tunnel instead of its published script.",
  fields: (t) => ({
    tunnelUrl: t.exposeString('tunnelUrl', { description: 'Where events are sent.' }),
    all: t.exposeBoolean('all', { description: 'Whether events of every organization go there, not only those of the organization that publishes it.' }),
  }),
});

const ExternalLinkRef = builder.objectRef<{ url: string; label: string }>('IntegrationExternalLink').implement({
  description: 'A link its publisher gives, to documentation or support.',
  fields: (t) => ({
    url: t.exposeString('url', { description: 'Where it leads.' }),
    label: t.exposeString('label', { description: 'Its text.' }),
  }),
});

builder.node(IntegrationRef, {
  description:
    'An integration: a script published with the official CLI that acts on the spaces and sites of the organizations that install it, ' +
    'with the scopes it declares. A private one is seen only by the members of the organization that publishes it.',
  id: { resolve: (i) => i.id },
  loadOne: (id, ctx) => orNull(getIntegrationById(ctx, id)),
  fields: (t) => ({
    restId: t.exposeString('id', { description: 'Its id in the REST API, where events name it (`integrationId`).' }),
    name: t.exposeString('name', { description: 'Its unique name, which REST paths use (`/v1/integrations/{integrationName}`).' }),
    title: t.exposeString('title', { description: 'Its title.' }),
    description: t.exposeString('description', { description: 'What it does, in a sentence.' }),
    summary: t.exposeString('summary', { nullable: true, description: 'A longer account, in markdown; null when there is none.' }),
    version: t.exposeInt('version', { description: 'How many times it was published: each publish adds one.' }),
    visibility: t.field({ type: IntegrationVisibilityEnum, description: 'Who may see and install it.', resolve: (i) => i.visibility }),
    target: t.field({ type: IntegrationTargetEnum, description: 'What it is installed on.', resolve: (i) => i.target }),
    scopes: t.exposeStringList('scopes', { description: 'What its tokens may do where it is installed, as the platform names scopes (`space:content:read`, ...).' }),
    categories: t.field({ type: [IntegrationCategoryEnum], description: 'How its publisher files it.', resolve: (i) => i.categories as (typeof INTEGRATION_CATEGORIES)[number][] }),
    iconUrl: t.string({ nullable: true, description: 'URL of its icon; null when it has none.', resolve: (i, _, ctx) => (i.iconBlob ? assetUrl(ctx, i.iconBlob) : null) }),
    previewImageUrls: t.stringList({ description: 'URLs of its preview images, in order.', resolve: (i, _, ctx) => i.previewBlobs.map((hash) => assetUrl(ctx, hash)) }),
    publicEndpoint: t.string({ description: 'The URL it receives webhooks and callbacks at.', resolve: (i, _, ctx) => integrationUrls(ctx, i).publicEndpoint }),
    blocks: t.field({ type: 'JSON', description: 'The blocks it offers to content, as its manifest declares them.', resolve: (i) => i.manifest.blocks ?? [] }),
    contentSources: t.field({ type: 'JSON', description: 'The content sources it offers, as its manifest declares them.', resolve: (i) => i.manifest.contentSources ?? [] }),
    configurations: t.field({ type: 'JSON', description: 'JSON schemas of its settings for an organization (`account`), a space and a site.', resolve: (i) => i.manifest.configurations ?? {} }),
    externalLinks: t.field({ type: [ExternalLinkRef], description: 'Links its publisher gives.', resolve: (i) => i.manifest.externalLinks ?? [] }),
    owner: t.field({
      type: OrganizationRef,
      nullable: true,
      description: 'The organization that publishes it; null when you are not a member of it.',
      resolve: (i, _, ctx) => orNull(getOrganization(ctx, i.ownerId)),
    }),
    viewerCanPublish: t.boolean({
      description: 'Whether you may publish new versions, unpublish it and use dev mode: admins of the organization that publishes it.',
      resolve: (i, _, ctx) => ctx.authz.can('integration:publish', i),
    }),
    devMode: t.field({
      type: DevModeRef,
      nullable: true,
      description: 'Where dev mode sends its events; null when dev mode is off, and for anyone who may not publish it.',
      resolve: (i, _, ctx) => devModeOf(ctx, i),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was first published.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When it was last published or changed.' }),
  }),
});

export const IntegrationConnection = builder.connectionObject(
  { type: IntegrationRef, name: 'IntegrationConnection', description: 'A page of integrations.', fields: totalCountField },
  { name: 'IntegrationEdge', description: 'An integration in a page, with its cursor.' },
);

builder.queryFields((t) => ({
  integration: t.field({
    type: IntegrationRef,
    nullable: true,
    description: 'An integration by its name; null when there is none you may see.',
    args: { name: t.arg.string({ required: true, description: 'Its name, as in `/v1/integrations/{integrationName}`.' }) },
    resolve: (_, { name }, ctx) => orNull(getIntegration(ctx, name)),
  }),
  integrations: t.connection(
    {
      type: IntegrationRef,
      description: 'Integrations you may see, newest first: public ones, and every one the organizations you belong to publish.',
      args: {
        search: t.arg.string({ description: 'Only those whose name, title or description holds this text.' }),
        category: t.arg({ type: IntegrationCategoryEnum, description: 'Only those filed under this category.' }),
        scope: t.arg.string({ description: 'Only those asking for this scope, such as `space:content:read`.' }),
        target: t.arg({ type: IntegrationTargetEnum, description: 'Only those with this target.' }),
      },
      resolve: async (_, args, ctx) => {
        const filter: IntegrationListInput = {
          ...(args.search != null ? { search: args.search } : {}),
          ...(args.category != null ? { category: args.category } : {}),
          ...(args.scope != null ? { scope: args.scope as IntegrationListInput['scope'] } : {}),
          ...(args.target != null ? { target: args.target } : {}),
        };
        return pageToConnection(await listIntegrations(ctx, filter, connectionArgs(args), GRAPHQL_MAX));
      },
    },
    IntegrationConnection,
  ),
}));

builder.objectFields(OrganizationRef, (t) => ({
  integrations: t.connection(
    {
      type: IntegrationRef,
      description: 'Integrations the organization publishes that you may see, newest first.',
      resolve: batchedConnection('Organization.integrations', (ctx, orgs, args: PageArgs) => listIntegrationsOf(ctx, orgs, args, GRAPHQL_MAX)),
    },
    IntegrationConnection,
  ),
}));
