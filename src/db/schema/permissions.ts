import { check, foreignKey, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import type { Role } from '../../domain/roles';
import { collections } from './collections';
import { organizationMembers } from './members';
import { organizations } from './organizations';
import { spaces } from './spaces';
import { teams } from './teams';
import { ts } from './columns';
import { users } from './users';

/**
 * Explicit access to one space or collection, given to one organization member or one team. Grants
 * on a collection reach everything inside it.
 */
export const contentGrants = pgTable(
  'content_grants',
  {
    id: text().primaryKey(),
    organizationId: text()
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    spaceId: text().references(() => spaces.id, { onDelete: 'cascade' }),
    collectionId: text().references(() => collections.id, { onDelete: 'cascade' }),
    userId: text().references(() => users.id, { onDelete: 'cascade' }),
    teamId: text().references(() => teams.id, { onDelete: 'cascade' }),
    role: text().$type<Role>().notNull(),
    createdAt: ts().notNull().defaultNow(),
  },
  (t) => [
    check('content_grants_one_target', sql`(${t.spaceId} is null) <> (${t.collectionId} is null)`),
    check('content_grants_one_grantee', sql`(${t.userId} is null) <> (${t.teamId} is null)`),
    // A grant to a user lives as long as their membership (team grants have no user, so no check).
    foreignKey({ name: 'content_grants_membership_fk', columns: [t.organizationId, t.userId], foreignColumns: [organizationMembers.organizationId, organizationMembers.userId] }).onDelete('cascade'),
    uniqueIndex('content_grants_space_user').on(t.spaceId, t.userId),
    uniqueIndex('content_grants_space_team').on(t.spaceId, t.teamId),
    uniqueIndex('content_grants_collection_user').on(t.collectionId, t.userId),
    uniqueIndex('content_grants_collection_team').on(t.collectionId, t.teamId),
    index('content_grants_user_idx').on(t.organizationId, t.userId, t.createdAt, t.id),
    index('content_grants_team_idx').on(t.teamId),
  ],
);

export type ContentGrantRow = typeof contentGrants.$inferSelect;
