import { pageArgs, renderList, REST_MAX } from '../../rest/pagination';
import { bodyAs, type RestRouter } from '../../rest/router';
import type { TranslationCreateInput, TranslationUpdateInput } from './input';
import { presentTranslation } from './present';
import { createTranslation, deleteTranslation, findTranslation, getTranslation, listTranslations, runTranslation, updateTranslation } from './service';

const ONE = '/v1/orgs/:organizationId/translations/:translationId';

export function translationRoutes(r: RestRouter): void {
  r.get('/v1/orgs/:organizationId/translations', async ({ ctx, params, query }) => {
    const page = await listTranslations(ctx, params.organizationId, pageArgs(query), REST_MAX);
    return { status: 200, body: await renderList(ctx, page, presentTranslation) };
  });

  r.post('/v1/orgs/:organizationId/translations', async ({ ctx, params, body }) => {
    const created = await presentTranslation(ctx, await createTranslation(ctx, params.organizationId, bodyAs<TranslationCreateInput>(body)));
    return { status: 201, body: created, headers: { location: created.urls.location } };
  });

  r.get(ONE, async ({ ctx, params }) => ({ status: 200, body: await presentTranslation(ctx, await getTranslation(ctx, params.organizationId, params.translationId)) }));

  r.put(ONE, async ({ ctx, params, body }) => ({
    status: 200,
    body: await presentTranslation(ctx, await updateTranslation(ctx, await getTranslation(ctx, params.organizationId, params.translationId), bodyAs<TranslationUpdateInput>(body))),
  }));

  r.delete(ONE, async ({ ctx, params }) => {
    await deleteTranslation(ctx, await findTranslation(ctx, params.organizationId, params.translationId));
    return { status: 204 };
  });

  r.post(`${ONE}/run`, async ({ ctx, params }) => {
    await runTranslation(ctx, await getTranslation(ctx, params.organizationId, params.translationId));
    return { status: 204 };
  });
}
