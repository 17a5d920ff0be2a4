import { and, eq, inArray, isNull, param, sql, type SQL } from 'drizzle-orm';
import type { RequestContext } from '../../context/request-context';
import { ValidationError } from '../../domain/errors';
import { badCursor, resolveWindow, type Page, type PageArgs } from '../../domain/page';
import { decodeCursor, encodeCursor } from '../../lib/cursor';
import { spaces } from '../../db/schema/spaces';
import { rowsOf } from '../../db/rows';
import { readRevision } from './commit';
import { refreshIndex } from './search-index';
import { searchTerms } from './search-query';
import { searchConfig } from './search-sections';

/** A section of a page that matched, its text cut around the words found (marked with <mark>). */
export interface SectionHit {
  /** Empty for the text before the page's first heading. */
  heading: string;
  anchor: string;
  snippet: string;
  /** How well the section's own text matched (ts_rank): sections of a page come best first. */
  score: number;
}

export interface PageHit {
  spaceId: string;
  organizationId: string;
  pageId: string;
  title: string;
  path: string;
  sections: SectionHit[];
  /** How well the page matched (its best section's ts_rank): comparable across spaces of one search. */
  score: number;
}

export interface SpaceHit {
  spaceId: string;
  organizationId: string;
  title: string;
  pages: PageHit[];
}

/** How many pages an organization search shows per space, and sections per page. */
const PAGES_PER_SPACE = 5;
const SECTIONS_PER_PAGE = 3;
/** ts_rank weights {D, C, B, A} that ignore the page title: which sections matched by their own text. */
const SECTION_WEIGHTS = '{0.1,0.2,0.4,0}';
const HEADLINE = 'StartSel=<mark>, StopSel=</mark>, MaxWords=35, MinWords=15, ShortWord=2, MaxFragments=2, FragmentDelimiter=" … "';

/** A forward window of a ranked list: its offset and size (cursors are positions in the ranking). */
function rankWindow(args: PageArgs, max: number): { offset: number; size: number } {
  const { size, cursor, backward } = resolveWindow(args, max);
  if (backward) throw new ValidationError('Search results are read forward only: use first and after', ['last']);
  if (!cursor) return { offset: 0, size };
  const [position] = decodeCursor(cursor, 1) ?? [];
  if (typeof position !== 'number' || !Number.isInteger(position) || position < 0) throw badCursor();
  return { offset: position + 1, size };
}

function rankedPage<T>(rows: T[], offset: number, size: number): Page<T> {
  const items = rows.slice(0, size);
  const knownCount = offset === 0 && rows.length <= size ? rows.length : undefined;
  return {
    items,
    cursor: (i) => encodeCursor([offset + i]),
    hasNextPage: rows.length > size,
    hasPreviousPage: offset > 0,
    count: async () => (knownCount ?? offset + rows.length),
    ...(knownCount !== undefined ? { knownCount } : {}),
  };
}

interface HitRow {
  space_id: string;
  organization_id: string;
  space_title: string;
  page_id: string;
  page_title: string;
  page_path: string;
  heading: string;
  anchor: string;
  snippet: string;
  page_rank: number;
  section_rank: number;
}

/**
 * One statement: the sections matching `query` in the spaces of `scope`, ranked (title above
 * heading above text, `ts_rank`), grouped into pages and pages into spaces. `spaceWindow` cuts
 * the spaces, `pageWindow` the pages of each space (by their rank in it, from 1).
 *
 * Each section's `tsv` holds its words twice: stemmed in the space's configuration and as written
 * (`simple`). Whole words match by their stem; the word being typed also matches as the start of a
 * written word (`revis` finds "revisions", which English stems to `revis` but `revis` to `revi`):
 * its stem in websearch's query becomes "stem or prefix", so `or`, quotes and `-` keep their
 * meaning. A stop word being typed ("to", on its way to "tools") has no stem: its prefix is required.
 * Words found as typed (`exact`) add to the rank, so "revision" puts a page saying "revision"
 * above one saying only "revisions". Snippets mark, in the written words, those starting with a
 * stem of the query or with the word being typed.
 */
