/**
 * The bench's change-request reviews, beside the base set (test/bench/data.ts): on the first change
 * request of each organization, 20 comments, each with 5 replies; 2 reactions on every comment and 1
 * on every reply. Inserted with the triggers on, so the counters are what they would be. Reused
 * while its marker matches.
 */
import postgres from 'postgres';
import { orgIds } from './data';

export const REVIEW_VERSION = 'v2: 20 comments x 5 replies, reactions, on one change request per organization';
const ADMIN = 'benchadmin0000000000';
const READER = 'benchreader000000000';

/** The change request reviewed in organization `organizationId`: its first (see data.ts). */
export const reviewedChangeRequest = (organizationId: string) => `benchcr${String(Number(organizationId.slice(8)) * 1000).padStart(13, '0')}`;

export async function ensureBenchReviews(url: string): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql`create table if not exists bench_review_meta (version text not null)`;
    const [marker] = await sql`select version from bench_review_meta`;
    if (marker?.version === REVIEW_VERSION) return;
    await sql.begin(async (tx) => {
      const t = tx as unknown as postgres.Sql;
      await t`delete from comments where id like 'benchrv%'`;
      for (const [o, org] of orgIds.entries()) {
        const [cr] = await t`select id, space_id, revision_id from change_requests where id = ${reviewedChangeRequest(org)}`;
        const comments = Array.from({ length: 20 }, (_, i) => ({
          id: `benchrv${String(o * 20 + i).padStart(13, '0')}`,
          space_id: cr.space_id,
          change_request_id: cr.id,
          revision_id: cr.revision_id,
          body: `Review note ${i}: should this say **more**?`,
          posted_by: i % 2 ? ADMIN : READER,
          posted_at: new Date(Date.UTC(2024, 5, 1) + i * 60_000),
          status: 'open',
        }));
        await t`insert into comments ${t(comments)}`;
        const replies = comments.flatMap((c, i) =>
          Array.from({ length: 5 }, (_, r) => ({ id: `${c.id.replace('benchrv', 'benchrr')}${r}`, comment_id: c.id, body: `Answer ${r}`, posted_by: r % 2 ? ADMIN : READER, posted_at: new Date(c.posted_at.getTime() + (r + 1) * 1000 + i) })),
        );
        await t`insert into comment_replies ${t(replies)}`;
        const onComments = comments.flatMap((c) => [ADMIN, READER].map((user, k) => ({ subject_id: c.id, comment_id: c.id, user_id: user, emoji: k ? '🎉' : '👍', reacted_at: new Date(c.posted_at.getTime() + k * 1000) })));
        const onReplies = replies.map((r) => ({ subject_id: r.id, comment_id: r.comment_id, reply_id: r.id, user_id: ADMIN, emoji: '👀', reacted_at: r.posted_at }));
        await t`insert into comment_reactions ${t([...onComments, ...onReplies])}`;
      }
      await t`delete from bench_review_meta`;
      await t`insert into bench_review_meta values (${REVIEW_VERSION})`;
    });
    await sql`analyze comments`;
    await sql`analyze comment_replies`;
    await sql`analyze comment_reactions`;
  } finally {
    await sql.end();
  }
}
