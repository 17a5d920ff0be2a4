import { index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { ts } from './columns';
import { integrationInstallations } from './installations';
import { integrations } from './integrations';

/** `not_handled`: the integration answered 406, the official runtime's answer for an event type it has no handler for. */
export type IntegrationEventStatus = 'pending' | 'success' | 'failed' | 'not_handled';

/** One event for one installation, with its delivery outcome and the trace of the run. */
export const integrationEvents = pgTable(
  'integration_events',
  {
    id: text().primaryKey(),
    integrationId: text()
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    /** Kept when the installation goes: its `installation_deleted` event outlives it. */
    installationId: text().references(() => integrationInstallations.id, { onDelete: 'set null' }),
    spaceId: text(),
    siteId: text(),
    type: text().notNull(),
    payload: jsonb().$type<Record<string, unknown>>().notNull(),
    status: text().$type<IntegrationEventStatus>().notNull().default('pending'),
    logs: jsonb().$type<IntegrationEventLog[]>().notNull().default([]),
    attempts: integer().notNull().default(0),
    error: text(),
    createdAt: ts().notNull().defaultNow(),
    updatedAt: ts().notNull().defaultNow(),
  },
  (t) => [index('integration_events_list_idx').on(t.integrationId, t.createdAt, t.id)],
);

export interface IntegrationEventLog {
  message: string;
  timestamp: string;
  level: 'debug' | 'info' | 'warn' | 'error';
}

export type IntegrationEventRow = typeof integrationEvents.$inferSelect;
