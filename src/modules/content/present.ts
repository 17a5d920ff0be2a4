import { changeRequestMergedInto } from '../change-requests/service';
import { presentChangeRequest } from '../change-requests/present';
import type { RequestContext } from '../../context/request-context';
import { getOrganization } from '../organizations/service';
import { presentOrganization } from '../organizations/present';
import { presentSpace } from '../spaces/present';
import { pageArgs, renderList, REST_MAX } from '../../rest/pagination';
import { optionalParam } from '../../rest/router';
import type { LinkQueryInput } from './input';
import { countedDocument, type BlockLanguages, fileBacklinksOf, fileDownloadUrl, linksOf, pageBodies, type ContentRef, type LinkUsage, type PageEntry, type PageHit, type SemanticChange, type SpaceContent, type SpaceHit, type TreeFile, type TreePage } from './service';

/** What a page's body is given as: markdown (lists), or the format asked for (one page). */
export type BodyFormat = 'markdown' | 'document';

function pageUrl(ctx: RequestContext, content: SpaceContent, path: string): string {
  return `${ctx.config.appUrl}/o/${content.space.organizationId}/s/${content.space.id}/${path}`;
}

const optional = <T>(key: string, value: T | undefined) => (value === undefined ? {} : { [key]: value });

/**
 * A page as the platform's RevisionPage, its subpages nested. A document page carries its body,
 * as markdown or as the JSON document: the platform's schema requires one or the other.
 */
export function presentPage(ctx: RequestContext, content: SpaceContent, page: TreePage, bodies: Map<string, string>, format: BodyFormat = 'markdown', languages?: BlockLanguages): Record<string, unknown> {
  const entry = content.tree.byId.get(page.data.id)!;
  const d = page.data;
  const base = { id: d.id, title: d.title, ...optional('emoji', d.emoji), ...optional('icon', d.icon), createdAt: d.createdAt, updatedAt: d.updatedAt };
  const flags = { ...optional('hidden', d.hidden), ...optional('noIndex', d.noIndex), ...optional('noRobotsIndex', d.noRobotsIndex) };
  const children = () => page.children.map((c) => presentPage(ctx, content, c, bodies, 'markdown'));
  if (d.type === 'link') {
    return { ...base, kind: 'link', type: 'link', target: d.target, ...(d.target?.kind === 'url' ? { href: d.target.url } : {}), ...optional('hidden', d.hidden) };
  }
  // Only when asked not to compute (`computed=false`): the page as its source says, nothing under it.
  if (d.type === 'computed') return { ...base, type: 'computed', computed: d.computed };
  if (d.type === 'group') return { ...base, kind: 'group', type: 'group', slug: d.slug, path: entry.path, ...flags, pages: children() };
  const markdown = bodies.get(d.id) ?? '';
  return {
    ...base,
    kind: 'sheet',
    type: 'document',
    urls: { app: pageUrl(ctx, content, entry.path) },
    slug: d.slug,
    path: entry.path,
    ...optional('description', d.description),
    ...flags,
    layout: d.layout,
    pages: children(),
    // Counted as it is presented: an answer past QUIRE_MAX_RESPONSE_BYTES is refused before it is built.
    ...(format === 'document' ? { document: countedDocument(ctx, content.tree, entry as PageEntry, markdown, languages) } : { markdown: ctx.bounds.count(markdown) }),
  };
}

export async function presentFile(ctx: RequestContext, file: TreeFile) {
  const d = file.data;
  return { id: d.id, name: d.name, contentType: d.contentType, downloadURL: await fileDownloadUrl(ctx, d), size: d.size, ...optional('dimensions', d.dimensions) };
}

/** The revision the space points at, as the platform's Revision: its pages (with bodies) and files. */
export async function presentRevision(ctx: RequestContext, content: SpaceContent, bodies: Map<string, string>) {
  const { revision, pages, files } = content.tree;
  return {
    object: 'revision' as const,
    id: revision.id,
    parents: revision.parents,
    type: revision.type,
    pages: pages.map((p) => presentPage(ctx, content, p, bodies)),
    files: await Promise.all(files.map((f) => presentFile(ctx, f))),
    reusableContents: [],
    variables: revision.variables,
    createdAt: revision.createdAt.toISOString(),
    urls: { app: `${ctx.config.appUrl}/o/${content.space.organizationId}/s/${content.space.id}/~/revisions/${revision.id}` },
    ...(revision.type === 'merge' ? await mergedFrom(ctx, content) : {}),
  };
}

/** A merge revision names the change request it merged. */
async function mergedFrom(ctx: RequestContext, content: SpaceContent) {
  const cr = await changeRequestMergedInto(ctx, content.space, content.tree.revision.id);
  return cr ? { mergedFrom: await presentChangeRequest(ctx, cr) } : {};
}

