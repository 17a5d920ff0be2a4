import { builder } from '../../../graphql/builder';
import { orNull } from '../../../graphql/errors';
import { lookupPublishedUrl, type UrlLookup } from '../service';

/*
 * The twin of `POST /v1/urls/published`. Ids are plain REST ids, not objects: the caller is
 * usually no member (anyone may look a URL up) and reads those objects with the `apiToken`.
 */

type Redirect = Extract<UrlLookup, { redirect: string }>;
type Content = Exclude<UrlLookup, Redirect>;

const PublishedUrlRedirectRef = builder.objectRef<Redirect>('PublishedUrlRedirect').implement({
  description: 'The URL does not admit its visitor yet: where to send them (a share-link site without its key, a visitor-auth site without a valid token).',
  fields: (t) => ({
    target: t.exposeString('target', { description: 'What the redirect is to: `application` (the site in the app, to sign in as a member), `external` (the site\'s sign-in page) or `content`.' }),
    redirect: t.exposeString('redirect', { description: 'The URL to send the visitor to.' }),
  }),
});

const PublishedUrlContentRef = builder.objectRef<Content>('PublishedUrlContent').implement({
  description: 'What a published URL shows: its site, section, site space and space, and a short-lived token that reads them.',
  fields: (t) => ({
    organizationId: t.string({ description: 'The REST id of the organization.', resolve: (c) => c.organization }),
    siteId: t.string({ description: 'The REST id of the site.', resolve: (c) => c.site }),
    siteSectionId: t.string({ nullable: true, description: 'The REST id of the section; null for a site without sections.', resolve: (c) => c.siteSection ?? null }),
    siteSpaceId: t.string({ description: 'The REST id of the site space (the variant).', resolve: (c) => c.siteSpace }),
    spaceId: t.string({ description: 'The REST id of the space shown.', resolve: (c) => c.space }),
    revisionId: t.string({ description: 'The revision of the space that is published.', resolve: (c) => c.revision }),
    basePath: t.exposeString('basePath', { description: 'The path of the URL up to the page path: site, share key, section and variant, with slashes around.' }),
    siteBasePath: t.exposeString('siteBasePath', { description: 'The path of the URL up to the site (and its share key), with slashes around.' }),
    pathname: t.exposeString('pathname', { description: 'The rest of the path: the page, relative to `basePath`.' }),
    canonicalUrl: t.exposeString('canonicalUrl', { description: 'Where the site serves this content, default section and variant left out.' }),
    complete: t.exposeBoolean('complete', { description: 'Whether no further path segment could name a section or a variant: the URL named both (or the site has no sections).' }),
    apiToken: t.exposeString('apiToken', { description: "A token, valid an hour, that reads this site's published content and nothing else: its published data and the spaces it shows the visitor." }),
    shareKey: t.string({ nullable: true, description: 'The share key that opened a share-link site.', resolve: (c) => c.shareKey ?? null }),
    contextId: t.string({ nullable: true, description: "Changes with the claims of the visitor's token; null without one.", resolve: (c) => c.contextId ?? null }),
  }),
});

const PublishedUrlLookupRef = builder.unionType('PublishedUrlLookup', {
  description: 'What a published URL resolves to: its content, or where to send a visitor it does not admit.',
  types: [PublishedUrlContentRef, PublishedUrlRedirectRef],
  resolveType: (answer) => ('redirect' in answer ? PublishedUrlRedirectRef : PublishedUrlContentRef),
});

builder.queryFields((t) => ({
  publishedUrlLookup: t.field({
    type: PublishedUrlLookupRef,
    nullable: true,
    description:
      "Resolves a URL of a published site, as `POST /v1/urls/published`: for anyone, token or not; what it answers is what the URL's visitors may read. " +
      'Null for a URL of no published site, like REST\'s 404.',
    args: {
      url: t.arg.string({ required: true, description: 'The URL to resolve (a share key may be in its query or be the first segment after the site).' }),
      visitorToken: t.arg.string({ description: "A visitor token signed with the site's key: opens a visitor-auth site and brings the visitor's claims." }),
      redirectOnError: t.arg.boolean({ description: 'With a token that is invalid: answer the redirect to the sign-in page rather than an UNAUTHENTICATED error.' }),
    },
    resolve: (_, { url, visitorToken, redirectOnError }, ctx) =>
      orNull(lookupPublishedUrl(ctx, { url, ...(visitorToken ? { visitor: { jwtToken: visitorToken } } : {}), ...(redirectOnError !== null && redirectOnError !== undefined ? { redirectOnError } : {}) })),
  }),
}));
