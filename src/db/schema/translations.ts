import { index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { ts } from './columns';
import { organizations } from './organizations';
import { spaces } from './spaces';
import { users } from './users';

/**
 * Where a translation stands. The platform's enum has the first three; `failed` is ours: the last
 * run stopped, and `failure` says why (REST shows it as `pending`, a translation to run again).
 */
export type TranslationStatus = 'pending' | 'running' | 'completed' | 'failed';

/**
 * A translated copy of a space, kept in step run by run. `resultSpaceId` is made by the first run;
 * the stats are what runs measured, durations in milliseconds.
 */
export const translations = pgTable(
  'translations',
  {
    id: text().primaryKey(),
    organizationId: text()
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    sourceSpaceId: text()
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    sourceLanguage: text().notNull(),
    language: text().notNull(),
    instructions: jsonb().$type<Record<string, unknown>>().notNull(),
    status: text().$type<TranslationStatus>().notNull().default('pending'),
    failure: text(),
    /** Set while a run is queued and not yet started. */
    queuedAt: ts(),
    runStartedAt: ts(),
    /** Who asked for the latest run: the run acts as them. */
    runBy: text().references(() => users.id, { onDelete: 'set null' }),
    resultSpaceId: text().references(() => spaces.id, { onDelete: 'set null' }),
    resultRevisionId: text(),
    runs: integer().notNull().default(0),
    totalWords: integer().notNull().default(0),
    /** Source pages translated at least once. */
    totalPages: integer().notNull().default(0),
    totalDurationMs: integer().notNull().default(0),
    latestRunDurationMs: integer().notNull().default(0),
    latestPages: integer().notNull().default(0),
    latestWords: integer().notNull().default(0),
    createdAt: ts().notNull().defaultNow(),
    updatedAt: ts().notNull().defaultNow(),
  },
  (t) => [index('translations_organization_idx').on(t.organizationId, t.createdAt, t.id)],
);

export type TranslationRow = typeof translations.$inferSelect;

/** Per source page, the hash of the text last translated: a later run skips the pages whose hash holds. */
export const translationPages = pgTable(
  'translation_pages',
  {
    translationId: text()
      .notNull()
      .references(() => translations.id, { onDelete: 'cascade' }),
    sourcePageId: text().notNull(),
    sourceHash: text().notNull(),
    /** The page's translated title, description and body, reused while the source is unchanged. */
    translated: jsonb().$type<TranslatedPage>().notNull(),
    translatedAt: ts().notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.translationId, t.sourcePageId] })],
);

export interface TranslatedPage {
  title: string;
  description?: string;
  markdown?: string;
}
