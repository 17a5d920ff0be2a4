import type { RequestContext } from '../../../context/request-context';
import { pageDocumentReadSchema, type PageDocumentReadInput, type PageReadInput } from '../../../domain/content';
import { NotFoundError } from '../../../domain/errors';
import { parseInput } from '../../../domain/validate';
import { countedDocument, pageMarkdown } from '../bodies';
import type { BlockLanguages } from '../block-syntax';
import { blockLanguages } from '../integration-blocks';
import { findPage, findPageByPath, getSpaceRevision, type FoundPage, type RevisionContent } from './read';

/*
 * The pages of one revision, by the ids of the space and the revision (the `/revisions/{id}/page`,
 * `/path` and `/document` routes the platform's renderer reads published content through), and
 * whether each answer reads the same forever. A revision's pages and bodies never change; what can
 * still move under a fixed revision id is said where it is decided.
 */

export type RevisionPage = FoundPage & { fixed: boolean };

/** A page of one revision of a space, by its id; a missing page, revision or space is NOT_FOUND alike. */
export async function getRevisionPage(ctx: RequestContext, spaceId: string, revisionId: string, pageId: string, query: PageReadInput = {}): Promise<RevisionPage> {
  const content = await getSpaceRevision(ctx, spaceId, revisionId, { computed: query.computed });
  return { ...findPage(content, pageId, query), fixed: content.fixed };
}

/** A page of one revision of a space, by its path (slugs joined by `/`). */
export async function getRevisionPageByPath(ctx: RequestContext, spaceId: string, revisionId: string, path: string, query: PageReadInput = {}): Promise<RevisionPage> {
  const content = await getSpaceRevision(ctx, spaceId, revisionId, { computed: query.computed });
  return { ...findPageByPath(content, path, query), fixed: content.fixed };
}

/**
 * Whether a page's answer reads the same forever: its JSON document turns code blocks into the
 * blocks of the integrations installed on the space, so with any installed it can change.
 */
export function pageAnswerFixed(found: RevisionPage, languages: BlockLanguages | undefined): boolean {
  return found.fixed && (found.format !== 'document' || !languages || languages.size === 0);
}

/**
 * Whether a whole revision's answer reads the same forever: its files carry download URLs signed
 * for an hour, and a merge names the change request it merged, which still changes.
 */
export function revisionAnswerFixed(content: RevisionContent): boolean {
  return content.fixed && content.tree.files.length === 0 && content.tree.revision.type !== 'merge';
}

/**
 * A document page's body as the platform's JSON document, as the page routes give it with
 * `format=document`. Other pages have no document: NOT_FOUND.
 */
export async function getRevisionPageDocument(ctx: RequestContext, spaceId: string, revisionId: string, pageId: string, query: PageDocumentReadInput = {}): Promise<{ document: Record<string, unknown>; fixed: boolean }> {
  const found = await getRevisionPage(ctx, spaceId, revisionId, pageId);
  parseInput(pageDocumentReadSchema, query);
  const { page } = found.entry;
  if (page.data.type !== 'document') throw new NotFoundError('Document of the page');
  const [markdown, languages] = await Promise.all([pageMarkdown(ctx, page), blockLanguages(ctx, found.space)]);
  return { document: countedDocument(ctx, found.tree, found.entry, markdown, languages), fixed: pageAnswerFixed(found, languages) };
}

/** The platform's RevisionPageMetaLinks: the page's canonical address and its alternates (the same page elsewhere). */
export type MetaLinkTarget = { kind: 'page'; page: string; space?: string } | { kind: 'url'; url: string };
export interface PageMetaLinks {
  canonical?: MetaLinkTarget;
  alternates: MetaLinkTarget[];
}

/**
 * A page's meta links in one revision. Quire keeps neither a canonical address nor alternates for
 * a page (a published page's canonical link is its own address), so an existing page has none:
 * the spec's shape with an empty list, which the renderer reads as "this page's own URL".
 */
export async function getRevisionPageMetaLinks(ctx: RequestContext, spaceId: string, revisionId: string, pageId: string): Promise<PageMetaLinks & { fixed: boolean }> {
  const found = await getRevisionPage(ctx, spaceId, revisionId, pageId);
  return { alternates: [], fixed: found.fixed };
}
