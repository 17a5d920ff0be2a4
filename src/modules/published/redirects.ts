import type { RequestContext } from '../../context/request-context';
import { contentAt } from '../content/service';
import { findRedirect, type SiteTree } from '../sites/service';
import { spaceById } from '../spaces/service';
import type { SiteRow } from '../../db/schema/sites';

/*
 * Site redirects where readers meet them: a path of the site that is no page answers the site's
 * redirect from it, before the 404. Both doors ask on their miss path only, with one statement on
 * the redirects' source index, as the platform's renderer does (the path inside the site, then the
 * path inside the space, each segment percent-encoded).
 */

const sourceOf = (segments: string[]) => `/${segments.map(encodeURIComponent).join('/')}`;

/** The reader's missing page: where the site redirects it (a 302: redirects change), or null. */
export async function readerRedirect(ctx: RequestContext, site: SiteRow, tree: SiteTree, segments: string[], pagePath?: string): Promise<{ kind: 'redirect'; location: string } | null> {
  // `~files`, `~search` and the like are the reader's own, never a redirect's source.
  if (!segments.length || segments.some((s) => s.startsWith('~'))) return null;
  const sources = [sourceOf(segments), ...(pagePath ? [sourceOf(pagePath.split('/'))] : [])];
  const found = await findRedirect(ctx, site, sources, tree);
  return found ? { kind: 'redirect', location: found.target } : null;
}

/**
 * The URL lookup's redirect: the spec's Redirect variant (`target: 'content'`) when the path (raw
 * segments after the site) has a redirect and is no page of the space it falls in; null otherwise.
 * The page is looked for first, in the revision's tree (kept in memory once read), so a lookup of a
 * page, the renderer's usual one, asks nothing of the redirects.
 */
export async function lookupRedirect(ctx: RequestContext, site: SiteRow, tree: SiteTree, rawSegments: string[], spaceId: string, rawPathname: string): Promise<{ target: 'content'; redirect: string } | null> {
  if (!rawSegments.length || rawSegments.some((s) => s.startsWith('~'))) return null;
  const space = await spaceById(ctx).load(spaceId);
  let path = rawPathname;
  try {
    path = decodeURIComponent(rawPathname);
  } catch {
    // A malformed escape names no page.
  }
  // A page at that path wins over a redirect.
  if (space && path && (await contentAt(ctx, space, space.revisionId)).tree.byPath.has(path)) return null;
  const found = await findRedirect(ctx, site, [`/${rawSegments.join('/')}`, ...(rawPathname ? [`/${rawPathname}`] : [])], tree);
  return found ? { target: 'content', redirect: found.target } : null;
}
