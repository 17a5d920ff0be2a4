import { json, pgTable, text } from 'drizzle-orm/pg-core';
import { ts } from './columns';
import { sites } from './sites';

/** How visitors of a `visitor-auth` site sign in: the key their tokens are signed with, and where to send them. */
export const sitePublishingAuth = pgTable('site_publishing_auth', {
  siteId: text()
    .primaryKey()
    .references(() => sites.id, { onDelete: 'cascade' }),
  backend: text().$type<'custom' | 'integration'>().notNull().default('custom'),
  /** HMAC secret (HS256) visitor tokens are signed with. */
  privateKey: text().notNull(),
  /** Where a visitor without a valid token is sent to sign in. */
  fallbackUrl: text(),
  updatedAt: ts().notNull().defaultNow(),
});

/** A site's customization: the platform's SiteCustomizationSettings, as last saved. */
export const siteCustomizations = pgTable('site_customizations', {
  siteId: text()
    .primaryKey()
    .references(() => sites.id, { onDelete: 'cascade' }),
  settings: json().$type<Record<string, unknown>>().notNull(),
  updatedAt: ts().notNull().defaultNow(),
});

export type SitePublishingAuthRow = typeof sitePublishingAuth.$inferSelect;
