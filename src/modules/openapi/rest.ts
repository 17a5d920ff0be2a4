import { pageArgs, renderList, REST_MAX } from '../../rest/pagination';
import { bodyAs, type RestRouter } from '../../rest/router';
import type { SpecCreateInput, SpecPatchInput, SpecPutInput } from './input';
import { presentSpec } from './present';
import { errorResponse } from '../../rest/errors';
import { createSpec, deleteSpec, getSpec, listSpecs, publishedSpecText, putSpec, updateSpecVisibility } from './service';

const SPECS = '/v1/orgs/:organizationId/openapi';

export function openApiRoutes(r: RestRouter): void {
  r.get(SPECS, async ({ ctx, params, query }) => ({ status: 200, body: await renderList(ctx, await listSpecs(ctx, params.organizationId, pageArgs(query), REST_MAX), presentSpec) }));

  r.post(SPECS, async ({ ctx, params, body }) => {
    const created = await presentSpec(ctx, await createSpec(ctx, params.organizationId, bodyAs<SpecCreateInput>(body)));
    return { status: 201, body: created, headers: { location: created.urls.location } };
  });

  r.get(`${SPECS}/:specSlug`, async ({ ctx, params }) => ({ status: 200, body: await presentSpec(ctx, await getSpec(ctx, params.organizationId, params.specSlug)) }));

  r.put(`${SPECS}/:specSlug`, async ({ ctx, params, body }) => {
    const spec = await putSpec(ctx, params.organizationId, params.specSlug, bodyAs<SpecPutInput>(body));
    return { status: spec.created ? 201 : 200, body: await presentSpec(ctx, spec) };
  });

  r.patch(`${SPECS}/:specSlug`, async ({ ctx, params, body }) => ({
    status: 200,
    body: await presentSpec(ctx, await updateSpecVisibility(ctx, await getSpec(ctx, params.organizationId, params.specSlug), bodyAs<SpecPatchInput>(body))),
  }));

  r.delete(`${SPECS}/:specSlug`, async ({ ctx, params }) => {
    await deleteSpec(ctx, await getSpec(ctx, params.organizationId, params.specSlug));
    return { status: 204 };
  });
}

/** `GET /openapi/{organizationId}/{slug}`: the newest version of a public spec, as it was published. */
export async function servePublishedSpec(ctx: Parameters<typeof publishedSpecText>[0], url: URL): Promise<Response> {
  const [, , organizationId = '', slug = ''] = url.pathname.split('/');
  const text = await publishedSpecText(ctx, organizationId, slug);
  if (text === null) return errorResponse(404, 'No public OpenAPI specification here');
  const json = text.trimStart().startsWith('{');
  return new Response(text, { headers: { 'content-type': json ? 'application/json; charset=utf-8' : 'application/yaml; charset=utf-8', 'cache-control': 'public, max-age=60' } });
}
