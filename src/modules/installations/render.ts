import type { RequestContext } from '../../context/request-context';
import { NotFoundError, ValidationError } from '../../domain/errors';
import { checkRenderRequest, decodeRenderRequest, type RenderRequest } from '../../runtime/render';
import type { IntegrationRow } from '../../db/schema/integrations';
import { activeInstallation, cachedDocumentRender, documentRenderKey, renderIntegrationUI as renderThrough, type Rendered, type RenderScope } from '../events/service';
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


/*
 * A read-only document render (`context.type` document, not editable, no state, no action) is
 * answered from the cache the published pages fill when it holds one: those renders were made for
 * no one in particular, so any caller who may render in that space may see them, and the
 * integration is not asked again within the age it gave. Any other render, or one not in the
 * cache, goes to the integration with the caller's identity in its event, and is not stored:
 * what an integration shows a signed-in user may be theirs alone.
 */
function fromCache(ctx: RequestContext, integration: IntegrationRow, request: RenderRequest, scope: RenderScope): Rendered | null {
  const c = request.context;
  if (c.type !== 'document' || c.editable !== false || request.state || request.action || !scope.spaceId || (c.theme !== 'light' && c.theme !== 'dark')) return null;
  const key = documentRenderKey({ integration, installation: scope.installation, spaceId: scope.spaceId, block: request.componentId, props: request.props, theme: c.theme });
  const now = ctx.now().getTime();
  const kept = cachedDocumentRender(key, now);
  return kept?.ok ? { output: kept.output, maxAge: Math.max(0, Math.floor((kept.expiresAt - now) / 1000)) } : null;
}

async function render(ctx: RequestContext, integration: IntegrationRow, request: RenderRequest): Promise<Rendered> {
  const scope = await renderScope(ctx, integration, request.context);
  return fromCache(ctx, integration, request, scope) ?? renderThrough(ctx, integration, request, scope);
}

/** `GET .../render?request=<LZ-string>`. */
export async function renderIntegrationUI(ctx: RequestContext, name: string, encoded: string | null): Promise<Rendered> {
  const integration = await getIntegration(ctx, name);
  return render(ctx, integration, decodeRenderRequest(encoded ?? undefined));
}

/** `POST .../render` with the request as JSON. */
export async function renderIntegrationUIPosted(ctx: RequestContext, name: string, body: unknown): Promise<Rendered> {
  const integration = await getIntegration(ctx, name);
  return render(ctx, integration, checkRenderRequest(body));
}

/** The same render, for a request already decoded (GraphQL's JSON) and an integration already loaded. */
export async function renderIntegrationRequest(ctx: RequestContext, integration: IntegrationRow, value: unknown): Promise<Rendered> {
  return render(ctx, integration, checkRenderRequest(value));
}
