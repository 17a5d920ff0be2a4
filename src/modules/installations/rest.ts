import { pageArgs, renderList, REST_MAX } from '../../rest/pagination';
import { bodyAs, optionalParam, type RestRouter } from '../../rest/router';
import { getIntegration } from '../integrations/service';
import type { ContentInstallationUpdateInput, InstallationUpdateInput, InstallInput } from './input';
import { presentEvent, presentInstallation, presentSiteInstallation, presentSpaceInstallation } from './present';
import {
  createInstallationToken, deliverFetch, renderIntegrationUI, renderIntegrationUIPosted, getEvent, getSiteInstallation, installIntegrationOnSite, listInstallationSites, listInstallationSpaces, uninstallIntegrationFromSite, updateIntegrationSiteInstallation, getInstallation, getSpaceInstallation, installIntegration, installOnSpace, listEvents, listInstallations, listSiteInstallations,
  listSpaceInstallations, uninstallFromSpace, uninstallIntegration, updateInstallation, updateSpaceInstallation,
} from './service';

const ONE = '/v1/integrations/:integrationName';
const INST = `${ONE}/installations/:installationId`;

export function installationRoutes(r: RestRouter): void {
  // The integration's `max-age`, for the caller's own cache: private, the render may be theirs alone.
  const rendered = ({ output, maxAge }: { output: Record<string, unknown>; maxAge: number | null }) => ({ status: 200, body: output, headers: { 'cache-control': maxAge ? `private, max-age=${maxAge}` : 'no-store' } });
  r.get(`${ONE}/render`, async ({ ctx, params, query }) => rendered(await renderIntegrationUI(ctx, params.integrationName, query.get('request'))));
  r.post(`${ONE}/render`, async ({ ctx, params, body }) => rendered(await renderIntegrationUIPosted(ctx, params.integrationName, body)));

  r.get(`${ONE}/installations`, async ({ ctx, params, query }) => {
    const page = await listInstallations(ctx, params.integrationName, optionalParam(query, 'externalId'), pageArgs(query), REST_MAX);
    return { status: 200, body: await renderList(ctx, page, (c, row) => presentInstallation(c, row, params.integrationName)) };
  });
  r.post(`${ONE}/installations`, async ({ ctx, params, body }) => {
    const row = presentInstallation(ctx, await installIntegration(ctx, await getIntegration(ctx, params.integrationName), bodyAs<InstallInput>(body)), params.integrationName);
    return { status: 201, body: row, headers: { location: row.urls.location } };
  });
  r.get(INST, async ({ ctx, params }) => ({ status: 200, body: presentInstallation(ctx, (await getInstallation(ctx, params.integrationName, params.installationId)).installation, params.integrationName) }));
  r.patch(INST, async ({ ctx, params, body }) => ({
    status: 200,
    body: presentInstallation(ctx, await updateInstallation(ctx, await getInstallation(ctx, params.integrationName, params.installationId), bodyAs<InstallationUpdateInput>(body)), params.integrationName),
  }));
  r.delete(INST, async ({ ctx, params }) => {
    await uninstallIntegration(ctx, await getInstallation(ctx, params.integrationName, params.installationId));
    return { status: 204 };
  });
  r.post(`${INST}/tokens`, async ({ ctx, params }) => ({ status: 200, body: await createInstallationToken(ctx, await getInstallation(ctx, params.integrationName, params.installationId)) }));
  r.post(`${INST}/spaces`, async ({ ctx, params, body }) => {
    const row = presentSpaceInstallation(ctx, await installOnSpace(ctx, await getInstallation(ctx, params.integrationName, params.installationId), bodyAs<{ space?: unknown }>(body)), params.integrationName);
    return { status: 201, body: row, headers: { location: row.urls.location } };
  });
  r.get(`${INST}/spaces`, async ({ ctx, params, query }) => ({
    status: 200,
    body: await renderList(ctx, await listInstallationSpaces(ctx, params.integrationName, params.installationId, pageArgs(query), REST_MAX), (c, row) => presentSpaceInstallation(c, row, params.integrationName)),
  }));
  r.get(`${INST}/sites`, async ({ ctx, params, query }) => ({
    status: 200,
    body: await renderList(ctx, await listInstallationSites(ctx, params.integrationName, params.installationId, pageArgs(query), REST_MAX), (c, row) => presentSiteInstallation(c, row, params.integrationName)),
  }));
  r.post(`${INST}/sites`, async ({ ctx, params, body }) => ({ status: 201, body: presentSiteInstallation(ctx, await installIntegrationOnSite(ctx, await getInstallation(ctx, params.integrationName, params.installationId), body), params.integrationName) }));
  r.get(`${INST}/sites/:siteId`, async ({ ctx, params }) => ({
    status: 200,
    body: presentSiteInstallation(ctx, await getSiteInstallation(ctx, params.integrationName, params.installationId, params.siteId), params.integrationName),
  }));
  r.patch(`${INST}/sites/:siteId`, async ({ ctx, params, body }) => ({
    status: 200,
    body: presentSiteInstallation(ctx, await updateIntegrationSiteInstallation(ctx, await getInstallation(ctx, params.integrationName, params.installationId), params.siteId, bodyAs<ContentInstallationUpdateInput>(body)), params.integrationName),
  }));
  r.delete(`${INST}/sites/:siteId`, async ({ ctx, params }) => {
    await uninstallIntegrationFromSite(ctx, await getInstallation(ctx, params.integrationName, params.installationId), params.siteId);
    return { status: 204 };
  });
  r.get(`${INST}/spaces/:spaceId`, async ({ ctx, params }) => ({
    status: 200,
    body: presentSpaceInstallation(ctx, await getSpaceInstallation(ctx, params.integrationName, params.installationId, params.spaceId), params.integrationName),
  }));
  r.patch(`${INST}/spaces/:spaceId`, async ({ ctx, params, body }) => ({
    status: 200,
    body: presentSpaceInstallation(ctx, await updateSpaceInstallation(ctx, await getInstallation(ctx, params.integrationName, params.installationId), params.spaceId, bodyAs<ContentInstallationUpdateInput>(body)), params.integrationName),
  }));
  r.delete(`${INST}/spaces/:spaceId`, async ({ ctx, params }) => {
    await uninstallFromSpace(ctx, await getInstallation(ctx, params.integrationName, params.installationId), params.spaceId);
    return { status: 204 };
  });
  r.get(`${ONE}/spaces`, async ({ ctx, params, query }) => {
    const page = await listSpaceInstallations(ctx, params.integrationName, optionalParam(query, 'externalId'), pageArgs(query), REST_MAX);
    return { status: 200, body: await renderList(ctx, page, (c, row) => presentSpaceInstallation(c, row, params.integrationName)) };
  });
  r.get(`${ONE}/sites`, async ({ ctx, params, query }) => {
    const page = await listSiteInstallations(ctx, params.integrationName, optionalParam(query, 'externalId'), pageArgs(query), REST_MAX);
    return { status: 200, body: await renderList(ctx, page, (c, row) => presentSiteInstallation(c, row, params.integrationName)) };
  });
  r.get(`${ONE}/events`, async ({ ctx, params, query }) => ({ status: 200, body: await renderList(ctx, await listEvents(ctx, params.integrationName, pageArgs(query), REST_MAX), presentEvent) }));
  r.get(`${ONE}/events/:eventId`, async ({ ctx, params }) => {
    const row = await getEvent(ctx, params.integrationName, params.eventId);
    return { status: 200, body: { event: presentEvent(ctx, row), trace: { logs: row.logs } } };
  });
}

