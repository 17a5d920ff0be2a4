import { index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from './columns';
import { organizations } from './organizations';

export const users = pgTable(
  'users',
  {
    id: text().primaryKey(),
    displayName: text().notNull(),
    /** Stored lower-cased: e-mail lookups are case-insensitive. */
    email: text().notNull(),
    photoUrl: text(),
    createdAt: ts().notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_email_key').on(t.email)],
);

export const apiTokens = pgTable(
  'api_tokens',
  {
    id: text().primaryKey(),
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** SHA-256 of the token: the token itself is shown once and never stored. */
    tokenHash: text().notNull(),
    label: text(),
    /**
     * Set on a token made by an organization's single sign-on: the one organization it acts in.
     * Null: the token acts wherever its user is a member.
     */
    scopeOrganizationId: text().references(() => organizations.id, { onDelete: 'cascade' }),
    createdAt: ts().notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('api_tokens_hash_key').on(t.tokenHash),
    index('api_tokens_user_idx').on(t.userId),
    index('api_tokens_scope_organization_idx').on(t.scopeOrganizationId),
  ],
);

export type UserRow = typeof users.$inferSelect;
