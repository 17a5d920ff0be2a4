import { encodeGlobalID } from '@pothos/plugin-relay';
import { orgIds } from '../data';
import { reviewedChangeRequest } from '../review-data';
import type { BenchShape } from './shape';

/**
 * Two screens a front-end builds (issue 29): a dashboard of spaces with their open change
 * requests, and a change request's review thread.
 */
const dashboardQuery = `query ($id: ID!) { organization(id: $id) { spaces(first: 20) { edges { node { title
  changeRequests(first: 5, status: OPEN) { totalCount edges { node { number subject createdBy { displayName } comments { totalCount } } } } } } } } }`;

const dashboardSql = `select s.id as space_id, s.title,
    (select count(*)::int from change_requests where space_id = s.id and status = 'open') as open_count,
    cr.id as cr_id, cr.number, cr.subject, u.display_name,
    (select count(*)::int from comments c where c.change_request_id = cr.id) as comment_count
  from (select * from spaces where organization_id = $1 and deleted_at is null order by created_at, id limit 20) s
  left join lateral (select * from change_requests where space_id = s.id and status = 'open' order by created_at desc, id desc limit 5) cr on true
  left join users u on u.id = cr.created_by
  order by s.created_at, s.id, cr.created_at desc, cr.id desc`;

function dashboardAnswer(rows: Record<string, unknown>[]) {
  const spaces = new Map<string, { title: unknown; total: unknown; crs: unknown[] }>();
  for (const r of rows) {
    const space = spaces.get(r.space_id as string) ?? { title: r.title, total: r.open_count, crs: [] };
    spaces.set(r.space_id as string, space);
    if (r.cr_id) space.crs.push({ node: { number: r.number, subject: r.subject, createdBy: r.display_name == null ? null : { displayName: r.display_name }, comments: { totalCount: r.comment_count } } });
  }
  return { organization: { spaces: { edges: [...spaces.values()].map((s) => ({ node: { title: s.title, changeRequests: { totalCount: s.total, edges: s.crs } } })) } } };
}

export const dashboard: BenchShape = {
  name: 'dashboard',
  description: 'org -> 20 spaces -> 5 open change requests with author and comment count',
  viewer: 'admin',
  organizations: orgIds,
  graphql: { query: dashboardQuery, variables: (id) => ({ id }) },
  raw: { sql: dashboardSql, answer: dashboardAnswer },
};

const reactions = 'reactions { emoji count }';
const reviewQuery = `query ($id: ID!) { node(id: $id) { ... on ChangeRequest { subject comments(first: 20) { edges { node { markdown postedBy { displayName } ${reactions}
  replies(first: 5) { edges { node { markdown postedBy { displayName } ${reactions} } } } } } } } } }`;

const reviewSql = `with c as (
    select id, body, posted_by, posted_at from comments
    where change_request_id = 'benchcr' || lpad((substr($1, 9)::int * 1000)::text, 13, '0')
    order by posted_at desc, id desc limit 20)
  select cr.subject, c.id, c.body, u.display_name,
    (select coalesce(json_agg(json_build_object('emoji', emoji, 'count', n) order by first), '[]') from
      (select emoji, count(*)::int as n, min(reacted_at) as first from comment_reactions r where r.subject_id = c.id group by emoji) x) as reactions,
    (select coalesce(json_agg(json_build_object('markdown', rp.body, 'author', ru.display_name, 'reactions',
        (select coalesce(json_agg(json_build_object('emoji', emoji, 'count', n)), '[]') from
          (select emoji, count(*)::int as n from comment_reactions rr where rr.subject_id = rp.id group by emoji) y)) order by rp.posted_at), '[]')
      from (select * from comment_replies where comment_id = c.id order by posted_at limit 5) rp left join users ru on ru.id = rp.posted_by) as replies
  from change_requests cr, c left join users u on u.id = c.posted_by
  where cr.id = 'benchcr' || lpad((substr($1, 9)::int * 1000)::text, 13, '0')
  order by c.posted_at desc, c.id desc`;

function reviewAnswer(rows: Record<string, unknown>[]) {
  return {
    node: {
      subject: rows[0]?.subject,
      comments: {
        edges: rows.map((r) => ({
          node: {
            markdown: r.body,
            postedBy: { displayName: r.display_name },
            reactions: r.reactions,
            replies: {
              edges: (r.replies as { markdown: string; author: string; reactions: unknown }[]).map((p) => ({ node: { markdown: p.markdown, postedBy: { displayName: p.author }, reactions: p.reactions } })),
            },
          },
        })),
      },
    },
  };
}

export const review: BenchShape = {
  name: 'review',
  description: 'a change request -> 20 comments with reactions -> 5 replies each with reactions (bench/review-data.ts)',
  viewer: 'admin',
  organizations: orgIds,
  graphql: { query: reviewQuery, variables: (org) => ({ id: encodeGlobalID('ChangeRequest', reviewedChangeRequest(org)) }) },
  raw: { sql: reviewSql, answer: reviewAnswer },
};
