import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from './columns';
import { organizations } from './organizations';
import { sites } from './sites';
import { spaces } from './spaces';
import { users } from './users';

export type IntegrationVisibility = 'public' | 'private' | 'unlisted';
export type IntegrationTarget = 'all' | 'site' | 'space' | 'organization';
export type InstallationStatus = 'active' | 'pending' | 'paused';
export type Selection = 'all' | 'selected';
export type IntegrationEventStatus = 'pending' | 'success' | 'failed';

/**
 * A published integration: the manifest fields `gitbook publish` sends, its script bundle (in the
 * blob store, by hash) and its images (blob hashes too). `secrets` is the AES-GCM ciphertext of
 * the secrets map, never returned. `botUserId` is the user its tokens act as (authorship of what
 * they write); it belongs to no organization.
 */
export const integrations = pgTable(
  'integrations',
  {
    id: text().primaryKey(),
    name: text().notNull(),
    ownerId: text()
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    botUserId: text()
      .notNull()
      .references(() => users.id),
    version: integer().notNull().default(1),
    runtime: text().$type<'v1' | 'v2'>().notNull().default('v1'),
    title: text().notNull(),
    description: text().notNull().default(''),
    summary: text(),
    visibility: text().$type<IntegrationVisibility>().notNull().default('private'),
    target: text().$type<IntegrationTarget>().notNull().default('all'),
    scopes: text().array().notNull().default(sql`'{}'::text[]`),
    categories: text().array().notNull().default(sql`'{}'::text[]`),
    /** The rest of the manifest as sent: blocks, contentSources, configurations, externalLinks, contentSecurityPolicy. */
    manifest: jsonb().$type<IntegrationManifest>().notNull().default({}),
    /** Block URL-unfurl domains, kept apart for the `blockDomain` filter. */
    blockDomains: text().array().notNull().default(sql`'{}'::text[]`),
    iconBlob: text(),
    previewBlobs: text().array().notNull().default(sql`'{}'::text[]`),
    scriptBlob: text().notNull(),
    secrets: text(),
    /** Key of the dev-tunnel signature and of `signingSecrets` given to the script. */
    signingSecret: text().notNull(),
    devTunnelUrl: text(),
    devAll: boolean().notNull().default(false),
    createdAt: ts().notNull().defaultNow(),
    updatedAt: ts().notNull().defaultNow(),
  },
  (t) => [uniqueIndex('integrations_name_key').on(t.name), index('integrations_owner_idx').on(t.ownerId), index('integrations_list_idx').on(t.createdAt, t.id)],
);

export interface IntegrationManifest {
  blocks?: Record<string, unknown>[];
  contentSources?: Record<string, unknown>[];
  configurations?: Record<string, unknown>;
  externalLinks?: { url: string; label: string }[];
  contentSecurityPolicy?: string | Record<string, string>;
}

export type IntegrationRow = typeof integrations.$inferSelect;

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

/** One event for one installation, with its delivery outcome and the trace of the run. */
export const integrationEvents = pgTable(
  'integration_events',
  {
    id: text().primaryKey(),
    integrationId: text()
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    /** Kept when the installation goes: its `installation_deleted` event outlives it. */
    installationId: text().references(() => integrationInstallations.id, { onDelete: 'set null' }),
    spaceId: text(),
    siteId: text(),
    type: text().notNull(),
    payload: jsonb().$type<Record<string, unknown>>().notNull(),
    status: text().$type<IntegrationEventStatus>().notNull().default('pending'),
    logs: jsonb().$type<IntegrationEventLog[]>().notNull().default([]),
    attempts: integer().notNull().default(0),
    error: text(),
    createdAt: ts().notNull().defaultNow(),
    updatedAt: ts().notNull().defaultNow(),
  },
  (t) => [index('integration_events_list_idx').on(t.integrationId, t.createdAt, t.id)],
);

export interface IntegrationEventLog {
  message: string;
  timestamp: string;
  level: 'debug' | 'info' | 'warn' | 'error';
}

export type IntegrationEventRow = typeof integrationEvents.$inferSelect;
