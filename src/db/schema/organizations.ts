import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import type { Role } from '../../domain/roles';
import { ts } from './columns';

export const organizations = pgTable(
  'organizations',
  {
    id: text().primaryKey(),
    title: text().notNull(),
    createdAt: ts().notNull().defaultNow(),
    updatedAt: ts().notNull().defaultNow(),
    emailDomains: text().array().notNull().default(sql`'{}'::text[]`),
    hostname: text(),
    type: text().notNull().default('business'),
    useCase: text(),
    communityType: text(),
    /** Role given to people who join without one being chosen for them; null makes them guests. */
    defaultRole: text().$type<Role>(),
    defaultContent: jsonb().$type<{ type: 'site'; site: string } | null>(),
    logoUrl: text(),
    sso: boolean().notNull().default(false),
    ai: boolean().notNull().default(false),
    inviteLinks: boolean().notNull().default(true),
    plan: text().notNull().default('free_2024'),
    /** Rows of organization_members, kept by a trigger (migration 0022): counted on write, not on read. */
    membersCount: integer().notNull().default(0),
  },
  (t) => [
    uniqueIndex('organizations_hostname_key').on(t.hostname),
    index('organizations_email_domains_idx').using('gin', t.emailDomains),
  ],
);

export type OrganizationRow = typeof organizations.$inferSelect;
