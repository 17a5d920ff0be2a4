import { createHash } from 'node:crypto';
import type { RequestContext } from '../../context/request-context';
import { mintSiteToken } from '../../access-control/site-tokens';
import { conditionHolds, type Claims } from '../../domain/conditions';
import { NotFoundError, UnauthenticatedError, ValidationError } from '../../domain/errors';
import { parseInput } from '../../domain/validate';
import { findPublishedSite, publishedSiteForHost, publishedUrl, sectionsInOrder, siteOfShareKey, siteTree, spacesOf, type SiteTree } from '../sites/service';
import { spaceById } from '../spaces/service';
import type { SiteRow } from '../../db/schema/sites';
import { urlLookupSchema, type UrlLookupInput } from './input';
import { locate } from './reader';
import { lookupRedirect } from './redirects';
import { existingPublishingAuth } from './settings';
import { verifyVisitorToken } from './visitor-token';

/*
 * `POST /v1/urls/published` (and the older GET): which published site, section, variant and space
 * a URL shows, for the platform's renderer. It fires one lookup per shortened form of the URL at
 * once and keeps the first answer that is for the whole URL or says `complete`, so `complete` is
 * only said when no later segment could still name a section or a variant.
 */

/** The spec's Redirect variant: where to send a visitor this URL does not admit yet. */
export interface LookupRedirect {
  target: 'application' | 'content' | 'external';
  redirect: string;
}

/** The spec's PublishedSiteContent. */
export interface LookupContent {
  organization: string;
  site: string;
  siteSection?: string;
  siteSpace: string;
  space: string;
  revision: string;
  basePath: string;
  siteBasePath: string;
  pathname: string;
  canonicalUrl: string;
  complete: boolean;
  apiToken: string;
  shareKey?: string;
  contextId?: string;
}

export type UrlLookup = LookupRedirect | LookupContent;

/** Where the site is in the URL: its organization and name, the raw path segments that named it, and those after. */
interface SiteInUrl {
  organizationId: string;
  siteName: string;
  base: string[];
  rest: string[];
}

const decode = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new ValidationError(`url: malformed escape in path segment "${segment}"`, ['url']);
  }
};

/** Quire's own origin serves sites at `/sites/<organization>/<name>`; another host is a proxy or an organization's hostname. */
async function siteInUrl(ctx: RequestContext, url: URL): Promise<SiteInUrl | null> {
  const raw = url.pathname.split('/').filter(Boolean);
  const own = new URL(ctx.config.publicUrl);
  if (url.host === own.host) {
    const prefix = own.pathname.split('/').filter(Boolean);
    if (!prefix.every((p, i) => raw[i] === p)) return null;
    const [sitesWord, organizationId, siteName] = raw.slice(prefix.length);
    if (sitesWord !== 'sites' || !organizationId || !siteName) return null;
    const cut = prefix.length + 3;
    return { organizationId: decode(organizationId), siteName: decode(siteName), base: raw.slice(0, cut), rest: raw.slice(cut) };
  }
  const found = await publishedSiteForHost(ctx, url.host, raw.map(decode));
  if (!found) return null;
  const cut = raw.length - found.segments.length;
  return { organizationId: found.organizationId, siteName: found.siteName, base: raw.slice(0, cut), rest: raw.slice(cut) };
}

const path = (segments: string[]) => (segments.length ? `/${segments.join('/')}/` : '/');

/** The application's page of the site: where a member signs in to read a site the URL alone does not open. */
const applicationRedirect = (ctx: RequestContext, site: SiteRow): LookupRedirect => ({ target: 'application', redirect: `${ctx.config.appUrl}/o/${site.organizationId}/sites/${site.id}` });

/** The spaces of the site the visitor's claims let them open: what the site's token may read. */
function visibleSpaceIds(tree: SiteTree, claims: Claims): string[] {
  const sections = tree.sections.length ? sectionsInOrder(tree).filter((s) => conditionHolds(s.condition, claims)) : [null];
  const ids = sections.flatMap((s) => spacesOf(tree, s?.id ?? null).filter((v) => conditionHolds(v.condition, claims)).map((v) => v.spaceId));
  return [...new Set(ids)];
}

