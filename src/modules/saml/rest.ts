import type { RequestContext } from '../../context/request-context';
import { pageArgs, renderList, REST_MAX } from '../../rest/pagination';
import { bodyAs, type RestRouter } from '../../rest/router';
import { samlProviderCreateSchema, samlProviderUpdateSchema, type SamlPost, type SamlProviderCreateInput, type SamlProviderUpdateInput } from './input';
import { presentSamlProvider, presentSsoLogin } from './present';
import {
  completeSamlSignIn,
  createSamlProvider,
  deleteSamlProvider,
  getSamlProvider,
  listSamlProviders,
  listSsoLogins,
  samlMetadata,
  startSamlSignIn,
  updateSamlProvider,
} from './service';

export function samlRoutes(r: RestRouter): void {
  r.get('/v1/orgs/:organizationId/saml', async ({ ctx, params, query }) => {
    const page = await listSamlProviders(ctx, params.organizationId, pageArgs(query), REST_MAX);
    return { status: 200, body: await renderList(ctx, page, presentSamlProvider) };
  });

  r.post(
    '/v1/orgs/:organizationId/saml',
    async ({ ctx, params, body }) => {
      const provider = await presentSamlProvider(ctx, await createSamlProvider(ctx, params.organizationId, bodyAs<SamlProviderCreateInput>(body)));
      return { status: 201, body: provider, headers: { location: provider.urls.location } };
    },
    { body: samlProviderCreateSchema },
  );

  r.get('/v1/orgs/:organizationId/saml/:samlProviderId', async ({ ctx, params }) => ({
    status: 200,
    body: await presentSamlProvider(ctx, await getSamlProvider(ctx, params.organizationId, params.samlProviderId)),
  }));

  r.patch(
    '/v1/orgs/:organizationId/saml/:samlProviderId',
    async ({ ctx, params, body }) => ({
      status: 200,
      body: await presentSamlProvider(ctx, await updateSamlProvider(ctx, await getSamlProvider(ctx, params.organizationId, params.samlProviderId), bodyAs<SamlProviderUpdateInput>(body))),
    }),
    { body: samlProviderUpdateSchema },
  );

  r.delete('/v1/orgs/:organizationId/saml/:samlProviderId', async ({ ctx, params }) => {
    await deleteSamlProvider(ctx, params.organizationId, params.samlProviderId);
    return { status: 204 };
  });

  r.get('/v1/orgs/:organizationId/sso', async ({ ctx, params }) => ({
    status: 200,
    body: { items: (await listSsoLogins(ctx, params.organizationId)).map((p) => presentSsoLogin(ctx, p)) },
  }));
}

/** The paths a browser and an identity provider use, outside /v1 and without a token. */
export const SAML_PUBLIC_PREFIX = '/sso/saml/';

const PUBLIC_PATH = /^\/sso\/saml\/([^/]+)(\/start|\/acs)?$/;

/**
 * The sign-in endpoints: `GET {id}` is our metadata, `GET {id}/start` redirects (302) to the IdP
 * with an AuthnRequest, and `POST {id}/acs` takes the IdP's form post (HTTP-POST binding) and
 * redirects (303) to the app with the new API token in the URL fragment. Undefined: no such path.
 */
export async function serveSamlEndpoint(ctx: RequestContext, request: Request): Promise<Response | undefined> {
  const url = new URL(request.url);
  const match = PUBLIC_PATH.exec(url.pathname);
  if (!match) return undefined;
  const providerId = decodeURIComponent(match[1]);
  const noStore = { 'cache-control': 'no-store' };
  if (request.method === 'GET' && match[2] === undefined) {
    return new Response(await samlMetadata(ctx, providerId), { status: 200, headers: { 'content-type': 'application/samlmetadata+xml', ...noStore } });
  }
  if (request.method === 'GET' && match[2] === '/start') {
    const location = await startSamlSignIn(ctx, providerId, url.searchParams.get('next') ?? undefined);
    return new Response(null, { status: 302, headers: { location, ...noStore } });
  }
  if (request.method === 'POST' && match[2] === '/acs') {
    const form = new URLSearchParams(await request.text());
    const signedIn = await completeSamlSignIn(ctx, providerId, Object.fromEntries(form) as SamlPost);
    return new Response(null, { status: 303, headers: { location: signedIn.redirect, ...noStore } });
  }
  return undefined;
}
