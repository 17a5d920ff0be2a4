import { doublePrecision, index, pgTable, text, type AnyPgColumn } from 'drizzle-orm/pg-core';
import type { DefaultLevel } from '../../domain/permissions';
import { organizations } from './organizations';
import { ts } from './columns';

export const collections = pgTable(
  'collections',
  {
    id: text().primaryKey(),
    organizationId: text()
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** Null at the top level of the organization. Deleting a parent deletes its sub-collections. */
    parentId: text().references((): AnyPgColumn => collections.id, { onDelete: 'cascade' }),
    title: text().notNull(),
    description: text(),
    /** A role, null for "members get nothing by default", or 'inherit'. */
    defaultLevel: text().$type<DefaultLevel>().default('inherit'),
    /** Order among the siblings (spaces and collections) of the same parent; gaps are normal. */
    position: doublePrecision().notNull(),
    createdAt: ts().notNull().defaultNow(),
    updatedAt: ts().notNull().defaultNow(),
  },
  (t) => [
    index('collections_organization_idx').on(t.organizationId, t.createdAt, t.id),
    index('collections_parent_idx').on(t.parentId, t.position, t.id),
  ],
);

export type CollectionRow = typeof collections.$inferSelect;