/** `/v1/integrations/{name}[/installations/{id}[/spaces/{space} or /sites/{site}]]/integration[/...]`: an integration's public endpoint. */
export const INTEGRATION_ENDPOINT = /^\/v1\/integrations\/([^/]+)\/(?:installations\/([^/]+)\/(?:(spaces|sites)\/([^/]+)\/)?)?integration(?:\/.*)?$/;

/*
 * An integration's answers are served from Quire's origin, yet are the integration's code: a page
 * it answers runs in a sandbox (an opaque origin, so none of Quire's cookies or storage), even
 * when opened directly. It may be framed anywhere: that is how published pages show it (web
 * frames). A policy the integration sets itself applies as well.
 */
const ENDPOINT_POLICY = 'sandbox allow-scripts allow-popups allow-forms; frame-ancestors *';

/** Hands a request to an integration's public endpoint to the integration, and its answer back. */
export async function serveIntegrationEndpoint(ctx: Parameters<typeof deliverFetch>[0], request: Request): Promise<Response> {
  const url = new URL(request.url);
  const [, name, installationId, kind, contentId] = INTEGRATION_ENDPOINT.exec(url.pathname) ?? [];
  const content = contentId ? { [kind === 'spaces' ? 'spaceId' : 'siteId']: decodeURIComponent(contentId) } : {};
  const headers: Record<string, string> = {};
  // Cookies of Quire's origin belong to Quire's own pages, not to an integration's code.
  request.headers.forEach((value, key) => {
    if (key !== 'cookie') headers[key] = value;
  });
  const body = request.method === 'GET' || request.method === 'HEAD' ? new Uint8Array() : new Uint8Array(await request.arrayBuffer());
  const target = { name: decodeURIComponent(name ?? ''), ...(installationId ? { installationId: decodeURIComponent(installationId), ...content } : {}) };
  const answer = await deliverFetch(ctx, target, { method: request.method, url: url.toString(), headers, body });
  const own = answer.headers['content-security-policy'];
  answer.headers['content-security-policy'] = own ? `${own}, ${ENDPOINT_POLICY}` : ENDPOINT_POLICY;
  return new Response(answer.body.length ? new Uint8Array(answer.body) : null, { status: answer.status, headers: answer.headers });
}
