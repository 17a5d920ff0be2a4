import type { RequestContext } from '../../../context/request-context';
import { NotFoundError } from '../../../domain/errors';
import { PostgresBlobStore } from '../blob-store';
import { readRevision } from '../commit';
import { resolverFor } from '../links';
import { renderPdf } from '../pdf';
import { signedPdfUrl, verifyPdfUrl } from '../pdf-links';
import { slugify } from '../slugs';
import { loadRevisionTree, type TreePage } from '../tree';
import { pageBodies } from '../bodies';
import { type SpaceContent } from './read';

/*
 * PDFs of content: the signed link, and the PDF rendered from the revision it names.
 */

/**
 * Where a PDF of the content can be fetched without a token for an hour: all pages, or one page
 * with (or, with `only`, without) the pages inside it. The page must exist in the revision.
 */
export function pdfUrl(ctx: RequestContext, content: SpaceContent, options: { pageId?: string; only?: boolean }): Promise<string> {
  if (options.pageId !== undefined && !content.tree.byId.has(options.pageId)) throw new NotFoundError('Page');
  return signedPdfUrl(ctx.db, ctx.config.publicUrl, { revisionId: content.tree.revision.id, pageId: options.pageId, only: options.only ?? false }, ctx.now());
}

export const DRAWABLE = new Set(['image/png', 'image/jpeg']);

/** The PDF a signed link names, rendered from its revision; null when the link does not hold. System use: the /pdf route. */
export async function readSignedPdf(ctx: RequestContext, url: URL): Promise<{ bytes: Buffer; name: string } | null> {
  const signed = await verifyPdfUrl(ctx.db, url, ctx.now());
  const revision = signed && (await readRevision(ctx.db, signed.revisionId));
  if (!signed || !revision) return null;
  const tree = await loadRevisionTree(ctx.db, revision);
  const top = signed.pageId ? tree.byId.get(signed.pageId)?.page : undefined;
  if (signed.pageId && !top) return null;
  const chosen: { page: TreePage; depth: number }[] = [];
  const walk = (list: readonly TreePage[], depth: number) => {
    for (const page of list) {
      if (page.data.type === 'computed') continue;
      chosen.push({ page, depth });
      if (!(signed.only && page === top)) walk(page.children, depth + 1);
    }
  };
  walk(top ? [top] : tree.pages, 0);
  const documents = chosen.filter((c) => c.page.data.type === 'document');
  const bodies = await pageBodies(ctx, documents.map((c) => c.page));
  const store = new PostgresBlobStore(ctx.db);
  const bytes = await renderPdf(
    top ? top.data.title : 'Content',
    documents.map(({ page, depth }) => ({
      title: page.data.title,
      depth,
      markdown: bodies.get(page.data.id) ?? '',
      resolve: resolverFor(tree, tree.byId.get(page.data.id)!.path, ctx.config.appUrl),
    })),
    async (fileId) => {
      const file = tree.filesById.get(fileId)?.data;
      return file && DRAWABLE.has(file.contentType) ? store.get(file.blob) : null;
    },
    // Between pages: the deadline's timer can fire, and the rendering stops once nobody waits for it.
    () => ctx.bounds.checkpoint(),
  );
  return { bytes, name: `${slugify(top ? top.data.title : 'content') || 'content'}.pdf` };
}
