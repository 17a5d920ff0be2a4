import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { Viewer } from '../context/request-context';
import { integrationInstallations, integrationTokens } from '../db/schema/installations';
import { integrations } from '../db/schema/integrations';
import { users } from '../db/schema/users';

/** Integration and installation tokens start with this; user tokens with `quire_`. */
export const INTEGRATION_TOKEN_PREFIX = 'quirei_';

/*
 * One statement: the token, its integration's bot user and scopes, and for an installation token
 * the installation's selections with the spaces and sites it was given. Not cached: a space given
 * or taken away must count at the next request.
 */
export async function loadIntegrationViewer(db: Db, tokenHash: string, now: Date): Promise<Viewer | null> {
  const [row] = await db
    .select({
      user: users,
      integrationId: integrations.id,
      scopes: integrations.scopes,
      installationId: integrationInstallations.id,
      organizationId: integrationInstallations.organizationId,
      spaceSelection: integrationInstallations.spaceSelection,
      siteSelection: integrationInstallations.siteSelection,
      spaceIds: sql<string[]>`coalesce((select array_agg(space_id) from integration_space_installations where installation_id = ${integrationTokens.installationId}), '{}')`,
      siteIds: sql<string[]>`coalesce((select array_agg(site_id) from integration_site_installations where installation_id = ${integrationTokens.installationId}), '{}')`,
      expiresAt: integrationTokens.expiresAt,
    })
    .from(integrationTokens)
    .innerJoin(integrations, eq(integrations.id, integrationTokens.integrationId))
    .innerJoin(users, eq(users.id, integrations.botUserId))
    .leftJoin(integrationInstallations, eq(integrationInstallations.id, integrationTokens.installationId))
    .where(eq(integrationTokens.tokenHash, tokenHash));
  if (!row || (row.expiresAt && row.expiresAt <= now)) return null;
  const installation = row.installationId !== null;
  return {
    user: row.user,
    memberships: new Map(),
    organizations: new Map(),
    grant: {
      kind: installation ? 'installation' : 'integration',
      integrationId: row.integrationId,
      ...(installation ? { installationId: row.installationId!, organizationId: row.organizationId! } : {}),
      scopes: new Set(row.scopes),
      spaceSelection: row.spaceSelection ?? 'selected',
      siteSelection: row.siteSelection ?? 'selected',
      spaceIds: new Set(row.spaceIds),
      siteIds: new Set(row.siteIds),
    },
  };
}
