/**
 * The bench's nested discussions, beside the base set (test/bench/data.ts): 10 open change
 * requests on each of the 100 organizations' 100 spaces (100,000), each with 3 comments (300,000).
 * Loaded with triggers off, the counters set after in one statement each. Reused while its marker
 * matches.
 */
import postgres from 'postgres';

export const NESTED_VERSION = 'v1: 10 change requests x 3 comments on each of 10000 spaces';

export async function ensureBenchNested(url: string): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql`create table if not exists bench_nested_meta (version text not null)`;
    const [marker] = await sql`select version from bench_nested_meta`;
    if (marker?.version === NESTED_VERSION) return;
    console.log('bench: loading 100,000 change requests and 300,000 comments (once)...');
    await sql.begin(async (tx) => {
      const t = tx as unknown as postgres.Sql;
      await t`set local session_replication_role = replica`;
      await t`delete from comments where id like 'benchnc%'`;
      await t`delete from change_requests where id like 'benchncr%'`;
      await t.unsafe(`insert into change_requests (id, space_id, number, subject, status, revision_id, revision_initial, created_by, created_at, updated_at)
        select 'benchncr' || lpad((s.n * 10 + i)::text, 12, '0'), s.id, 100000 + i, 'Nested ' || i, 'open',
          'benchrev' || lpad((s.n / 100 * 100)::text, 12, '0'), 'benchrev' || lpad((s.n / 100 * 100)::text, 12, '0'),
          'benchadmin0000000000', timestamptz '2025-01-01' + i * interval '1 minute', timestamptz '2025-01-01' + i * interval '1 minute'
        from (select id, substr(id, 11)::int as n from spaces where id like 'benchspace%') s, generate_series(1, 10) i`);
      await t.unsafe(`insert into comments (id, space_id, change_request_id, revision_id, body, posted_by, posted_at, status)
        select 'benchnc' || lpad((substr(c.id, 9)::bigint * 3 + j)::text, 13, '0'), c.space_id, c.id, c.revision_id,
          'Nested comment ' || j, case when j % 2 = 0 then 'benchadmin0000000000' else 'benchreader000000000' end,
          c.created_at + j * interval '1 second', 'open'
        from change_requests c, generate_series(1, 3) j where c.id like 'benchncr%'`);
      await t.unsafe(`update change_requests c set comments_open = 3 where c.id like 'benchncr%'`);
      await t.unsafe(`update spaces s set change_requests_total = x.total, change_requests_open = x.open, change_requests_draft = x.draft
        from (select space_id, count(*) as total, count(*) filter (where status = 'open') as open, count(*) filter (where status = 'draft') as draft
              from change_requests group by space_id) x where x.space_id = s.id`);
      await t`delete from bench_nested_meta`;
      await t`insert into bench_nested_meta values (${NESTED_VERSION})`;
    });
    await sql`analyze change_requests`;
    await sql`analyze comments`;
  } finally {
    await sql.end();
  }
}
