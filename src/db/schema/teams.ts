import { foreignKey, index, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import type { TeamRole } from '../../domain/roles';
import { organizationMembers } from './members';
import { organizations } from './organizations';
import { ts } from './columns';
import { users } from './users';

export const teams = pgTable(
  'teams',
  {
    id: text().primaryKey(),
    organizationId: text()
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    title: text().notNull(),
    createdAt: ts().notNull().defaultNow(),
  },
  (t) => [index('teams_organization_idx').on(t.organizationId, t.createdAt, t.id)],
);

export const teamMembers = pgTable(
  'team_members',
  {
    teamId: text()
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    /** Denormalised from the team: with the user, it points at their membership, whose end ends this. */
    organizationId: text().notNull(),
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text().$type<TeamRole>().notNull().default('member'),
    addedAt: ts().notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.teamId, t.userId] }),
    foreignKey({ name: 'team_members_membership_fk', columns: [t.organizationId, t.userId], foreignColumns: [organizationMembers.organizationId, organizationMembers.userId] }).onDelete('cascade'),
    index('team_members_user_idx').on(t.organizationId, t.userId),
    index('team_members_team_idx').on(t.teamId, t.addedAt, t.userId),
  ],
);

export type TeamRow = typeof teams.$inferSelect;
export type TeamMemberRow = typeof teamMembers.$inferSelect;
