import { pageArgs, renderList, REST_MAX } from '../../rest/pagination';
import { bodyAs, optionalParam, type RestRouter } from '../../rest/router';
import type { RevisionReadInput, PageReadInput } from '../../domain/content';
import { presentFile, presentPage, presentSemanticChange, presentRevision, renderBacklinks, renderLinks } from '../content/present';
import { allPagesOf, fileOf, filesOf, findPage, importContent, pageBodies } from '../content/service';
import type { ChangeRequestCreateInput, ChangeRequestListInput, ChangeRequestUpdateInput, PdfQueryInput } from './input';
import { presentChangeRequest } from './present';
import { changeRequestContent, changeRequestEditTarget, changeRequestPdfUrl, changeRequestSemanticChanges, createChangeRequest, getChangeRequest, listChangeRequests, mergeChangeRequest, updateChangeRequest, updateFromSpace } from './service';

const CR = '/v1/spaces/:spaceId/change-requests/:changeRequestId';

const revisionQuery = (query: URLSearchParams) => ({ metadata: optionalParam(query, 'metadata'), computed: optionalParam(query, 'computed') }) as RevisionReadInput;

export function changeRequestRoutes(r: RestRouter): void {
  r.get('/v1/spaces/:spaceId/change-requests', async ({ ctx, params, query }) => {
    const filter = { status: optionalParam(query, 'status'), contributor: optionalParam(query, 'contributor') } as ChangeRequestListInput;
    const page = await listChangeRequests(ctx, params.spaceId, filter, pageArgs(query), REST_MAX);
    return { status: 200, body: await renderList(ctx, page, presentChangeRequest) };
  });

  r.post('/v1/spaces/:spaceId/change-requests', async ({ ctx, params, body }) => {
    const created = await presentChangeRequest(ctx, await createChangeRequest(ctx, params.spaceId, bodyAs<ChangeRequestCreateInput>(body)));
    return { status: 201, body: created, headers: { location: created.urls.location } };
  });

  r.get(CR, async ({ ctx, params }) => ({ status: 200, body: await presentChangeRequest(ctx, await getChangeRequest(ctx, params.spaceId, params.changeRequestId)) }));

  r.patch(CR, async ({ ctx, params, body }) => ({
    status: 200,
    body: await presentChangeRequest(ctx, await updateChangeRequest(ctx, await getChangeRequest(ctx, params.spaceId, params.changeRequestId), bodyAs<ChangeRequestUpdateInput>(body))),
  }));

  r.post(`${CR}/content/import`, async ({ ctx, params, body }) => {
    const cr = await getChangeRequest(ctx, params.spaceId, params.changeRequestId);
    return { status: 201, body: await importContent(ctx, cr.space.id, body, changeRequestEditTarget(ctx, cr)) };
  });

  r.post(`${CR}/merge`, async ({ ctx, params }) => {
    const { revision, result } = await mergeChangeRequest(ctx, await getChangeRequest(ctx, params.spaceId, params.changeRequestId));
    return { status: 200, body: { revision, result } };
  });

  r.post(`${CR}/update`, async ({ ctx, params }) => {
    const { revision, result } = await updateFromSpace(ctx, await getChangeRequest(ctx, params.spaceId, params.changeRequestId));
    return { status: 200, body: { revision, result } };
  });

  r.get(`${CR}/changes`, async ({ ctx, params, query }) => {
    const { changes, more } = await changeRequestSemanticChanges(ctx, await getChangeRequest(ctx, params.spaceId, params.changeRequestId), { limit: optionalParam(query, 'limit') });
    return { status: 200, body: { changes: await Promise.all(changes.map((c) => presentSemanticChange(ctx, c))), ...(more ? { more } : {}) } };
  });

  r.get(`${CR}/pdf`, async ({ ctx, params, query }) => {
    const options = { only: optionalParam(query, 'only'), page: optionalParam(query, 'page') } as PdfQueryInput;
    return { status: 200, body: { url: await changeRequestPdfUrl(ctx, params.spaceId, params.changeRequestId, options) } };
  });

  // The change request's content: the same shapes as the space's, on its revision.
  r.get(`${CR}/content`, async ({ ctx, params, query }) => {
    const content = await changeRequestContent(ctx, params.spaceId, params.changeRequestId, revisionQuery(query));
    return { status: 200, body: await presentRevision(ctx, content, await pageBodies(ctx, allPagesOf(content.tree))) };
  });

  r.get(`${CR}/content/pages`, async ({ ctx, params, query }) => {
    const content = await changeRequestContent(ctx, params.spaceId, params.changeRequestId, revisionQuery(query));
    const bodies = await pageBodies(ctx, allPagesOf(content.tree));
    return { status: 200, body: { pages: content.tree.pages.map((p) => presentPage(ctx, content, p, bodies)) } };
  });

  r.get(`${CR}/content/page/:pageId`, async ({ ctx, params, query }) => {
    const content = await changeRequestContent(ctx, params.spaceId, params.changeRequestId, revisionQuery(query));
    const pageQuery = { ...revisionQuery(query), format: optionalParam(query, 'format'), evaluated: optionalParam(query, 'evaluated') } as PageReadInput;
    const found = findPage(content, params.pageId, pageQuery);
    const bodies = await pageBodies(ctx, [found.entry.page, ...found.entry.page.children]);
    return { status: 200, body: presentPage(ctx, found, found.entry.page, bodies, found.format) };
  });

  r.get(`${CR}/content/page/:pageId/links`, async ({ ctx, params, query }) =>
    renderLinks(ctx, await changeRequestContent(ctx, params.spaceId, params.changeRequestId), query, params.pageId),
  );

  r.get(`${CR}/content/files/:fileId/backlinks`, async ({ ctx, params, query }) =>
    renderBacklinks(ctx, await changeRequestContent(ctx, params.spaceId, params.changeRequestId), params.fileId, query),
  );

  r.get(`${CR}/content/files`, async ({ ctx, params, query }) => {
    const { page } = filesOf(await changeRequestContent(ctx, params.spaceId, params.changeRequestId, revisionQuery(query)), pageArgs(query), REST_MAX);
    return { status: 200, body: await renderList(ctx, page, presentFile) };
  });

  r.get(`${CR}/content/files/:fileId`, async ({ ctx, params, query }) => ({
    status: 200,
    body: await presentFile(ctx, fileOf(await changeRequestContent(ctx, params.spaceId, params.changeRequestId, revisionQuery(query)), params.fileId).file),
  }));
}
