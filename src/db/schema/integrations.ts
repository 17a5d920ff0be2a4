import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from './columns';
import { organizations } from './organizations';
import { users } from './users';

export type IntegrationVisibility = 'public' | 'private' | 'unlisted';
export type IntegrationTarget = 'all' | 'site' | 'space' | 'organization';

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
