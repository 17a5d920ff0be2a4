import { builder } from '../../../graphql/builder';
import { enumValues } from '../../../graphql/enums';
import { mapPage } from '../../../domain/page';
import { connectionArgs, GRAPHQL_MAX, pageToConnection, totalCountField } from '../../../graphql/relay';
import { fileBacklinksOf, linksOf, type LinkStatus, type LinkUsage, type SpaceContent } from '../service';
import { FileRef, PageRef, RevisionRef } from './refs';

/*
 * The links of content, as REST's /links, /page/{id}/links and /files/{id}/backlinks list them.
 */

type LinkShape = { content: SpaceContent; usage: LinkUsage };

const LINK_STATUSES: readonly LinkStatus[] = ['ok', 'broken', 'in-app'];
const LinkStatusEnum = builder.enumType('ContentLinkStatus', {
  description: 'Whether a link of the content leads somewhere.',
  values: enumValues(LINK_STATUSES, (s) =>
    s === 'ok' ? 'It leads to a page or file that exists, or to another site.' : s === 'broken' ? 'Its page, anchor or file does not exist.' : 'It points into the app, not at content.',
  ),
});

const LinkRelationEnum = builder.enumType('ContentLinkRelation', {
  description: 'How a page uses what it links to.',
  values: {
    REFERENCE: { value: 'reference' as const, description: 'A link: the page refers to its target.' },
    DEPENDS_ON: { value: 'dependsOn' as const, description: 'An image: the page shows its target.' },
  },
});

const pageOf = (content: SpaceContent, pageId: string | undefined) => {
  const entry = pageId ? content.tree.byId.get(pageId) : undefined;
  return entry ? { ...content, entry } : null;
};

const LinkRef = builder.objectRef<LinkShape>('ContentLink').implement({
  description: 'One target linked from some pages: the same target, relation and status, with the pages it is found in.',
  fields: (t) => ({
    status: t.field({ type: LinkStatusEnum, description: 'Whether it leads somewhere.', resolve: (l) => l.usage.status }),
    relation: t.field({ type: LinkRelationEnum, description: 'A link or an image.', resolve: (l) => l.usage.relation }),
    url: t.string({ nullable: true, description: 'The address, for a link to another site; null otherwise.', resolve: (l) => (l.usage.target.kind === 'url' ? l.usage.target.url : null) }),
    anchor: t.string({ nullable: true, description: 'The heading anchor it points at, if any.', resolve: (l) => (l.usage.target.kind === 'anchor' ? l.usage.target.anchor : null) }),
    targetPage: t.field({
      type: PageRef,
      nullable: true,
      description: 'The page of this revision it points at; null for a URL, a file or a missing page.',
      resolve: (l) => (l.usage.target.kind === 'page' || l.usage.target.kind === 'anchor' ? pageOf(l.content, l.usage.target.page) : null),
    }),
    targetFile: t.field({
      type: FileRef,
      nullable: true,
      description: 'The file of this revision it points at; null for anything else or a missing file.',
      resolve: (l) => {
        const file = l.usage.target.kind === 'file' ? l.content.tree.filesById.get(l.usage.target.file) : undefined;
        return file ? { ...l.content, file } : null;
      },
    }),
    pages: t.field({
      type: [PageRef],
      description: 'The pages it is found in, in tree order.',
      resolve: (l) => l.usage.pages.map((id) => pageOf(l.content, id)).filter((p) => p !== null),
    }),
  }),
});

type LinkStats = { total: number; broken: { total: number } };

const LinkConnection = builder.connectionObject(
  {
    type: LinkRef,
    name: 'ContentLinkConnection',
    description: 'A page of links, with counts of the whole list.',
    fields: (t) => ({
      ...totalCountField(t),
      usageCount: t.int({
        description: 'How many times links are used (each page a target is found in counts once), whatever the status filter.',
        resolve: (c) => (c as unknown as { stats: LinkStats }).stats.total,
      }),
      brokenUsageCount: t.int({ description: 'How many of those uses are broken.', resolve: (c) => (c as unknown as { stats: LinkStats }).stats.broken.total }),
    }),
  },
  { name: 'ContentLinkEdge', description: 'A link in a page, with its cursor.' },
);

const PageConnection = builder.connectionObject(
  { type: PageRef, name: 'PageConnection', description: 'A page of pages.', fields: totalCountField },
  { name: 'PageEdge', description: 'A page in a list, with its cursor.' },
);

const STATUS_ARG = 'Only links with this status.';

async function linkConnection(content: SpaceContent, pageId: string | undefined, args: { status?: LinkStatus | null } & Parameters<typeof connectionArgs>[0], ctx: Parameters<typeof linksOf>[0]) {
  const links = await linksOf(ctx, content, { ...(pageId ? { pageId } : {}), status: args.status ?? undefined }, connectionArgs(args), GRAPHQL_MAX);
  return { ...pageToConnection(mapPage(links.page, (usage) => ({ content, usage }))), stats: links.stats };
}

builder.objectFields(RevisionRef, (t) => ({
  links: t.connection(
    {
      type: LinkRef,
      description: 'The links and images of all its pages, grouped by target, in reading order.',
      args: { status: t.arg({ type: LinkStatusEnum, description: STATUS_ARG }) },
      resolve: (r, args, ctx) => linkConnection(r, undefined, args, ctx),
    },
    LinkConnection,
  ),
}));

builder.objectFields(PageRef, (t) => ({
  links: t.connection(
    {
      type: LinkRef,
      description: 'The links and images of this page, grouped by target, in reading order.',
      args: { status: t.arg({ type: LinkStatusEnum, description: STATUS_ARG }) },
      resolve: (p, args, ctx) => linkConnection(p, p.entry.page.data.id, args, ctx),
    },
    LinkConnection,
  ),
}));

builder.objectFields(FileRef, (t) => ({
  backlinks: t.connection(
    {
      type: PageRef,
      description: 'The pages of this revision that show or link to the file, in tree order.',
      resolve: async (f, args, ctx) => {
        const { page } = await fileBacklinksOf(ctx, f, f.file.data.id, connectionArgs(args), GRAPHQL_MAX);
        return pageToConnection(mapPage(page, (entry) => ({ ...(f as SpaceContent), entry })));
      },
    },
    PageConnection,
  ),
}));
