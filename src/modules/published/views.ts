import { createHash } from 'node:crypto';
import type { RequestContext } from '../../context/request-context';
import { emitIntegrationEvent } from '../events/service';

/** Who read a page, as the spec's view events describe a visitor. */
export interface ViewVisitor {
  ip: string;
  userAgent: string;
  referrer: string;
  language?: string;
}

/**
 * Tells the integrations installed on the site (and on the space) that a page was read:
 * `site_view` and `space_view`. One statement each when nothing is installed, which is the usual
 * case. The visitor's anonymous id is a digest of their address and browser, so no cookie is set.
 */
export async function announceView(
  ctx: RequestContext,
  view: { organizationId: string; siteId: string; siteSpaceId: string; spaceId: string; pageId: string; url: string; visitor: ViewVisitor },
): Promise<void> {
  const { ip, userAgent, referrer, language } = view.visitor;
  const visitor = {
    anonymousId: createHash('sha256').update(`${ip}\u0000${userAgent}`).digest('base64url').slice(0, 22),
    cookies: {},
    userAgent,
    ip,
    ...(language ? { language } : {}),
  };
  const common = { pageId: view.pageId, visitor, url: view.url, referrer };
  await emitIntegrationEvent(ctx.db, ctx.jobs, { organizationId: view.organizationId, siteId: view.siteId }, { type: 'site_view', siteSpaceId: view.siteSpaceId, ...common });
  await emitIntegrationEvent(ctx.db, ctx.jobs, { organizationId: view.organizationId, spaceId: view.spaceId }, { type: 'space_view', ...common });
}
