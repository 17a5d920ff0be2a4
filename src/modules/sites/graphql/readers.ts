import { encodeGlobalID } from '@pothos/plugin-relay';
import { builder } from '../../../graphql/builder';
import { orNull } from '../../../graphql/errors';
import { connectionArgs, GRAPHQL_MAX, pageToConnection, totalCountField } from '../../../graphql/relay';
import { listSectionGroups, listSections, listSiteSpaces, publishedSiteById, publishedUrl, type StructureView } from '../service';
import type { SiteRow } from '../../../db/schema/sites';
import { SiteRef, SiteSectionGroupRef, SiteSectionRef, SiteSpaceRef, SiteTypeEnum, SiteVisibilityEnum } from './refs';
import { SiteStructureItem } from './types';

/*
 * The lists REST gives of a site's parts (`.../site-spaces`, `.../sections`, `.../section-groups`)
 * and the view its readers get (`.../published`). `structure` gives the same parts as one tree.
 */

const connection = (name: string, what: string) => ({ name: `${name}Connection`, description: `A page of ${what}.`, fields: totalCountField });
const edge = (name: string, what: string) => ({ name: `${name}Edge`, description: `A ${what} in a page, with its cursor.` });

builder.objectFields(SiteRef, (t) => ({
  siteSpaces: t.connection(
    {
      type: SiteSpaceRef,
      description: 'Its site spaces, those at its root first, then those of each section in order. Anyone who can see the site.',
      args: { default: t.arg.boolean({ description: 'Only the default of each section (true), or only the others (false).' }) },
      resolve: async (s, { default: isDefault, ...args }, ctx) =>
        pageToConnection(await listSiteSpaces(ctx, s.organizationId, s.id, isDefault == null ? {} : { default: String(isDefault) }, connectionArgs(args), GRAPHQL_MAX)),
    },
    connection('SiteSpace', 'site spaces'),
    edge('SiteSpace', 'site space'),
  ),
  sections: t.connection(
    {
      type: SiteSectionRef,
      description: 'Its sections in order, groups flattened. Anyone who can see the site.',
      resolve: async (s, args, ctx) => pageToConnection(await listSections(ctx, s.organizationId, s.id, connectionArgs(args), GRAPHQL_MAX)),
    },
    connection('SiteSection', 'sections'),
    edge('SiteSection', 'section'),
  ),
  sectionGroups: t.connection(
    {
      type: SiteSectionGroupRef,
      description: 'Its groups of sections in order. Anyone who can see the site.',
      resolve: async (s, args, ctx) => pageToConnection(await listSectionGroups(ctx, s, connectionArgs(args), GRAPHQL_MAX)),
    },
    connection('SiteSectionGroup', 'groups of sections'),
    edge('SiteSectionGroup', 'group of sections'),
  ),
}));

const PublishedSiteRef = builder.objectRef<{ site: SiteRow; structure: StructureView }>('PublishedSite').implement({
  description:
    "A site as its readers get it, members or not: what `GET /v1/orgs/{organizationId}/sites/{siteId}/published` answers. Fields of the parts that need membership (a space's organization, say) answer errors to others.",
  fields: (t) => ({
    siteId: t.id({ description: 'The global ID of the site (the node itself is for members only).', resolve: (p) => encodeGlobalID('Site', p.site.id) }),
    restId: t.string({ description: 'The id of the site in the REST API.', resolve: (p) => p.site.id }),
    title: t.string({ description: 'Its title.', resolve: (p) => p.site.title }),
    type: t.field({ type: SiteTypeEnum, description: 'Its plan.', resolve: (p) => p.site.type }),
    visibility: t.field({ type: SiteVisibilityEnum, description: 'Who can read it.', resolve: (p) => p.site.visibility }),
    published: t.boolean({ description: 'Whether it is live; members also see it before.', resolve: (p) => p.site.published }),
    publishedUrl: t.string({ nullable: true, description: 'Where readers find it; null until published.', resolve: (p, _, ctx) => (p.site.published ? publishedUrl(ctx, p.site) : null) }),
    structure: t.field({ type: [SiteStructureItem], description: 'Its sections and groups in order, or its site spaces when it has no sections.', resolve: (p) => p.structure.structure }),
  }),
});

builder.queryFields((t) => ({
  publishedSite: t.field({
    type: PublishedSiteRef,
    nullable: true,
    description:
      'A site as its readers get it: members of its organization always (a preview before it is published); anyone else once it is published, ' +
      'public and unlisted sites to everyone, share-link sites with an active key. Null when missing or not readable, like REST\'s 404.',
    args: {
      siteId: t.arg.globalID({ for: SiteRef, required: true, description: 'The site.' }),
      shareKey: t.arg.string({ description: 'The key of a share link, for a share-link site.' }),
    },
    resolve: (_, { siteId, shareKey }, ctx) => orNull(publishedSiteById(ctx, siteId.id, shareKey ?? undefined)),
  }),
}));
