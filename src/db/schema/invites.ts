import { index, pgTable, text } from 'drizzle-orm/pg-core';
import type { Role } from '../../domain/roles';
import { organizations } from './organizations';
import { ts } from './columns';
import { users } from './users';

/** Invite links: anyone holding the link may join the organization with the role it carries. */
export const organizationLinkInvites = pgTable(
  'organization_link_invites',
  {
    id: text().primaryKey(),
    organizationId: text()
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    role: text().$type<Role>(),
    createdBy: text().references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts().notNull().defaultNow(),
  },
  (t) => [index('organization_link_invites_org_idx').on(t.organizationId, t.createdAt, t.id)],
);

export type LinkInviteRow = typeof organizationLinkInvites.$inferSelect;
