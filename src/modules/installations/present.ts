import type { RequestContext } from '../../context/request-context';
import type { InstallationRow, SiteInstallationRow, SpaceInstallationRow } from '../../db/schema/installations';
import type { IntegrationEventRow } from '../../db/schema/integration-events';
import type { IntegrationRow } from '../../db/schema/integrations';

const base = (ctx: RequestContext, integrationId: string) => `${ctx.config.publicUrl}/v1/integrations/${integrationId}`;

/** `publicContentEndpoint` is read by newer releases of @gitbook/runtime: the same endpoint as `publicEndpoint`. */
const endpoints = (location: string) => ({ publicEndpoint: `${location}/integration`, publicContentEndpoint: `${location}/integration` });

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
    urls: { location, app: `${ctx.config.appUrl}/o/${row.organizationId}/integrations/${encodeURIComponent(name)}`, ...endpoints(location) },
    externalIds: row.externalIds,
    target: { organization: row.organizationId },
  };
}

export function presentSpaceInstallation(ctx: RequestContext, row: SpaceInstallationRow, name: string) {
  const location = `${base(ctx, encodeURIComponent(name))}/installations/${row.installationId}/spaces/${row.spaceId}`;
  return { integration: name, installation: row.installationId, status: row.status, configuration: row.configuration, externalIds: row.externalIds, urls: { location, ...endpoints(location) }, space: row.spaceId };
}

export function presentSiteInstallation(ctx: RequestContext, row: SiteInstallationRow, name: string) {
  const location = `${base(ctx, encodeURIComponent(name))}/installations/${row.installationId}/sites/${row.siteId}`;
  return { integration: name, installation: row.installationId, status: row.status, configuration: row.configuration, externalIds: row.externalIds, urls: { location, ...endpoints(location) }, site: row.siteId };
}

export function presentEvent(_ctx: RequestContext, row: IntegrationEventRow) {
  return {
    id: row.id,
    integrationId: row.integrationId,
    ...(row.installationId ? { installationId: row.installationId } : {}),
    createdAt: row.createdAt.toISOString(),
    payload: row.payload,
    // `pending` is ours: the spec knows only the outcomes, and a pending event has none yet. An
    // event without a handler was delivered and answered as the runtime answers it: not a failure.
    // Its trace says it was not handled.
    status: row.status === 'success' || row.status === 'not_handled' ? ('success' as const) : ('failed' as const),
  };
}

export type { IntegrationRow };
