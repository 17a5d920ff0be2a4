import { pgTable, text } from 'drizzle-orm/pg-core';
import { ts } from './columns';

/** Server-wide secrets (JWT signing keys), in the database so every instance signs alike. */
export const serverSecrets = pgTable('server_secrets', {
  name: text().primaryKey(),
  value: text().notNull(),
  createdAt: ts().notNull().defaultNow(),
});
