import type { PageArgs } from '../../../domain/page';
import { builder } from '../../../graphql/builder';
import { costExtensions } from '../../../graphql/cost';
import { orNull } from '../../../graphql/errors';
import { batchedConnection, GRAPHQL_MAX, totalCountField } from '../../../graphql/relay';
import { OrganizationRef } from '../../organizations/graphql/refs';
import { getOrganization } from '../../organizations/service';
import { SpaceRef } from '../../spaces/graphql/refs';
import {
  getAdaptiveSchema,
  getSectionById,
  getSectionGroupById,
  getShareLinkById,
  getSiteById,
  getSiteSpaceById,
  listShareLinks,
  listSitesOfOrganizations,
  listTemplateConditions,
  publishedUrl,
  siteSpaceCount,
  siteStructure,
} from '../service';
import { AgentsContextEnum, ShareLinkRef, SiteRef, SiteSectionGroupRef, SiteSectionRef, SiteSpaceRef, SiteTypeEnum, SiteVisibilityEnum } from './refs';

export const SiteStructureItem = builder.unionType('SiteStructureItem', {
  description: 'An item of a site structure: a section, a group of sections, or (in a site without sections) a site space.',
  types: [SiteSectionRef, SiteSectionGroupRef, SiteSpaceRef],
  resolveType: (item) => ('sections' in item ? SiteSectionGroupRef : 'siteSpaces' in item ? SiteSectionRef : SiteSpaceRef),
});

const TemplateConditionRef = builder.objectRef<{ description: string; condition: string }>('SiteTemplateCondition').implement({
  description: "An example condition over the site's visitor claims.",
  fields: (t) => ({
    description: t.exposeString('description', { description: 'What it selects.' }),
    condition: t.exposeString('condition', { description: 'The expression.' }),
  }),
});

