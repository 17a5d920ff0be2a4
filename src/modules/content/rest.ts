import type { RequestContext } from '../../context/request-context';
import { errorResponse } from '../../rest/errors';
import { pageArgs, renderList, REST_MAX } from '../../rest/pagination';
import { bodyAs, optionalParam, type RestRouter } from '../../rest/router';
import type { PageDocumentReadInput, PageReadInput, RevisionReadInput } from '../../domain/content';
import { presentPageHit, presentSemanticChange, presentSpaceHit, renderBacklinks, renderLinks, presentFile, presentPage, presentRevision } from './present';
import {
  allPagesOf,
  computeDocument,
  getDocumentById,
  getEmbed,
  getReusableContent,
  type ComputedDocumentInput,
  type DocumentSchemaInput,
  blockLanguages,
  applyTemplate,
  importContent,
  getContent,
  getFile,
  getPage,
  getPageByPath,
  getSpaceRevision,
  getRevisionPage,
  getRevisionPageByPath,
  getRevisionPageDocument,
  getRevisionPageMetaLinks,
  pageAnswerFixed,
  revisionAnswerFixed,
  type RevisionPage,
  listFiles,
  pageBodies,
  readSignedFile,
  readSignedPdf,
  revisionChanges,
  searchOrganizationContent,
  searchSpace,
} from './service';

const revisionQuery = (query: URLSearchParams) => ({ metadata: optionalParam(query, 'metadata'), computed: optionalParam(query, 'computed') }) as RevisionReadInput;
const pageQuery = (query: URLSearchParams) => ({ ...revisionQuery(query), format: optionalParam(query, 'format'), evaluated: optionalParam(query, 'evaluated') }) as PageReadInput;

/** One page as the platform's RevisionPage, its body in the format asked for; `languages` say which code blocks became integration blocks. */
async function onePage(ctx: RequestContext, found: Awaited<ReturnType<typeof getPage>>) {
  const [bodies, languages] = await Promise.all([pageBodies(ctx, [found.entry.page, ...found.entry.page.children]), found.format === 'document' ? blockLanguages(ctx, found.space) : undefined]);
  return { status: 200, body: presentPage(ctx, found, found.entry.page, bodies, found.format, languages), languages };
}

const schemaQuery = (query: URLSearchParams) => ({ schema: optionalParam(query, 'schema') }) as DocumentSchemaInput;

/** The documents the renderer reads besides pages' own (computed ones, by id, reusable contents), and the embed of a URL. */
function documentRoutes(r: RestRouter): void {
  r.post('/v1/spaces/:spaceId/content/computed/document', async ({ ctx, params, query, body }) => ({
    status: 200,
    body: await computeDocument(ctx, params.spaceId, bodyAs<ComputedDocumentInput>(body), schemaQuery(query)),
  }));

  r.get('/v1/spaces/:spaceId/documents/:documentId', async ({ ctx, params, query }) => getDocumentById(ctx, params.spaceId, params.documentId, schemaQuery(query)));

  r.get('/v1/spaces/:spaceId/revisions/:revisionId/reusable-contents/:reusableContentId', async ({ ctx, params }) =>
    getReusableContent(ctx, params.spaceId, params.revisionId, params.reusableContentId),
  );
  r.get('/v1/spaces/:spaceId/revisions/:revisionId/reusable-contents/:reusableContentId/document', async ({ ctx, params }) =>
    getReusableContent(ctx, params.spaceId, params.revisionId, params.reusableContentId),
  );

  r.get('/v1/spaces/:spaceId/embed', async ({ ctx, params, query }) => ({ status: 200, body: await getEmbed(ctx, params.spaceId, { url: optionalParam(query, 'url') as string }) }));
}