/** Resolves a published URL for anyone: what the URL shows is what its visitors may read, and the token reads no more. */
export async function lookupPublishedUrl(ctx: RequestContext, input: UrlLookupInput): Promise<UrlLookup> {
  const { url: text, redirectOnError, visitor } = parseInput(urlLookupSchema, input);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ValidationError('url must be an absolute URL', ['url']);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ValidationError('url must be an http or https URL', ['url']);
  const missing = () => new NotFoundError('Published content for this URL');

  const located = await siteInUrl(ctx, url);
  const site = located && (await findPublishedSite(ctx, located.organizationId, located.siteName));
  if (!located || !site) throw missing();
  const siteBase = [...located.base];
  let rest = located.rest;

  let shareKey: string | undefined;
  if (site.visibility === 'share-link') {
    // The key comes in the query (Quire's share links) or as the first segment after the site (the platform's).
    const inQuery = url.searchParams.get('shareKey');
    if (inQuery && (await siteOfShareKey(ctx, inQuery)) === site.id) shareKey = inQuery;
    else if (rest[0] && (await siteOfShareKey(ctx, decode(rest[0]))) === site.id) {
      shareKey = decode(rest[0]);
      siteBase.push(rest[0]);
      rest = rest.slice(1);
    }
    if (!shareKey) return applicationRedirect(ctx, site);
  }

  const token = visitor?.jwtToken ?? url.searchParams.get('jwt_token') ?? undefined;
  const auth = token || site.visibility === 'visitor-auth' ? await existingPublishingAuth(ctx, site.id) : null;
  const verified = token && auth ? await verifyVisitorToken(token, auth.privateKey, ctx.now()) : null;
  const claims = (verified?.claims ?? {}) as Claims;
  if (site.visibility === 'visitor-auth' && !verified) {
    if (token && !redirectOnError) throw new UnauthenticatedError('The visitor token is invalid or expired for this site');
    if (!auth?.fallbackUrl) return applicationRedirect(ctx, site);
    const target = new URL(auth.fallbackUrl);
    target.searchParams.set('location', url.toString());
    return { target: 'external', redirect: target.toString() };
  }

  const tree = await siteTree(ctx, site);
  // Segments from the first `~` on (`~files`, `~search`, the renderer's own) are the page's, never a section's.
  const tilde = rest.findIndex((s) => s.startsWith('~'));
  const named = tilde >= 0 ? rest.slice(0, tilde) : rest;
  const place = locate(site, tree, claims, named.map(decode));
  if (!place) throw missing();
  const space = await spaceById(ctx).load(place.variant.spaceId);
  if (!space || space.deletedAt) throw missing();
  const pathname = rest.slice(place.consumed).join('/');
  const redirected = await lookupRedirect(ctx, site, tree, rest, space.id, pathname);
  if (redirected) return redirected;
  const root = publishedUrl(ctx, site);
  const canonical = [root, place.prefix, pathname].filter(Boolean).join('/');

  const apiToken = await mintSiteToken(
    ctx.db,
    {
      organizationId: site.organizationId,
      siteId: site.id,
      spaceIds: visibleSpaceIds(tree, claims),
      visibility: site.visibility,
      ...(shareKey ? { shareKey } : {}),
      ...(verified ? { notAfter: verified.expiresAt } : {}),
    },
    ctx.now(),
  );
  return {
    organization: site.organizationId,
    site: site.id,
    ...(place.section ? { siteSection: place.section.id } : {}),
    siteSpace: place.variant.id,
    space: space.id,
    revision: space.revisionId,
    basePath: path([...siteBase, ...rest.slice(0, place.consumed)]),
    siteBasePath: path(siteBase),
    pathname,
    canonicalUrl: canonical,
    complete: place.complete,
    apiToken,
    ...(shareKey ? { shareKey } : {}),
    // Changes with what the visitor's token says of them: what the renderer's caches are keyed by.
    ...(verified ? { contextId: createHash('sha256').update(JSON.stringify(claims)).digest('base64url').slice(0, 22) } : {}),
  };
}
