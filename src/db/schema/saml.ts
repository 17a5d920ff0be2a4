import { index, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import type { Role } from '../../domain/roles';
import { ts } from './columns';
import { organizations } from './organizations';
import { teams } from './teams';

/** An identity provider an organization's members sign in through (SAML 2.0, Web Browser SSO). */
export const samlProviders = pgTable(
  'saml_providers',
  {
    id: text().primaryKey(),
    organizationId: text()
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    label: text().notNull(),
    /** The IdP's entity id: the Issuer its responses carry. */
    entityId: text().notNull(),
    /** Where AuthnRequests are sent (HTTP-Redirect binding). */
    ssoUrl: text().notNull(),
    /** The IdP's signing certificate, PEM. */
    certificate: text().notNull(),
    /** Deleting the team leaves the provider without one, rather than failing the delete. */
    defaultTeamId: text().references(() => teams.id, { onDelete: 'set null' }),
    /** Null: people who sign in join as guests. */
    defaultRole: text().$type<Role>(),
    createdAt: ts().notNull().defaultNow(),
  },
  (t) => [index('saml_providers_organization_idx').on(t.organizationId, t.createdAt, t.id), index('saml_providers_default_team_idx').on(t.defaultTeamId)],
);

/** AuthnRequests sent and not answered yet: a response's InResponseTo must name one of these. */
export const samlRequests = pgTable(
  'saml_requests',
  {
    id: text().primaryKey(),
    providerId: text()
      .notNull()
      .references(() => samlProviders.id, { onDelete: 'cascade' }),
    createdAt: ts().notNull(),
  },
  (t) => [index('saml_requests_provider_idx').on(t.providerId)],
);

/**
 * Assertions already used, kept until they expire: the same assertion posted twice, to this
 * instance or another, signs no one in the second time.
 */
export const samlAssertions = pgTable(
  'saml_assertions',
  {
    providerId: text()
      .notNull()
      .references(() => samlProviders.id, { onDelete: 'cascade' }),
    assertionId: text().notNull(),
    expiresAt: ts().notNull(),
  },
  (t) => [primaryKey({ columns: [t.providerId, t.assertionId] }), index('saml_assertions_expires_idx').on(t.expiresAt)],
);

export type SamlProviderRow = typeof samlProviders.$inferSelect;
