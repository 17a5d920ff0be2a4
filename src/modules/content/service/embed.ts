import { z } from 'zod';
import type { RequestContext } from '../../../context/request-context';
import { parseInput } from '../../../domain/validate';
import { getSpace } from '../../spaces/service';

/*
 * What an embed block of a space shows for a URL (the spec's getEmbedByUrlInSpace, an `Embed`).
 * Quire answers the spec's plain `link` form from the URL alone and fetches nothing: the renderer
 * asks once per embed block it draws, so a fetch would put an arbitrary third-party site's latency
 * (and its failures) on the page's path, and the richer forms need more than a fetch: `rich` is
 * third-party HTML that would have to be sanitized, and `integration` needs an installed
 * integration that unfurls the URL. A `link` is what the renderer draws as a card with the site's
 * name, which is always right.
 */

const embedQuery = z.object({
  url: z
    .string({ error: 'url is required' })
    .max(2048, 'url must be at most 2048 characters')
    .refine((value) => {
      try {
        const url = new URL(value);
        return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
      } catch {
        return false;
      }
    }, 'url must be an absolute http or https URL'),
});
export type EmbedInput = z.input<typeof embedQuery>;

/** The spec's Embed, in its `link` form. */
export interface Embed {
  type: 'link';
  /** The URL as the reader would read it: host and path, without the scheme. */
  title: string;
  /** The host the URL points at. */
  site: string;
}

/** The embed of a URL in a space the viewer may see. */
export async function getEmbed(ctx: RequestContext, spaceId: string, input: EmbedInput): Promise<Embed> {
  await getSpace(ctx, spaceId);
  const url = new URL(parseInput(embedQuery, input).url);
  const site = url.hostname.replace(/^www\./, '');
  const path = url.pathname === '/' ? '' : url.pathname;
  return { type: 'link', title: `${site}${path}${url.search}`, site };
}
