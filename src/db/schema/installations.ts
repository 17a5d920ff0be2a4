import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from './columns';
import { integrations } from './integrations';
import { organizations } from './organizations';
import { sites } from './sites';
import { spaces } from './spaces';

export type InstallationStatus = 'active' | 'pending' | 'paused';
export type Selection = 'all' | 'selected';

/** An integration installed on an organization; spaces and sites are chosen with the selections. */
export const integrationInstallations = pgTable(
  'integration_installations',
  {
    id: text().primaryKey(),
    integrationId: text()
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    organizationId: text()
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    status: text().$type<InstallationStatus>().notNull().default('active'),
    spaceSelection: text().$type<Selection>().notNull().default('selected'),
    siteSelection: text().$type<Selection>().notNull().default('selected'),
    configuration: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    externalIds: text().array().notNull().default(sql`'{}'::text[]`),
    createdAt: ts().notNull().defaultNow(),
    updatedAt: ts().notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('integration_installations_org_key').on(t.integrationId, t.organizationId),
    index('integration_installations_list_idx').on(t.integrationId, t.createdAt, t.id),
    index('integration_installations_org_idx').on(t.organizationId),
  ],
);

export type InstallationRow = typeof integrationInstallations.$inferSelect;

/** One space an installation was given (or, with `space_selection: all`, configured). */
export const integrationSpaceInstallations = pgTable(
  'integration_space_installations',
  {
    id: text().primaryKey(),
    installationId: text()
      .notNull()
      .references(() => integrationInstallations.id, { onDelete: 'cascade' }),
    integrationId: text()
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    spaceId: text()
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    status: text().$type<InstallationStatus>().notNull().default('active'),
    configuration: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    externalIds: text().array().notNull().default(sql`'{}'::text[]`),
    createdAt: ts().notNull().defaultNow(),
    updatedAt: ts().notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('integration_space_installations_key').on(t.installationId, t.spaceId),
    index('integration_space_installations_list_idx').on(t.integrationId, t.createdAt, t.id),
    index('integration_space_installations_space_idx').on(t.spaceId),
  ],
);

export type SpaceInstallationRow = typeof integrationSpaceInstallations.$inferSelect;

export const integrationSiteInstallations = pgTable(
  'integration_site_installations',
  {
    id: text().primaryKey(),
    installationId: text()
      .notNull()
      .references(() => integrationInstallations.id, { onDelete: 'cascade' }),
    integrationId: text()
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    siteId: text()
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    status: text().$type<InstallationStatus>().notNull().default('active'),
    configuration: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    externalIds: text().array().notNull().default(sql`'{}'::text[]`),
    createdAt: ts().notNull().defaultNow(),
    updatedAt: ts().notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('integration_site_installations_key').on(t.installationId, t.siteId),
    index('integration_site_installations_list_idx').on(t.integrationId, t.createdAt, t.id),
    index('integration_site_installations_site_idx').on(t.siteId),
  ],
);

export type SiteInstallationRow = typeof integrationSiteInstallations.$inferSelect;

/**
 * API tokens of integrations (no installation) and of installations. Stored hashed like user
 * tokens; they start with `quirei_` so authentication knows which table to look in.
 */
export const integrationTokens = pgTable(
  'integration_tokens',
  {
    id: text().primaryKey(),
    tokenHash: text().notNull(),
    integrationId: text()
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    installationId: text().references(() => integrationInstallations.id, { onDelete: 'cascade' }),
    createdAt: ts().notNull().defaultNow(),
    expiresAt: ts(),
  },
  (t) => [uniqueIndex('integration_tokens_hash_key').on(t.tokenHash), index('integration_tokens_installation_idx').on(t.installationId)],
);