/** Where content sits, as the platform's ContentLocation: a page or a file with its space and organization, or a URL. */
async function locationPresenter(ctx: RequestContext, content: SpaceContent, bodies: Map<string, string>) {
  const [organization, space] = await Promise.all([getOrganization(ctx, content.space.organizationId).then((o) => presentOrganization(ctx, o)), presentSpace(ctx, content.space)]);
  return async (ref: ContentRef) => {
    const pageId = ref.kind === 'page' ? ref.page : ref.kind === 'anchor' ? ref.page : undefined;
    const entry = pageId ? content.tree.byId.get(pageId) : undefined;
    if (entry) return { kind: 'page' as const, organization, space, page: presentPage(ctx, content, entry.page, bodies) };
    const file = ref.kind === 'file' ? content.tree.filesById.get(ref.file) : undefined;
    if (file) return { kind: 'file' as const, organization, space, file: await presentFile(ctx, file) };
    return ref.kind === 'url' ? { kind: 'url' as const, url: ref.url } : undefined;
  };
}

/** The platform's ContentReferenceUsage of each link: its target and the pages it is found in. */
export async function linkUsagePresenter(ctx: RequestContext, content: SpaceContent, usages: readonly LinkUsage[]) {
  const pages = new Set(usages.flatMap((u) => [...u.pages, ...(u.target.kind === 'page' || u.target.kind === 'anchor' ? [u.target.page ?? ''] : [])]));
  const bodies = await pageBodies(ctx, [...pages].map((id) => content.tree.byId.get(id)?.page).filter((p): p is TreePage => p !== undefined));
  const locate = await locationPresenter(ctx, content, bodies);
  return async (_: RequestContext, usage: LinkUsage) => {
    const target = await locate(usage.target);
    const locations = await Promise.all(usage.pages.map((page) => locate({ kind: 'page', page })));
    return { status: usage.status, relation: usage.relation, ...(target ? { targetReference: target } : {}), locationReferences: locations.filter((l) => l !== undefined) };
  };
}

/** The pages that link to a file, as ContentLocations. */
export async function pageLocationPresenter(ctx: RequestContext, content: SpaceContent, entries: readonly PageEntry[]) {
  const locate = await locationPresenter(ctx, content, await pageBodies(ctx, entries.map((e) => e.page)));
  return async (_: RequestContext, entry: PageEntry) => (await locate({ kind: 'page', page: entry.page.data.id }))!;
}


/** A page hit as the platform's SearchPageResult; each section's address ends in its heading's anchor. */
export function presentPageHit(ctx: RequestContext, hit: PageHit) {
  const url = `${ctx.config.appUrl}/o/${hit.organizationId}/s/${hit.spaceId}/${hit.path}`;
  return {
    id: hit.pageId,
    title: hit.title,
    path: hit.path,
    sections: hit.sections.map((s) => ({
      id: s.anchor || hit.pageId,
      title: s.heading || hit.title,
      path: s.anchor ? `${hit.path}#${s.anchor}` : hit.path,
      body: s.snippet,
      urls: { app: s.anchor ? `${url}#${s.anchor}` : url },
    })),
    urls: { app: url },
  };
}

/** A space hit as the platform's SearchSpaceResult. */
export function presentSpaceHit(ctx: RequestContext, hit: SpaceHit) {
  return { id: hit.spaceId, title: hit.title, pages: hit.pages.map((p) => presentPageHit(ctx, p)) };
}

/** The links of some content (all pages, or one), as the platform lists them: usages, with stats. */
export async function renderLinks(ctx: RequestContext, content: SpaceContent, query: URLSearchParams, pageId?: string) {
  const filter = { ...(pageId !== undefined ? { pageId } : {}), status: optionalParam(query, 'status') } as LinkQueryInput;
  const links = await linksOf(ctx, content, filter, pageArgs(query), REST_MAX);
  const body = await renderList(ctx, links.page, await linkUsagePresenter(ctx, content, links.page.items));
  return { status: 200, body: { ...body, stats: links.stats } };
}

/** The pages of some content that use a file. */
export async function renderBacklinks(ctx: RequestContext, content: SpaceContent, fileId: string, query: URLSearchParams) {
  const { page } = await fileBacklinksOf(ctx, content, fileId, pageArgs(query), REST_MAX);
  return { status: 200, body: await renderList(ctx, page, await pageLocationPresenter(ctx, content, page.items)) };
}

/** A change as the spec's RevisionSemanticChange: files with their download URL. */
export async function presentSemanticChange(ctx: RequestContext, change: SemanticChange) {
  if (change.type === 'file_created' || change.type === 'file_deleted' || change.type === 'file_edited') {
    const { id, name, contentType, downloadURL } = await presentFile(ctx, change.file);
    return { ...change, file: { id, name, contentType, downloadURL } };
  }
  return change;
}
