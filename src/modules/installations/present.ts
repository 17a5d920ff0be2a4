import type { RequestContext } from '../../context/request-context';
import type { InstallationRow, SiteInstallationRow, SpaceInstallationRow } from '../../db/schema/installations';
import type { IntegrationEventRow } from '../../db/schema/integration-events';
import type { IntegrationRow } from '../../db/schema/integrations';

const base = (ctx: RequestContext, integrationId: string) => `${ctx.config.publicUrl}/v1/integrations/${integrationId}`;

export function presentInstallation(ctx: RequestContext, row: InstallationRow, name: string) {
  const location = `${base(ctx, encodeURIComponent(name))}/installations/${row.id}`;
  return {
    id: row.id,
    status: row.status,
    space_selection: row.spaceSelection,
    site_selection: row.siteSelection,
    spaces: 0,
    configuration: row.configuration,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    urls: { location, app: `${ctx.config.appUrl}/o/${row.organizationId}/integrations/${encodeURIComponent(name)}`, publicEndpoint: `${location}/integration` },
    externalIds: row.externalIds,
    target: { organization: row.organizationId },
  };
}

export function presentSpaceInstallation(ctx: RequestContext, row: SpaceInstallationRow, name: string) {
  const location = `${base(ctx, encodeURIComponent(name))}/installations/${row.installationId}/spaces/${row.spaceId}`;
  return { integration: name, installation: row.installationId, status: row.status, configuration: row.configuration, externalIds: row.externalIds, urls: { location, publicEndpoint: `${location}/integration` }, space: row.spaceId };
}

export function presentSiteInstallation(ctx: RequestContext, row: SiteInstallationRow, name: string) {
  const location = `${base(ctx, encodeURIComponent(name))}/installations/${row.installationId}/sites/${row.siteId}`;
  return { integration: name, installation: row.installationId, status: row.status, configuration: row.configuration, externalIds: row.externalIds, urls: { location, publicEndpoint: `${location}/integration` }, site: row.siteId };
}

export function presentEvent(_ctx: RequestContext, row: IntegrationEventRow) {
  return {
    id: row.id,
    integrationId: row.integrationId,
    ...(row.installationId ? { installationId: row.installationId } : {}),
    createdAt: row.createdAt.toISOString(),
    payload: row.payload,
    // `pending` is ours: the spec knows only the outcomes, and a pending event has none yet.
    status: row.status === 'success' ? ('success' as const) : ('failed' as const),
  };
}

export type { IntegrationRow };