async function searchRows(ctx: RequestContext, scope: SQL, languages: (string | null)[], query: string, spaceWindow: SQL, pageWindow: SQL): Promise<HitRow[]> {
  const configs = [...new Set(languages.map(searchConfig))];
  if (configs.length === 0) return [];
  const terms = searchTerms(query);
  const result = await ctx.db.execute(sql`with queries as (
      select c::regconfig as config,
        case when ${terms.prefix}::text is null then websearch_to_tsquery(c::regconfig, ${terms.query})
          when numnode(plainto_tsquery(c::regconfig, ${terms.last})) = 0 then websearch_to_tsquery(c::regconfig, ${terms.query}) && to_tsquery('simple', ${terms.prefix})
          else ts_rewrite(websearch_to_tsquery(c::regconfig, ${terms.query}), plainto_tsquery(c::regconfig, ${terms.last}),
            plainto_tsquery(c::regconfig, ${terms.last}) || to_tsquery('simple', ${terms.prefix})) end as q,
        websearch_to_tsquery('simple', ${terms.query}) as exact,
        (select to_tsquery('simple', string_agg(m, ' | ')) from (
          select '''' || replace(replace(l, '\\', '\\\\'), '''', '''''') || ''':*' as m from unnest(tsvector_to_array(to_tsvector(c::regconfig, ${terms.query}))) l
          union all select ${terms.prefix}::text where ${terms.prefix}::text is not null) marks) as marks
      from unnest(${param(configs)}::text[]) as c
    ), hits as (
      select s.space_id, s.page_id, s.section, s.config, qs.marks,
        ts_rank(s.tsv, qs.q) + ts_rank(s.tsv, qs.exact) as rank,
        ts_rank(${SECTION_WEIGHTS}::float4[], s.tsv, qs.q) + ts_rank(${SECTION_WEIGHTS}::float4[], s.tsv, qs.exact) as own_rank
      from queries qs
      join search_sections s on s.config = qs.config and s.tsv @@ qs.q
      join spaces on spaces.id = s.space_id
      where ${scope}
    ), pages as (
      select space_id, page_id, max(rank) as rank from hits group by space_id, page_id
    ), ranked_spaces as (
      select space_id, max(rank) as rank from pages group by space_id order by rank desc, space_id ${spaceWindow}
    ), top_pages as (
      select * from (
        select p.*, row_number() over (partition by p.space_id order by p.rank desc, p.page_id) as n
        from pages p where p.space_id in (select space_id from ranked_spaces)
      ) x where ${pageWindow}
    ), top_sections as (
      select * from (
        select h.*, bool_or(h.own_rank > 0) over (partition by h.space_id, h.page_id) as text_hit,
          row_number() over (partition by h.space_id, h.page_id order by h.own_rank desc, h.section) as n
        from hits h join top_pages tp on tp.space_id = h.space_id and tp.page_id = h.page_id
      ) y where (own_rank > 0 and n <= ${SECTIONS_PER_PAGE}) or (not text_hit and section = 0)
    )
    select rs.space_id, sp.organization_id, sp.title as space_title, tp.page_id, ss.page_title, ss.page_path, ss.heading, ss.anchor, tp.rank as page_rank, ts.own_rank as section_rank,
      ts_headline('simple', ss.body, ts.marks, ${HEADLINE}) as snippet
    from ranked_spaces rs
    join spaces sp on sp.id = rs.space_id
    join top_pages tp on tp.space_id = rs.space_id
    join top_sections ts on ts.space_id = tp.space_id and ts.page_id = tp.page_id
    join search_sections ss on ss.space_id = ts.space_id and ss.page_id = ts.page_id and ss.section = ts.section
    order by rs.rank desc, rs.space_id, tp.rank desc, tp.page_id, ts.n`);
  return rowsOf<HitRow>(result);
}

/** Rows in order as spaces of pages of sections. */
function group(rows: HitRow[]): SpaceHit[] {
  const out: SpaceHit[] = [];
  for (const row of rows) {
    let space = out.at(-1);
    if (space?.spaceId !== row.space_id) out.push((space = { spaceId: row.space_id, organizationId: row.organization_id, title: row.space_title, pages: [] }));
    let page = space.pages.at(-1);
    if (page?.pageId !== row.page_id) {
      space.pages.push((page = { spaceId: row.space_id, organizationId: row.organization_id, pageId: row.page_id, title: row.page_title, path: row.page_path, sections: [], score: Number(row.page_rank) }));
    }
    page.sections.push({ heading: row.heading, anchor: row.anchor, snippet: row.snippet, score: Number(row.section_rank) });
  }
  return out;
}

/** Pages of one space matching a query, best first, within a forward window. The caller authorizes. */
export async function searchSpacePages(ctx: RequestContext, spaceId: string, query: string, args: PageArgs, max: number): Promise<Page<PageHit>> {
  const { offset, size } = rankWindow(args, max);
  const scope = eq(spaces.id, spaceId);
  const languages = await refreshIndex(ctx.db, scope, (id) => readRevision(ctx.db, id));
  const rows = await searchRows(ctx, scope, languages, query, sql``, sql`n > ${offset} and n <= ${offset + size + 1}`);
  return rankedPage(group(rows)[0]?.pages ?? [], offset, size);
}

/**
 * Spaces of an organization matching a query, best first, each with its best pages. `visible` is
 * the viewer's visibility filter on spaces: it is part of the statement, so pages and counts never
 * reveal the other spaces.
 */
export async function searchOrganizationSpaces(ctx: RequestContext, organizationId: string, visible: SQL | undefined, query: string, args: PageArgs, max: number): Promise<Page<SpaceHit>> {
  const { offset, size } = rankWindow(args, max);
  const live = and(eq(spaces.organizationId, organizationId), isNull(spaces.deletedAt))!;
  const languages = await refreshIndex(ctx.db, live, (id) => readRevision(ctx.db, id));
  const rows = await searchRows(ctx, and(live, visible)!, languages, query, sql`limit ${size + 1} offset ${offset}`, sql`n <= ${PAGES_PER_SPACE}`);
  return rankedPage(group(rows), offset, size);
}

/** How many pages a search of given spaces (a published site's) shows per space: a site is often one space. */
const PAGES_PER_SITE_SPACE = 20;

/**
 * The same over the given spaces of an organization (those a published site shows in the scope
 * asked): only their index is refreshed, never the whole organization's. The caller authorizes.
 */
export async function searchGivenSpaces(ctx: RequestContext, organizationId: string, spaceIds: readonly string[], query: string, args: PageArgs, max: number): Promise<Page<SpaceHit>> {
  const { offset, size } = rankWindow(args, max);
  if (spaceIds.length === 0) return rankedPage([], offset, size);
  const live = and(eq(spaces.organizationId, organizationId), inArray(spaces.id, [...spaceIds]), isNull(spaces.deletedAt))!;
  const languages = await refreshIndex(ctx.db, live, (id) => readRevision(ctx.db, id));
  const rows = await searchRows(ctx, live, languages, query, sql`limit ${size + 1} offset ${offset}`, sql`n <= ${PAGES_PER_SITE_SPACE}`);
  return rankedPage(group(rows), offset, size);
}
