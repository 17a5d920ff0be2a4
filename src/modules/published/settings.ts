import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { RequestContext } from '../../context/request-context';
import { ValidationError } from '../../domain/errors';
import { LINK_URL, unsafeUrlIn, urlRuleText, WEB_URL, type UrlRule } from '../../domain/urls';
import { parseInput } from '../../domain/validate';
import { componentErrors } from '../../lib/spec-schemas';
import { completeCustomization, customizationOf, getSite } from '../sites/service';
import type { SiteRow } from '../../db/schema/sites';
import { publishingAuthUpdateSchema, type PublishingAuthUpdateInput } from './input';
import { siteCustomizations, sitePublishingAuth, type SitePublishingAuthRow } from '../../db/schema/published';

const newKey = () => randomBytes(32).toString('base64url');

async function manage(ctx: RequestContext, organizationId: string, siteId: string): Promise<SiteRow> {
  const site = await getSite(ctx, organizationId, siteId);
  await ctx.authz.assert('site:manage', site, 'Only organization admins and members with the create role can change sites');
  return site;
}

/** System use: the site's visitor sign-in settings, made (with a fresh key) the first time they are asked for. */
export async function publishingAuthOf(ctx: RequestContext, site: SiteRow): Promise<SitePublishingAuthRow> {
  const [found] = await ctx.db.select().from(sitePublishingAuth).where(eq(sitePublishingAuth.siteId, site.id));
  if (found) return found;
  await ctx.db.insert(sitePublishingAuth).values({ siteId: site.id, privateKey: newKey(), updatedAt: ctx.now() }).onConflictDoNothing();
  const [made] = await ctx.db.select().from(sitePublishingAuth).where(eq(sitePublishingAuth.siteId, site.id));
  return made;
}

/** System use: the key of a site's visitor tokens, when one was ever made. */
export async function existingPublishingAuth(ctx: RequestContext, siteId: string): Promise<SitePublishingAuthRow | null> {
  const [found] = await ctx.db.select().from(sitePublishingAuth).where(eq(sitePublishingAuth.siteId, siteId));
  return found ?? null;
}

/** The key visitor tokens are signed with, and where visitors sign in. A secret: for those who manage the site. */
export async function getPublishingAuth(ctx: RequestContext, organizationId: string, siteId: string): Promise<SitePublishingAuthRow> {
  return publishingAuthOf(ctx, await manage(ctx, organizationId, siteId));
}

export async function updatePublishingAuth(ctx: RequestContext, organizationId: string, siteId: string, input: PublishingAuthUpdateInput): Promise<SitePublishingAuthRow> {
  const site = await manage(ctx, organizationId, siteId);
  const changes = parseInput(publishingAuthUpdateSchema, input);
  await publishingAuthOf(ctx, site);
  const [row] = await ctx.db
    .update(sitePublishingAuth)
    .set({ ...(changes.backend ? { backend: changes.backend } : {}), ...(changes.fallbackURL !== undefined ? { fallbackUrl: changes.fallbackURL } : {}), updatedAt: ctx.now() })
    .where(eq(sitePublishingAuth.siteId, site.id))
    .returning();
  return row;
}

/** A new key: every visitor token signed with the old one stops working. */
export async function regeneratePublishingAuth(ctx: RequestContext, organizationId: string, siteId: string): Promise<SitePublishingAuthRow> {
  const site = await manage(ctx, organizationId, siteId);
  await publishingAuthOf(ctx, site);
  const [row] = await ctx.db.update(sitePublishingAuth).set({ privateKey: newKey(), updatedAt: ctx.now() }).where(eq(sitePublishingAuth.siteId, site.id)).returning();
  return row;
}

export async function getCustomization(ctx: RequestContext, organizationId: string, siteId: string): Promise<Record<string, unknown>> {
  const site = await getSite(ctx, organizationId, siteId);
  return (await customizationOf(ctx, site.id)).settings;
}

/**
 * Every URL of SiteCustomizationSettings (`*` for a list index): the links readers click (the
 * platform's ContentRefURL) may also be mailto or a path of the site; what the browser loads by
 * itself (images, fonts) must be http(s).
 */
export const CUSTOMIZATION_URLS = new Map<string, UrlRule>([
  ['header.links.*.to.url', LINK_URL],
  ['header.links.*.links.*.to.url', LINK_URL],
  ['footer.groups.*.links.*.to.url', LINK_URL],
  ['announcement.link.to.url', LINK_URL],
  ['privacyPolicy.url', { mailto: true }],
  ['socialPreview.url', WEB_URL],
  ...['header.logo', 'footer.logo', 'favicon.icon'].flatMap((at) => ['light', 'dark'].map((theme) => [`${at}.${theme}`, WEB_URL] as const)),
  ...['font', 'monospaceFont'].map((font) => [`styling.${font}.fontFaces.*.sources.*.url`, WEB_URL] as const),
]);

const customizationUrlRule = (keys: readonly string[], depth: number) =>
  keys.length === depth ? (CUSTOMIZATION_URLS.get(keys.map((k) => (/^\d+$/.test(k) ? '*' : k)).join('.')) ?? null) : null;

/** Saves a whole customization, checked against the platform's SiteCustomizationSettings schema, with safe URLs only. */
export async function updateCustomization(ctx: RequestContext, organizationId: string, siteId: string, input: unknown): Promise<Record<string, unknown>> {
  const site = await manage(ctx, organizationId, siteId);
  const errors = componentErrors('SiteCustomizationSettings', input);
  if (errors) throw new ValidationError(`The customization does not match the platform's settings: ${errors.join('; ')}`);
  const unsafe = unsafeUrlIn(input, customizationUrlRule);
  if (unsafe) {
    const rule = customizationUrlRule(unsafe.path, unsafe.path.length)!;
    throw new ValidationError(`${unsafe.path.join('.')} must be ${urlRuleText(rule)}`, unsafe.path);
  }
  const settings = input as Record<string, unknown>;
  await ctx.db
    .insert(siteCustomizations)
    .values({ siteId: site.id, settings, updatedAt: ctx.now() })
    .onConflictDoUpdate({ target: siteCustomizations.siteId, set: { settings, updatedAt: ctx.now() } });
  return completeCustomization(settings);
}
