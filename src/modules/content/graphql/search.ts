import { builder } from '../../../graphql/builder';
import { costExtensions, WEIGHTS } from '../../../graphql/cost';
import { orNull } from '../../../graphql/errors';
import { GRAPHQL_MAX, pageToConnection } from '../../../graphql/relay';
import { OrganizationRef } from '../../organizations/graphql/refs';
import { SpaceRef } from '../../spaces/graphql/refs';
import { getSpace } from '../../spaces/service';
import { getPage, searchOrganizationContent, searchSpace, type PageHit, type SectionHit } from '../service';
import { PageRef, SearchSpaceHitConnection, SearchSpaceHitRef } from './refs';

const pageUrl = (ctx: { config: { appUrl: string } }, hit: PageHit) => `${ctx.config.appUrl}/o/${hit.organizationId}/s/${hit.spaceId}/${hit.path}`;

const SearchSectionRef = builder.objectRef<{ hit: PageHit; section: SectionHit }>('SearchSection').implement({
  description: 'A part of a page that matched a search: the text before its first heading, or the text under one heading.',
  fields: (t) => ({
    title: t.string({ description: 'The heading of the section; the page title for the text before the first heading.', resolve: ({ hit, section }) => section.heading || hit.title }),
    anchor: t.string({ nullable: true, description: 'The id of the heading in the page; null for the text before the first heading.', resolve: ({ section }) => section.anchor || null }),
    snippet: t.string({ description: 'Text of the section around the words found, each marked with `<mark>`…`</mark>`.', resolve: ({ section }) => section.snippet }),
    url: t.string({ description: 'Address of the section in the application.', resolve: ({ hit, section }, _, ctx) => pageUrl(ctx, hit) + (section.anchor ? `#${section.anchor}` : '') }),
    score: t.float({ description: 'How well the section\'s own text matched: the sections of a page come best first.', resolve: ({ section }) => section.score }),
  }),
});

const SearchPageAncestorRef = builder.objectRef<{ id: string; title: string }>('SearchPageAncestor').implement({
  description: 'A page above a page that matched, for breadcrumbs.',
  fields: (t) => ({
    pageId: t.string({ description: 'The REST id of the page.', resolve: (a) => a.id }),
    title: t.string({ description: 'Title of the page.', resolve: (a) => a.title }),
  }),
});

const SearchPageHitRef = builder.objectRef<PageHit>('SearchPageHit').implement({
  description: 'A page that matched a search, with its sections that did.',
  fields: (t) => ({
    title: t.string({ description: 'Title of the page.', resolve: (hit) => hit.title }),
    path: t.string({ description: 'Path of the page in its space (slugs joined by `/`).', resolve: (hit) => hit.path }),
    url: t.string({ description: 'Address of the page in the application.', resolve: (hit, _, ctx) => pageUrl(ctx, hit) }),
    page: t.field({
      type: PageRef,
      nullable: true,
      description: 'The page itself, in the current revision of its space.',
      resolve: (hit, _, ctx) => orNull(getPage(ctx, hit.spaceId, hit.pageId)),
    }),
    score: t.float({ description: 'How well the page matched (its best section\'s rank): comparable across the spaces of one search, as a site search orders them.', resolve: (hit) => hit.score }),
    ancestors: t.field({
      type: [SearchPageAncestorRef],
      nullable: true,
      description: 'The pages above it, from the top of its space down, for breadcrumbs: given by a site search, null elsewhere.',
      // As deep as the page tree, which is seldom deep: its real length is counted as it resolves.
      extensions: costExtensions({ expected: 5 }),
      resolve: (hit) => ('ancestors' in hit ? (hit as PageHit & { ancestors: { id: string; title: string }[] }).ancestors : null),
    }),
    sections: t.field({
      type: [SearchSectionRef],
      description: 'The sections that matched by their own text, best first (at most three); the first section when only the title did.',
      extensions: costExtensions({ expected: 3 }),
      resolve: (hit) => hit.sections.map((section) => ({ hit, section })),
    }),
  }),
});

SearchSpaceHitRef.implement({
  description: 'A space that matched a search, with its best pages.',
  fields: (t) => ({
    space: t.field({ type: SpaceRef, nullable: true, description: 'The space.', resolve: (hit, _, ctx) => orNull(getSpace(ctx, hit.spaceId)) }),
    pages: t.field({ type: [SearchPageHitRef], description: 'Its best matching pages, best first (at most five).', resolve: (hit) => hit.pages }),
  }),
});

const SearchPageHitConnection = builder.connectionObject(
  { type: SearchPageHitRef, name: 'SearchPageHitConnection', description: 'A page of search results: pages, best first.' },
  { name: 'SearchPageHitEdge', description: 'A matching page, with its cursor.' },
);

const QUERY_DESCRIPTION =
  'Words to find, in any of their forms (stemmed in the language of each space, English when it has none); the last word also finds longer words it starts, so results follow the reader as they type, and a word found exactly as written ranks first. Web search syntax: "quoted phrases", or, -excluded; at most 512 characters.';

builder.objectFields(SpaceRef, (t) => ({
  search: t.connection(
    {
      type: SearchPageHitRef,
      description: 'Pages of the current content matching a query, best first: a hit in a title ranks above one in a heading, which ranks above one in the text. Forward pagination only.',
      args: { query: t.arg.string({ required: true, description: QUERY_DESCRIPTION }) },
      extensions: costExtensions({ weight: WEIGHTS.search }),
      resolve: async (space, args, ctx) => pageToConnection(await searchSpace(ctx, space.id, { query: args.query }, args, GRAPHQL_MAX)),
    },
    SearchPageHitConnection,
  ),
}));

builder.objectFields(OrganizationRef, (t) => ({
  search: t.connection(
    {
      type: SearchSpaceHitRef,
      description: 'Spaces of the organization you may see whose current content matches a query, best first, each with its best pages. Forward pagination only.',
      args: { query: t.arg.string({ required: true, description: QUERY_DESCRIPTION }) },
      extensions: costExtensions({ weight: WEIGHTS.search }),
      resolve: async (org, args, ctx) => pageToConnection(await searchOrganizationContent(ctx, org.id, { query: args.query }, args, GRAPHQL_MAX)),
    },
    SearchSpaceHitConnection,
  ),
}));
