import { index, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from './columns';
import { organizations } from './organizations';

export type SpecProcessingState = 'pending' | 'progress' | 'complete';
export type SpecErrorCode = 'FETCH_TIMEOUT' | 'FETCH_ERROR' | 'PARSE_ERROR';

/**
 * An OpenAPI specification of an organization, known by its slug: where it comes from (a URL to
 * fetch, or the text itself) and how its last processing went. `lastVersionId` points at the
 * newest version a processing stored.
 */
export const openapiSpecs = pgTable(
  'openapi_specs',
  {
    id: text().primaryKey(),
    organizationId: text()
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    slug: text().notNull(),
    visibility: text().$type<'private' | 'public'>().notNull().default('private'),
    sourceUrl: text(),
    sourceText: text(),
    processingState: text().$type<SpecProcessingState>().notNull().default('pending'),
    lastVersionId: text(),
    lastProcessedAt: ts(),
    lastProcessErrorCode: text().$type<SpecErrorCode>(),
    /** What went wrong, in words, for GraphQL; REST has only the code. */
    lastProcessError: text(),
    createdAt: ts().notNull().defaultNow(),
    updatedAt: ts().notNull().defaultNow(),
  },
  (t) => [uniqueIndex('openapi_specs_slug_idx').on(t.organizationId, t.slug), index('openapi_specs_list_idx').on(t.organizationId, t.createdAt, t.id)],
);

export type OpenApiSpecRow = typeof openapiSpecs.$inferSelect;

/** One operation of a version, as computed pages show it. */
export interface SpecOperation {
  method: string;
  path: string;
  operationId?: string;
  summary?: string;
  description?: string;
  tags: string[];
  parameters: { name: string; in: string; required: boolean; description?: string }[];
  responses: { status: string; description?: string }[];
}

export const openapiSpecVersions = pgTable(
  'openapi_spec_versions',
  {
    id: text().primaryKey(),
    specId: text()
      .notNull()
      .references(() => openapiSpecs.id, { onDelete: 'cascade' }),
    text: text().notNull(),
    title: text().notNull(),
    apiVersion: text().notNull(),
    operations: jsonb().$type<SpecOperation[]>().notNull(),
    createdAt: ts().notNull().defaultNow(),
  },
  (t) => [index('openapi_spec_versions_spec_idx').on(t.specId, t.createdAt, t.id)],
);

export type OpenApiSpecVersionRow = typeof openapiSpecVersions.$inferSelect;
