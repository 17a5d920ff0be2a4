import { BIG_SPACE, SEARCH_ORG, SEARCH_SPACES } from '../content-data';
import type { BenchShape } from './shape';

/** Every page of a revision with its markdown, read by walking its lists in one recursive statement. */
export const contentPages: BenchShape = {
  name: 'content-1000',
  description: 'all 1,000 pages of a space with their markdown (REST: GET /v1/spaces/{id}/content/pages)',
  viewer: 'admin',
  organizations: [BIG_SPACE],
  rest: (id) => `/v1/spaces/${id}/content/pages`,
  raw: {
    sql: `with recursive walk(hash) as (
        select r.pages from spaces s join revisions r on r.id = s.revision_id where s.id = $1
        union all
        select x.h from walk w join content_objects o on o.hash = w.hash
        cross join lateral jsonb_array_elements_text(coalesce(o.data->'chunks', o.data->'items', case when o.data ? 'pages' then jsonb_build_array(o.data->'pages') end, '[]'::jsonb)) x(h)
      )
      select o.data->>'id' as id, o.data->>'title' as title, o.data->>'slug' as slug, b.data->>'markdown' as markdown
      from walk w join content_objects o on o.hash = w.hash and o.kind = 'page' left join content_objects b on b.hash = o.data->>'body'`,
    answer: (rows) => ({ pages: rows.map((r) => ({ id: r.id, title: r.title, path: r.slug, markdown: r.markdown })) }),
  },
};

const HEADLINE = `'StartSel=<mark>, StopSel=</mark>, MaxWords=35, MinWords=15, MaxFragments=2'`;
/** The query Quire runs for `whole typing` (English, no language set): the last word also as a prefix of a written word. */
const TYPING = (whole: string, typing: string) =>
  `(websearch_to_tsquery('english', '${whole}') && (plainto_tsquery('english', '${typing}') || to_tsquery('simple', '${typing}:*')))`;
/** What snippets mark: written words starting with a stem of the query or with the word being typed. */
const MARKS = (whole: string, typing: string) => `to_tsquery('simple', (select string_agg(l || ':*', ' | ') from unnest(tsvector_to_array(to_tsvector('english', '${whole} ${typing}'))) l) || ' | ${typing}:*')`;

export const spaceSearch: BenchShape = {
  name: 'space-search',
  description: 'search one space of 100 pages for two words, first 20 pages (REST: GET /v1/spaces/{id}/search)',
  viewer: 'admin',
  organizations: SEARCH_SPACES.slice(0, 20),
  rest: (id) => `/v1/spaces/${id}/search?query=kettle%20harbor&limit=20`,
  raw: {
    sql: `select page_id, page_title, heading, ts_headline('simple', body, ${MARKS('kettle', 'harbor')}, ${HEADLINE}) as snippet
      from (select s.*, q, ts_rank(s.tsv, q) + ts_rank(s.tsv, websearch_to_tsquery('simple', 'kettle harbor')) as rank from search_sections s, (select ${TYPING('kettle', 'harbor')} as q) typed
        where s.space_id = $1 and s.tsv @@ q order by rank desc, page_id limit 20) hit`,
    answer: (rows) => ({ items: rows }),
  },
};

export const organizationSearch: BenchShape = {
  name: 'org-search',
  description: 'search 10,000 pages in 100 spaces of an organization, first 10 spaces (REST: GET /v1/orgs/{id}/search)',
  viewer: 'reader',
  organizations: [SEARCH_ORG],
  rest: (id) => `/v1/orgs/${id}/search?query=lantern%20meadow&limit=10`,
  raw: {
    sql: `select s.space_id, s.page_id, s.page_title, ts_headline('simple', s.body, ${MARKS('lantern', 'meadow')}, ${HEADLINE}) as snippet
      from (select s.*, q, ts_rank(s.tsv, q) + ts_rank(s.tsv, websearch_to_tsquery('simple', 'lantern meadow')) as rank
        from search_sections s join spaces sp on sp.id = s.space_id, (select ${TYPING('lantern', 'meadow')} as q) typed
        where sp.organization_id = $1 and sp.deleted_at is null and s.tsv @@ q order by rank desc limit 50) s`,
    answer: (rows) => ({ items: rows }),
  },
};
