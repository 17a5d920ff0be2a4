import { encodeGlobalID } from '@pothos/plugin-relay';
import { builder } from '../../../graphql/builder';
import { orNull } from '../../../graphql/errors';
import { defineMutation } from '../../../graphql/mutation';
import { GRAPHQL_MAX, pageToConnection, connectionArgs, totalCountField } from '../../../graphql/relay';
import type { SiteRedirectDestination } from '../input';
import {
  createSiteRedirect,
  deleteSiteRedirect,
  getSectionById,
  getSiteById,
  getSiteRedirectById,
  getSiteSpaceById,
  listSiteRedirects,
  MAX_REDIRECTS_PER_SITE,
  resolveSiteRedirectById,
  siteRedirectTarget,
  updateSiteRedirect,
  type SiteRedirectInSite,
} from '../service';
import { SiteRedirectRef, SiteRef, SiteSectionRef, SiteSpaceRef } from './refs';

/*
 * The GraphQL twins of the spec's site-redirects: the `SiteRedirect` node, `Site.redirects`, the
 * lookup by source, and one mutation per change. The services are those REST calls.
 */

const MANAGE = 'Organization admins and members with the create role.';

const DestinationKind = builder.enumType('SiteRedirectDestinationKind', {
  description: 'What a site redirect sends its readers to.',
  values: {
    SITE_SECTION: { value: 'site-section' as const, description: 'A section of the site, at its root variant.' },
    SITE_SPACE: { value: 'site-space' as const, description: 'A site space (a variant) of the site.' },
    SITE_PAGE: { value: 'site-page' as const, description: 'A page of a site space.' },
  },
});

builder.node(SiteRedirectRef, {
  description: 'A path of a published site that sends its readers to a section, a site space or a page of the same site.',
  id: { resolve: (r) => r.redirect.id },
  loadOne: (id, ctx) => orNull(getSiteRedirectById(ctx, id)),
  fields: (t) => ({
    restId: t.string({ description: 'The id in the REST API.', resolve: (r) => r.redirect.id }),
    source: t.string({ description: 'The path inside the site it redirects from, like `/old/page` (percent-escapes in upper case).', resolve: (r) => r.redirect.source }),
    destinationKind: t.field({ type: DestinationKind, description: 'What it sends to.', resolve: (r) => r.redirect.kind }),
    siteSection: t.field({
      type: SiteSectionRef,
      nullable: true,
      description: 'The section it sends to (kind SITE_SECTION); null otherwise.',
      resolve: (r, _, ctx) => (r.redirect.siteSectionId ? orNull(getSectionById(ctx, r.redirect.siteSectionId)) : null),
    }),
    siteSpace: t.field({
      type: SiteSpaceRef,
      nullable: true,
      description: 'The site space it sends to, or whose page it sends to; null for a section.',
      resolve: (r, _, ctx) => (r.redirect.siteSpaceId ? orNull(getSiteSpaceById(ctx, r.redirect.siteSpaceId)) : null),
    }),
    pageId: t.string({ nullable: true, description: 'The id of the page it sends to (kind SITE_PAGE); null otherwise.', resolve: (r) => r.redirect.pageId }),
    target: t.string({
      nullable: true,
      description: "The absolute URL the published site serves the destination at (a page no longer in the site space's content: the site space's URL).",
      resolve: (r, _, ctx) => siteRedirectTarget(ctx, r),
    }),
    site: t.field({ type: SiteRef, description: 'The site.', resolve: (r) => r.site }),
  }),
});

builder.objectFields(SiteRef, (t) => ({
  redirects: t.connection(
    {
      type: SiteRedirectRef,
      description: `Its redirects, oldest first, at most ${MAX_REDIRECTS_PER_SITE}. Anyone who can see the site.`,
      resolve: async (s, args, ctx) => pageToConnection(await listSiteRedirects(ctx, s, connectionArgs(args), GRAPHQL_MAX)),
    },
    { name: 'SiteRedirectConnection', description: 'A page of site redirects.', fields: totalCountField },
    { name: 'SiteRedirectEdge', description: 'A site redirect in a page, with its cursor.' },
  ),
}));

const SiteRedirectMatch = builder.objectRef<SiteRedirectInSite & { target: string }>('SiteRedirectMatch').implement({
  description: 'The redirect from a path of a site, and where it sends: what `GET /v1/orgs/{organizationId}/sites/{siteId}/redirect` answers.',
  fields: (t) => ({
    redirect: t.field({ type: SiteRedirectRef, description: 'The redirect.', resolve: (m) => m }),
    target: t.string({ description: 'The absolute URL of its destination.', resolve: (m) => m.target }),
  }),
});

