/**
 * The bench's discussions, beside the base set (test/bench/data.ts): 100 comments on the
 * change-request space of each of the 100 organizations, each with 2 replies and 2 reactions.
 * Reused while its marker matches.
 */
import postgres from 'postgres';
import { changeRequestSpace, orgIds } from './data';

export const COMMENTS_VERSION = 'v1: 100 comments x 2 replies x 2 reactions per organization';
export const COMMENTS_PER_ORG = 100;
const ADMIN = 'benchadmin0000000000';
const READER = 'benchreader000000000';

export async function ensureBenchComments(url: string): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql`create table if not exists bench_comments_meta (version text not null)`;
    const [marker] = await sql`select version from bench_comments_meta`;
    if (marker?.version === COMMENTS_VERSION) return;
    await sql.begin(async (tx) => {
      const t = tx as unknown as postgres.Sql;
      await t`delete from comments where id like 'benchcm%'`;
      for (const [o, org] of orgIds.entries()) {
        const space = changeRequestSpace(org);
        const [{ revision_id: revision }] = await t`select revision_id from spaces where id = ${space}`;
        const comments = Array.from({ length: COMMENTS_PER_ORG }, (_, i) => ({
          id: `benchcm${String(o * COMMENTS_PER_ORG + i).padStart(13, '0')}`,
          space_id: space,
          revision_id: revision,
          body: `Comment ${i}: is **this** right?`,
          posted_by: i % 2 ? ADMIN : READER,
          posted_at: new Date(Date.UTC(2024, 0, 1) + i * 60_000),
          status: i % 5 === 0 ? 'resolved' : 'open',
        }));
        await t`insert into comments ${t(comments)}`;
        const replies = comments.flatMap((c, i) =>
          [0, 1].map((r) => ({ id: `${c.id.replace('benchcm', 'benchrp')}${r}`, comment_id: c.id, body: `Reply ${r}`, posted_by: r ? ADMIN : READER, posted_at: new Date(c.posted_at.getTime() + (r + 1) * 1000 + i) })),
        );
        await t`insert into comment_replies ${t(replies)}`;
        const reactions = comments.flatMap((c) => [ADMIN, READER].map((user) => ({ subject_id: c.id, comment_id: c.id, user_id: user, emoji: '👍', reacted_at: c.posted_at })));
        await t`insert into comment_reactions ${t(reactions)}`;
      }
      await t`delete from bench_comments_meta`;
      await t`insert into bench_comments_meta values (${COMMENTS_VERSION})`;
    });
    await sql`analyze comments`;
    await sql`analyze comment_replies`;
    await sql`analyze comment_reactions`;
  } finally {
    await sql.end();
  }
}
