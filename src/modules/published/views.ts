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

/*
 * Quire's own cookies on a published site: the share key and the visitor's signed token, set by
 * the reader (reader.ts). Either one opens the site to whoever holds it, so an integration's code
 * never sees them; every other cookie of the visitor (consent, analytics ids) goes as sent.
 */
const QUIRE_COOKIE = /^quire_(share|visitor)_/;

/** The visitor's cookies as a view event carries them, without Quire's own. */
export function visitorCookies(cookies: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(cookies).filter(([name]) => !QUIRE_COOKIE.test(name)));
}

/**
 * Tells the integrations installed on the site (and on the space) that a page was read:
 * `site_view` and `space_view`. One statement each when nothing is installed, which is the usual
 * case. The visitor's anonymous id is a digest of their address and browser, so no cookie is set.
 * The visitor's cookies go along, as the platform sends them, so consent checks can pass.
 */
export async function announceView(
  ctx: RequestContext,
  view: { organizationId: string; siteId: string; siteSpaceId: string; spaceId: string; pageId: string; url: string; visitor: ViewVisitor; cookies: Record<string, string> },
): Promise<void> {
  const { ip, userAgent, referrer, language } = view.visitor;
  const visitor = {
    anonymousId: createHash('sha256').update(`${ip}\u0000${userAgent}`).digest('base64url').slice(0, 22),
    cookies: visitorCookies(view.cookies),
    userAgent,
    ip,
    ...(language ? { language } : {}),
  };
  const common = { pageId: view.pageId, visitor, url: view.url, referrer };
  await emitIntegrationEvent(ctx.db, ctx.jobs, { organizationId: view.organizationId, siteId: view.siteId }, { type: 'site_view', siteSpaceId: view.siteSpaceId, ...common });
  await emitIntegrationEvent(ctx.db, ctx.jobs, { organizationId: view.organizationId, spaceId: view.spaceId }, { type: 'space_view', ...common });
}
