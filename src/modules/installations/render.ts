import type { RequestContext } from '../../context/request-context';
import { NotFoundError, ValidationError } from '../../domain/errors';
import { checkRenderRequest, decodeRenderRequest, type RenderRequest } from '../../runtime/render';
import type { IntegrationRow } from '../../db/schema/integrations';
import { activeInstallation, renderIntegrationUI as renderThrough, type RenderScope } from '../events/service';
import { getIntegration } from '../integrations/service';
import { getOrganization } from '../organizations/service';
import { getSiteById } from '../sites/service';
import { getSpace } from '../spaces/service';

/*
 * `GET .../render?request=<LZ-string>`: the request names its context (a space, a site or an
 * organization); the caller must see it and the integration must be installed there. The event
 * itself is recorded and delivered by the events module.
 */

const CONTEXT_FIELD = ['request', 'context'];

const notInstalled = (integration: IntegrationRow, where: string) =>
  new ValidationError(`request.context: the integration ${integration.name} is not installed on ${where}`, CONTEXT_FIELD);

/** A space, site or organization the caller cannot see answers like one where nothing is installed. */
const seen = <T>(lookup: Promise<T>): Promise<T | null> => lookup.catch((error: unknown) => (error instanceof NotFoundError ? null : Promise.reject(error)));

async function renderScope(ctx: RequestContext, integration: IntegrationRow, context: RenderRequest['context']): Promise<RenderScope> {
  const spaceId = typeof context.spaceId === 'string' ? context.spaceId : undefined;
  if ((context.type === 'document' || context.type === 'configuration_space' || context.type === 'configuration_contentsource') && spaceId) {
    const space = await seen(getSpace(ctx, spaceId));
    const installation = space && (await activeInstallation(ctx, integration, space.organizationId, { spaceId: space.id }));
    if (!installation) throw notInstalled(integration, `the space ${spaceId}`);
    return { installation, spaceId: space!.id };
  }
  if (context.type === 'configuration_site' && typeof context.siteId === 'string') {
    const site = await seen(getSiteById(ctx, context.siteId));
    const installation = site && (await activeInstallation(ctx, integration, site.organizationId, { siteId: site.id }));
    if (!installation) throw notInstalled(integration, `the site ${context.siteId}`);
    return { installation, siteId: site!.id };
  }
  const organizationId = typeof context.organizationId === 'string' ? context.organizationId : '';
  const org = await seen(getOrganization(ctx, organizationId));
  const installation = org && (await activeInstallation(ctx, integration, org.id, {}));
  if (!installation) throw notInstalled(integration, `the organization ${organizationId}`);
  return { installation };
}


export async function renderIntegrationUI(ctx: RequestContext, name: string, encoded: string | null): Promise<Record<string, unknown>> {
  const integration = await getIntegration(ctx, name);
  const request = decodeRenderRequest(encoded ?? undefined);
  return renderThrough(ctx, integration, request, await renderScope(ctx, integration, request.context));
}

/** The same render, for a request already decoded (GraphQL's JSON) and an integration already loaded. */
export async function renderIntegrationRequest(ctx: RequestContext, integration: IntegrationRow, value: unknown): Promise<Record<string, unknown>> {
  const request = checkRenderRequest(value);
  return renderThrough(ctx, integration, request, await renderScope(ctx, integration, request.context));
}
