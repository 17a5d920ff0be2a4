import { customType, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { ts } from './columns';

/** The kinds of immutable content objects. */
export type ContentObjectKind = 'page' | 'body' | 'file' | 'list';

/**
 * Content-addressed objects: page nodes, page bodies, file records and the chunked lists that
 * hold a revision's trees. The hash is SHA-256 of the kind and the canonical JSON, so an object
 * is stored once however many revisions and spaces hold it, and never changes.
 */
export const contentObjects = pgTable('content_objects', {
  hash: text().primaryKey(),
  kind: text().$type<ContentObjectKind>().notNull(),
  data: jsonb().$type<unknown>().notNull(),
  /** Length of the canonical JSON, in bytes: what storing the object cost. */
  size: integer().notNull(),
  createdAt: ts().notNull().defaultNow(),
});

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/** File bytes by SHA-256, for the PostgreSQL blob store. */
export const blobs = pgTable('blobs', {
  hash: text().primaryKey(),
  bytes: bytea().notNull(),
  size: integer().notNull(),
  createdAt: ts().notNull().defaultNow(),
});
