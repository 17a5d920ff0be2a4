import { sql } from 'drizzle-orm';
import { boolean, doublePrecision, index, json, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from './columns';
import type { AgentsContext, SiteType, SiteVisibility } from '../../domain/sites';
import { organizations } from './organizations';
import { spaces } from './spaces';

/** A published documentation site of an organization, built from its spaces. */
export const sites = pgTable(
  'sites',
  {
    id: text().primaryKey(),
    organizationId: text()
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    type: text().$type<SiteType>().notNull().default('basic'),
    title: text().notNull(),
    visibility: text().$type<SiteVisibility>().notNull().default('public'),
    /** Where it is published under the organization's host; unique there. */
    basename: text(),
    /** The URL (host and path, no scheme) a proxy serves it at. */
    proxyOrigin: text(),
    published: boolean().notNull().default(false),
    adaptiveContent: boolean().notNull().default(false),
    agentsContext: text().$type<AgentsContext>().notNull().default('included'),
    /** The default site space at the root, while the site has no sections. */
    defaultSiteSpaceId: text(),
    /** The default section, once the site has sections. */
    defaultSiteSectionId: text(),
    /** The JSON Schema of the visitor claims adaptive content reads; null until set. */
    // json, not jsonb: the claims keep the order their author gave them.
    adaptiveSchema: json().$type<Record<string, unknown>>(),
    createdAt: ts().notNull().defaultNow(),
    updatedAt: ts().notNull().defaultNow(),
  },
  (t) => [
    index('sites_organization_idx').on(t.organizationId, t.createdAt, t.id),
    uniqueIndex('sites_basename_idx').on(t.organizationId, t.basename).where(sql`${t.basename} is not null`),
  ],
);

/** A space published in a site, at a path of the site. */
export const siteSpaces = pgTable(
  'site_spaces',
  {
    id: text().primaryKey(),
    siteId: text()
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    spaceId: text()
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    /** The section it is a variant in; null at the root of a site without sections. */
    sectionId: text().references(() => siteSections.id, { onDelete: 'cascade' }),
    path: text().notNull(),
    /** An expression over visitor claims that decides who sees it; null for everyone. */
    condition: text(),
    position: doublePrecision().notNull(),
    createdAt: ts().notNull().defaultNow(),
  },
  (t) => [index('site_spaces_site_idx').on(t.siteId, t.position, t.id), index('site_spaces_space_idx').on(t.spaceId)],
);

/** A group of sections, shown together in the site's navigation. */
export const siteSectionGroups = pgTable(
  'site_section_groups',
  {
    id: text().primaryKey(),
    siteId: text()
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    title: text().notNull(),
    icon: text(),
    /** Among the sections and groups at the top of the site. */
    position: doublePrecision().notNull(),
    createdAt: ts().notNull().defaultNow(),
  },
  (t) => [index('site_section_groups_site_idx').on(t.siteId, t.position)],
);

/** A section of a site: a path of the site with its own variants (site spaces). */
export const siteSections = pgTable(
  'site_sections',
  {
    id: text().primaryKey(),
    siteId: text()
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    /** The group it is in; null at the top of the site. */
    groupId: text().references(() => siteSectionGroups.id, { onDelete: 'set null' }),
    title: text().notNull(),
    description: text(),
    path: text().notNull(),
    icon: text(),
    condition: text(),
    defaultSiteSpaceId: text(),
    /** Among the items at the top of the site, or in its group. */
    position: doublePrecision().notNull(),
    createdAt: ts().notNull().defaultNow(),
  },
  (t) => [uniqueIndex('site_sections_path_idx').on(t.siteId, t.path), index('site_sections_site_idx').on(t.siteId, t.position)],
);

/** A secret link that opens a `share-link` site to whoever holds it, while active. */
export const shareLinks = pgTable(
  'share_links',
  {
    id: text().primaryKey(),
    siteId: text()
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    name: text().notNull().default(''),
    key: text().notNull(),
    active: boolean().notNull().default(true),
    createdAt: ts().notNull().defaultNow(),
  },
  (t) => [uniqueIndex('share_links_key_idx').on(t.key), index('share_links_site_idx').on(t.siteId, t.createdAt, t.id)],
);

/** What a redirect sends to: a section, a site space, or a page of a site space (the spec's SiteRedirectDestination). */
export type SiteRedirectKind = 'site-section' | 'site-space' | 'site-page';

/**
 * A path of a published site that sends its readers elsewhere in the site. The destination's
 * section or site space is a foreign key: removing it removes the redirects to it, so no stored
 * redirect points nowhere (a page is content: a redirect to a page no longer there goes to its
 * site space).
 */
export const siteRedirects = pgTable(
  'site_redirects',
  {
    id: text().primaryKey(),
    organizationId: text()
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    siteId: text()
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    /** The path inside the site, `/old/page`, percent-escapes in upper case. */
    source: text().notNull(),
    kind: text().$type<SiteRedirectKind>().notNull(),
    siteSectionId: text().references(() => siteSections.id, { onDelete: 'cascade' }),
    siteSpaceId: text().references(() => siteSpaces.id, { onDelete: 'cascade' }),
    pageId: text(),
    createdAt: ts().notNull().defaultNow(),
    updatedAt: ts().notNull().defaultNow(),
  },
  // The source index answers the lookup on a reader's missing page; the other, the list in order.
  (t) => [uniqueIndex('site_redirects_source_idx').on(t.siteId, t.source), index('site_redirects_site_idx').on(t.siteId, t.createdAt, t.id)],
);

export type SiteRow = typeof sites.$inferSelect;
export type SiteRedirectRow = typeof siteRedirects.$inferSelect;
export type SiteSpaceRow = typeof siteSpaces.$inferSelect;
export type ShareLinkRow = typeof shareLinks.$inferSelect;
export type SiteSectionRow = typeof siteSections.$inferSelect;
export type SiteSectionGroupRow = typeof siteSectionGroups.$inferSelect;