builder.queryFields((t) => ({
  siteRedirectBySource: t.field({
    type: SiteRedirectMatch,
    nullable: true,
    description:
      "The redirect from a path of a site, as the site's readers get it: members who see the site, and anyone once it is published " +
      '(public and unlisted sites; share-link sites with an active key). Null when there is none or the site is not readable, like REST\'s 404.',
    args: {
      siteId: t.arg.globalID({ for: SiteRef, required: true, description: 'The site.' }),
      source: t.arg.string({ required: true, description: 'The path inside the site, like `/old/page`.' }),
      shareKey: t.arg.string({ description: 'The key of a share link, for a share-link site.' }),
    },
    resolve: (_, { siteId, source, shareKey }, ctx) => orNull(resolveSiteRedirectById(ctx, siteId.id, { source, ...(shareKey ? { shareKey } : {}) })),
  }),
}));

const DestinationInput = builder.inputType('SiteRedirectDestinationInput', {
  description: 'Where a redirect sends: a section, a site space, or a page of a site space, of the same site.',
  fields: (t) => ({
    kind: t.field({ type: DestinationKind, required: true, description: 'What it sends to.' }),
    siteSectionId: t.globalID({ for: SiteSectionRef, description: 'The section, for SITE_SECTION.' }),
    siteSpaceId: t.globalID({ for: SiteSpaceRef, description: 'The site space, for SITE_SPACE and SITE_PAGE.' }),
    pageId: t.string({ description: 'The id of the page in the site space, for SITE_PAGE.' }),
  }),
});

type DestinationArg = { kind: SiteRedirectDestination['kind']; siteSectionId?: { id: string } | null; siteSpaceId?: { id: string } | null; pageId?: string | null };

/** The service's destination from the GraphQL input: the ids the kind needs (a missing one is the service's 400). */
const destinationOf = (d: DestinationArg) =>
  ({
    kind: d.kind,
    ...(d.kind === 'site-section' ? { siteSectionId: d.siteSectionId?.id } : { siteSpaceId: d.siteSpaceId?.id }),
    ...(d.kind === 'site-page' ? { pageId: d.pageId ?? undefined } : {}),
  }) as SiteRedirectDestination;

const redirectPayload = (description: string) => ({ redirect: { type: SiteRedirectRef, description } });

defineMutation('siteRedirectCreate', {
  description: `Adds a redirect to a site: a source path unique in the site, and a destination in it; a site holds at most ${MAX_REDIRECTS_PER_SITE}. ${MANAGE}`,
  input: (t) => ({
    siteId: t.globalID({ for: SiteRef, required: true, description: 'The site.' }),
    source: t.string({ required: true, description: 'The path to redirect from, like `/old/page`: at most 512 characters, no trailing slash.' }),
    destination: t.field({ type: DestinationInput, required: true, description: 'Where it sends.' }),
  }),
  payload: redirectPayload('The new redirect.'),
  resolve: async ({ siteId, source, destination }, ctx) => ({ redirect: await createSiteRedirect(ctx, await getSiteById(ctx, siteId.id), { source, destination: destinationOf(destination) }) }),
});

defineMutation('siteRedirectUpdate', {
  inputDescription: 'Input of siteRedirectUpdate. Absent fields stay as they are.',
  description: `Changes a redirect's source or destination. ${MANAGE}`,
  input: (t) => ({
    redirectId: t.globalID({ for: SiteRedirectRef, required: true, description: 'The redirect.' }),
    source: t.string({ description: 'A new path to redirect from.' }),
    destination: t.field({ type: DestinationInput, description: 'A new destination.' }),
  }),
  payload: redirectPayload('The redirect after the change.'),
  resolve: async ({ redirectId, source, destination }, ctx) => {
    const found = await getSiteRedirectById(ctx, redirectId.id);
    return { redirect: await updateSiteRedirect(ctx, found, { ...(source != null ? { source } : {}), ...(destination ? { destination: destinationOf(destination) } : {}) }) };
  },
});

defineMutation('siteRedirectDelete', {
  description: `Deletes a redirect; the path then answers as it would without it. ${MANAGE}`,
  input: (t) => ({ redirectId: t.globalID({ for: SiteRedirectRef, required: true, description: 'The redirect.' }) }),
  payload: { deletedRedirectId: { type: 'ID', description: 'The global ID the redirect had.' } },
  gone: ({ redirectId }) => ({ deletedRedirectId: encodeGlobalID('SiteRedirect', redirectId.id) }),
  resolve: async ({ redirectId }, ctx) => {
    await deleteSiteRedirect(ctx, await getSiteRedirectById(ctx, redirectId.id));
    return { deletedRedirectId: encodeGlobalID('SiteRedirect', redirectId.id) };
  },
});