builder.node(SiteRef, {
  description: 'A documentation site of an organization, built from its spaces, in sections or not.',
  id: { resolve: (s) => s.id },
  loadOne: (id, ctx) => orNull(getSiteById(ctx, id)),
  fields: (t) => ({
    restId: t.exposeString('id', { description: 'The id in the REST API.' }),
    title: t.exposeString('title', { description: 'Its title.' }),
    type: t.field({ type: SiteTypeEnum, description: 'Its plan.', resolve: (s) => s.type }),
    visibility: t.field({ type: SiteVisibilityEnum, description: 'Who can read it once published.', resolve: (s) => s.visibility }),
    basename: t.exposeString('basename', { nullable: true, description: "Where it is published under the organization's host; null for its id." }),
    proxy: t.exposeString('proxyOrigin', { nullable: true, description: 'The host and path a proxy serves it at, if any.' }),
    published: t.exposeBoolean('published', { description: 'Whether it is live.' }),
    publishedUrl: t.string({ nullable: true, description: 'Where readers find it; null until published.', resolve: (s, _, ctx) => (s.published ? publishedUrl(ctx, s) : null) }),
    adaptiveContent: t.exposeBoolean('adaptiveContent', { description: 'Whether it adapts to visitor claims.' }),
    agentsContext: t.field({ type: AgentsContextEnum, description: 'Whether agents may read it.', resolve: (s) => s.agentsContext }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
    organization: t.field({ type: OrganizationRef, description: 'Its organization.', resolve: (s, _, ctx) => getOrganization(ctx, s.organizationId) }),
    siteSpaceCount: t.int({ description: 'How many spaces it publishes.', resolve: (s, _, ctx) => siteSpaceCount(ctx, s) }),
    viewerCanManage: t.boolean({ description: 'Whether the viewer may change, publish and delete it.', resolve: (s, _, ctx) => ctx.authz.can('site:manage', s) }),
    structure: t.field({
      type: [SiteStructureItem],
      description: 'Its sections and groups in order, or its site spaces when it has no sections.',
      extensions: costExtensions({ group: 'site-structure' }),
      resolve: async (s, _, ctx) => (await siteStructure(ctx, s)).structure,
    }),
    shareLinks: t.field({
      type: [ShareLinkRef],
      description: 'Its share links; only for those who manage it.',
      resolve: async (s, _, ctx) => (await listShareLinks(ctx, s, { first: GRAPHQL_MAX }, GRAPHQL_MAX)).items,
    }),
    adaptiveSchema: t.field({ type: 'JSON', description: 'The JSON Schema of its visitor claims.', resolve: async (s, _, ctx) => (await getAdaptiveSchema(ctx, s)).schema }),
    templateConditions: t.field({ type: [TemplateConditionRef], description: 'Example conditions derived from the adaptive schema.', resolve: (s, _, ctx) => listTemplateConditions(ctx, s) }),
  }),
});

builder.node(SiteSpaceRef, {
  description: 'A space published in a site, at a path of the site or of a section.',
  id: { resolve: (s) => s.row.id },
  loadOne: (id, ctx) => orNull(getSiteSpaceById(ctx, id)),
  fields: (t) => ({
    restId: t.string({ description: 'The id in the REST API.', resolve: (s) => s.row.id }),
    path: t.string({ description: 'Its path.', resolve: (s) => s.row.path }),
    title: t.string({ description: "The space's title.", resolve: (s) => s.space.title }),
    space: t.field({ type: SpaceRef, description: 'The space.', resolve: (s) => s.space }),
    isDefault: t.boolean({ description: 'Whether it is the default of its section (or of the site).', resolve: (s) => s.isDefault }),
    condition: t.string({ nullable: true, description: 'Who sees it: an expression over visitor claims; null for everyone.', resolve: (s) => s.row.condition }),
    site: t.field({ type: SiteRef, description: 'The site.', resolve: (s) => s.site }),
  }),
});

builder.node(SiteSectionRef, {
  description: 'A section of a site, with its own path and variants.',
  id: { resolve: (s) => s.row.id },
  loadOne: (id, ctx) => orNull(getSectionById(ctx, id)),
  fields: (t) => ({
    restId: t.string({ description: 'The id in the REST API.', resolve: (s) => s.row.id }),
    title: t.string({ description: 'Its title.', resolve: (s) => s.row.title }),
    description: t.string({ nullable: true, description: 'Its description.', resolve: (s) => s.row.description }),
    path: t.string({ description: 'Its path.', resolve: (s) => s.row.path }),
    icon: t.string({ nullable: true, description: 'Its icon.', resolve: (s) => s.row.icon }),
    condition: t.string({ nullable: true, description: 'Who sees it; null for everyone.', resolve: (s) => s.row.condition }),
    isDefault: t.boolean({ description: 'Whether it is the default section.', resolve: (s) => s.isDefault }),
    siteSpaces: t.field({ type: [SiteSpaceRef], description: 'Its variants, in order.', extensions: costExtensions({ group: 'site-structure' }), resolve: (s) => s.siteSpaces }),
  }),
});

builder.node(SiteSectionGroupRef, {
  description: 'Sections shown together in the navigation.',
  id: { resolve: (g) => g.row.id },
  loadOne: (id, ctx) => orNull(getSectionGroupById(ctx, id)),
  fields: (t) => ({
    restId: t.string({ description: 'The id in the REST API.', resolve: (g) => g.row.id }),
    title: t.string({ description: 'Its title.', resolve: (g) => g.row.title }),
    icon: t.string({ nullable: true, description: 'Its icon.', resolve: (g) => g.row.icon }),
    sections: t.field({ type: [SiteSectionRef], description: 'Its sections, in order.', extensions: costExtensions({ group: 'site-structure' }), resolve: (g) => g.sections }),
  }),
});

builder.node(ShareLinkRef, {
  description: 'A secret link that opens a share-link site while it is active.',
  id: { resolve: (l) => l.link.id },
  loadOne: (id, ctx) => orNull(getShareLinkById(ctx, id)),
  fields: (t) => ({
    restId: t.string({ description: 'The id in the REST API.', resolve: (l) => l.link.id }),
    name: t.string({ description: 'Its name.', resolve: (l) => l.link.name }),
    active: t.boolean({ description: 'Whether it opens the site.', resolve: (l) => l.link.active }),
    url: t.string({ description: 'The published URL with its key.', resolve: (l, _, ctx) => `${publishedUrl(ctx, l.site)}?shareKey=${l.link.key}` }),
    createdAt: t.field({ type: 'DateTime', description: 'When it was made.', resolve: (l) => l.link.createdAt }),
  }),
});

builder.objectFields(OrganizationRef, (t) => ({
  sites: t.connection(
    {
      type: SiteRef,
      description: 'Sites of the organization, oldest first. Guests cannot list sites.',
      args: {
        title: t.arg.string({ description: 'Only sites whose title contains this text.' }),
        published: t.arg.boolean({ description: 'Only published (true) or unpublished (false) sites.' }),
        space: t.arg.string({ description: 'Only sites publishing this space (REST id).' }),
        type: t.arg({ type: [SiteTypeEnum], description: 'Only sites of these types.' }),
      },
      resolve: batchedConnection('Organization.sites', (ctx, orgs, { title, published, space, type, ...window }: PageArgs & { title?: string | null; published?: boolean | null; space?: string | null; type?: string[] | null }) =>
        listSitesOfOrganizations(
          ctx,
          orgs,
          { title: title ?? undefined, published: published == null ? undefined : published ? 'true' : 'false', space: space ?? undefined, type: (type ?? undefined) as never },
          window,
          GRAPHQL_MAX,
        ),
      ),
    },
    { name: 'SiteConnection', description: 'A page of sites.', fields: totalCountField },
    { name: 'SiteEdge', description: 'A site in a page, with its cursor.' },
  ),
}));
