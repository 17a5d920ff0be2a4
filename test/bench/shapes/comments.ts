import { encodeGlobalID } from '@pothos/plugin-relay';
import { changeRequestSpace, orgIds } from '../data';
import type { BenchShape } from './shape';

/** 50 comments of a space's discussion with their replies and reactions (test/bench/comments-data.ts). */
export const commentList: BenchShape = {
  name: 'comment list',
  description: 'newest 50 comments of a space (of 100), each with its 2 replies, authors and reactions',
  viewer: 'admin',
  organizations: orgIds,
  graphql: {
    query: `query ($id: ID!) { node(id: $id) { ... on Space { comments(first: 50) { edges { node { markdown status postedBy { displayName }
      reactions { emoji count } replies(first: 5) { edges { node { markdown postedBy { displayName } } } } } } } } } }`,
    variables: (org) => ({ id: encodeGlobalID('Space', changeRequestSpace(org)) }),
  },
  raw: {
    sql: `with c as (
        select id, body, status, posted_by, posted_at from comments
        where space_id = 'benchspace' || lpad((substr($1, 9)::int * 100)::text, 10, '0')
          and change_request_id is null order by posted_at desc, id desc limit 50)
      select c.id, c.body, upper(c.status) as status, u.display_name,
        (select coalesce(json_agg(json_build_object('emoji', emoji, 'count', n)), '[]') from
          (select emoji, count(*) as n from comment_reactions r where r.subject_id = c.id group by emoji) x) as reactions,
        (select coalesce(json_agg(json_build_object('markdown', rp.body, 'author', ru.display_name) order by rp.posted_at), '[]')
          from comment_replies rp left join users ru on ru.id = rp.posted_by where rp.comment_id = c.id) as replies
      from c left join users u on u.id = c.posted_by order by c.posted_at desc, c.id desc`,
    answer: (rows) => ({
      node: {
        comments: {
          edges: rows.map((r) => ({
            node: {
              markdown: r.body,
              status: r.status,
              postedBy: { displayName: r.display_name },
              reactions: r.reactions,
              replies: { edges: (r.replies as { markdown: string; author: string }[]).map((p) => ({ node: { markdown: p.markdown, postedBy: { displayName: p.author } } })) },
            },
          })),
        },
      },
    }),
  },
};
