import { orgIds } from '../data';
import type { BenchShape } from './shape';

/**
 * The big nested read: an organization -> 50 spaces -> 10 open change requests each -> 5 comments
 * each with authors (test/bench/nested-data.ts), through GraphQL, beside one hand-written statement.
 */
const query = `query ($id: ID!) { organization(id: $id) { spaces(first: 50) { edges { node { title
  changeRequests(first: 10) { edges { node { subject comments(first: 5) { edges { node { markdown postedBy { displayName } } } } } } } } } } } }`;

const sql = `select s.id as space_id, s.title, cr.id as cr_id, cr.subject, c.body, u.display_name
  from (select * from spaces where organization_id = $1 and deleted_at is null order by created_at, id limit 50) s
  left join lateral (select * from change_requests where space_id = s.id and status = 'open' order by created_at desc, id desc limit 10) cr on true
  left join lateral (select * from comments where change_request_id = cr.id order by posted_at desc, id desc limit 5) c on true
  left join users u on u.id = c.posted_by
  order by s.created_at, s.id, cr.created_at desc, cr.id desc, c.posted_at desc, c.id desc`;

function answer(rows: Record<string, unknown>[]) {
  const spaces = new Map<string, { title: unknown; crs: Map<string, { subject: unknown; comments: unknown[] }> }>();
  for (const r of rows) {
    const space = spaces.get(r.space_id as string) ?? { title: r.title, crs: new Map() };
    spaces.set(r.space_id as string, space);
    if (!r.cr_id) continue;
    const cr = space.crs.get(r.cr_id as string) ?? { subject: r.subject, comments: [] };
    space.crs.set(r.cr_id as string, cr);
    if (r.body != null) cr.comments.push({ node: { markdown: r.body, postedBy: { displayName: r.display_name } } });
  }
  return {
    organization: {
      spaces: {
        edges: [...spaces.values()].map((s) => ({
          node: { title: s.title, changeRequests: { edges: [...s.crs.values()].map((c) => ({ node: { subject: c.subject, comments: { edges: c.comments } } })) } },
        })),
      },
    },
  };
}

export const nestedDiscussions: BenchShape = {
  name: 'nested discussions',
  description: 'org -> 50 spaces -> 10 open change requests -> 5 comments with authors (10k spaces, 100k CRs, 300k comments)',
  viewer: 'admin',
  organizations: orgIds,
  graphql: { query, variables: (id) => ({ id }) },
  raw: { sql, answer },
};
