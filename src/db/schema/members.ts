import { boolean, index, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import type { Role } from '../../domain/roles';
import { organizations } from './organizations';
import { ts } from './columns';
import { users } from './users';

export const organizationMembers = pgTable(
  'organization_members',
  {
    organizationId: text()
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Null for a guest: a member who sees only what is shared with them. */
    role: text().$type<Role>(),
    disabled: boolean().notNull().default(false),
    sso: boolean().notNull().default(false),
    joinedAt: ts().notNull().defaultNow(),
    lastSeenAt: ts(),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.userId] }),
    index('organization_members_user_idx').on(t.userId),
    index('organization_members_joined_idx').on(t.organizationId, t.joinedAt, t.userId),
    index('organization_members_seen_idx').on(t.organizationId, t.lastSeenAt, t.userId),
  ],
);

export type MemberRow = typeof organizationMembers.$inferSelect;