export function contentRoutes(r: RestRouter): void {
  documentRoutes(r);
  r.get('/v1/spaces/:spaceId/revisions/:revisionId', async ({ ctx, params, query }) => {
    const content = await getSpaceRevision(ctx, params.spaceId, params.revisionId, revisionQuery(query));
    return { status: 200, body: await presentRevision(ctx, content, await pageBodies(ctx, allPagesOf(content.tree))), revision: { fixed: revisionAnswerFixed(content) } };
  });
  const revisionPage = async (ctx: RequestContext, found: RevisionPage) => {
    const answer = await onePage(ctx, found);
    return { ...answer, revision: { fixed: pageAnswerFixed(found, answer.languages) } };
  };
  r.get('/v1/spaces/:spaceId/revisions/:revisionId/page/:pageId', async ({ ctx, params, query }) =>
    revisionPage(ctx, await getRevisionPage(ctx, params.spaceId, params.revisionId, params.pageId, pageQuery(query))),
  );
  r.get('/v1/spaces/:spaceId/revisions/:revisionId/path/*pagePath', async ({ ctx, params, query }) =>
    revisionPage(ctx, await getRevisionPageByPath(ctx, params.spaceId, params.revisionId, params.pagePath, pageQuery(query))),
  );
  r.get('/v1/spaces/:spaceId/revisions/:revisionId/page/:pageId/document', async ({ ctx, params, query }) => {
    const documentQuery = { evaluated: optionalParam(query, 'evaluated'), dereferenced: optionalParam(query, 'dereferenced') } as PageDocumentReadInput;
    const { document, fixed } = await getRevisionPageDocument(ctx, params.spaceId, params.revisionId, params.pageId, documentQuery);
    return { status: 200, body: document, revision: { fixed } };
  });
  r.get('/v1/spaces/:spaceId/revisions/:revisionId/page/:pageId/meta-links', async ({ ctx, params }) => {
    const { fixed, ...links } = await getRevisionPageMetaLinks(ctx, params.spaceId, params.revisionId, params.pageId);
    return { status: 200, body: links, revision: { fixed } };
  }, { summary: "A page's canonical and alternate links in a revision (@gitbook/api 0.202.0's listRevisionPageMetaLinks, RevisionPageMetaLinks)" });
  r.get('/v1/spaces/:spaceId/revisions/:revisionId/changes', async ({ ctx, params, query }) => {
    const { changes, more } = await revisionChanges(ctx, params.spaceId, params.revisionId, { ...revisionQuery(query), limit: optionalParam(query, 'limit') });
    return { status: 200, body: { changes: await Promise.all(changes.map((c) => presentSemanticChange(ctx, c))), ...(more ? { more } : {}) } };
  });
  r.get('/v1/spaces/:spaceId/search', async ({ ctx, params, query }) => {
    const page = await searchSpace(ctx, params.spaceId, { query: optionalParam(query, 'query') as string }, pageArgs(query), REST_MAX);
    return { status: 200, body: await renderList(ctx, page, presentPageHit) };
  });

  r.get('/v1/orgs/:organizationId/search', async ({ ctx, params, query }) => {
    const page = await searchOrganizationContent(ctx, params.organizationId, { query: optionalParam(query, 'query') as string }, pageArgs(query), REST_MAX);
    return { status: 200, body: await renderList(ctx, page, presentSpaceHit) };
  });

  r.post('/v1/spaces/:spaceId/content/import', async ({ ctx, params, body }) => ({ status: 201, body: await importContent(ctx, params.spaceId, body) }));

  r.post('/v1/spaces/:spaceId/content/template', async ({ ctx, params, body }) => {
    await applyTemplate(ctx, params.spaceId, body);
    return { status: 201 };
  });

  r.get('/v1/spaces/:spaceId/links', async ({ ctx, params, query }) => renderLinks(ctx, await getContent(ctx, params.spaceId), query));

  r.get('/v1/spaces/:spaceId/content/page/:pageId/links', async ({ ctx, params, query }) => renderLinks(ctx, await getContent(ctx, params.spaceId), query, params.pageId));

  r.get('/v1/spaces/:spaceId/content/files/:fileId/backlinks', async ({ ctx, params, query }) => renderBacklinks(ctx, await getContent(ctx, params.spaceId), params.fileId, query));

  r.get('/v1/spaces/:spaceId/content', async ({ ctx, params, query }) => {
    const content = await getContent(ctx, params.spaceId, revisionQuery(query));
    return { status: 200, body: await presentRevision(ctx, content, await pageBodies(ctx, allPagesOf(content.tree))) };
  });

  r.get('/v1/spaces/:spaceId/content/pages', async ({ ctx, params, query }) => {
    const content = await getContent(ctx, params.spaceId, revisionQuery(query));
    const bodies = await pageBodies(ctx, allPagesOf(content.tree));
    return { status: 200, body: { pages: content.tree.pages.map((p) => presentPage(ctx, content, p, bodies)) } };
  });

  r.get('/v1/spaces/:spaceId/content/page/:pageId', async ({ ctx, params, query }) => onePage(ctx, await getPage(ctx, params.spaceId, params.pageId, pageQuery(query))));

  r.get('/v1/spaces/:spaceId/content/path/*pagePath', async ({ ctx, params, query }) =>
    onePage(ctx, await getPageByPath(ctx, params.spaceId, params.pagePath, pageQuery(query))),
  );

  r.get('/v1/spaces/:spaceId/content/files', async ({ ctx, params, query }) => {
    const { page } = await listFiles(ctx, params.spaceId, pageArgs(query), REST_MAX, revisionQuery(query));
    return { status: 200, body: await renderList(ctx, page, presentFile) };
  });

  r.get('/v1/spaces/:spaceId/content/files/:fileId', async ({ ctx, params, query }) => ({
    status: 200,
    body: await presentFile(ctx, (await getFile(ctx, params.spaceId, params.fileId, revisionQuery(query))).file),
  }));
}

/**
 * GET /files/<hash>?name&type&expires&signature: a file's bytes, for whoever holds a download URL
 * that has not expired. No token: the signature is the credential.
 */
export async function serveSignedFile(ctx: RequestContext, url: URL): Promise<Response> {
  const file = await readSignedFile(ctx, url);
  if (!file) return errorResponse(404, 'This download link is unknown or has expired: ask the API for a fresh one');
  return new Response(new Uint8Array(file.bytes), {
    headers: {
      'content-type': file.contentType,
      'content-length': String(file.bytes.length),
      'content-disposition': `inline; filename*=UTF-8''${encodeURIComponent(file.name)}`,
      'cache-control': 'private, max-age=3600, immutable',
      'x-content-type-options': 'nosniff',
      // Uploaded HTML or SVG must not run as a page of this origin.
      'content-security-policy': "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox",
    },
  });
}

/** GET /pdf/<revision>?page&only&expires&signature: a PDF of a revision's pages, for whoever holds a link that has not expired. */
export async function serveSignedPdf(ctx: RequestContext, url: URL): Promise<Response> {
  const pdf = await readSignedPdf(ctx, url);
  if (!pdf) return errorResponse(404, 'This PDF link is unknown or has expired: ask the API for a fresh one');
  return new Response(new Uint8Array(pdf.bytes), {
    headers: {
      'content-type': 'application/pdf',
      'content-length': String(pdf.bytes.length),
      'content-disposition': `inline; filename*=UTF-8''${encodeURIComponent(pdf.name)}`,
      'cache-control': 'private, max-age=3600, immutable',
      'x-content-type-options': 'nosniff',
    },
  });
}
