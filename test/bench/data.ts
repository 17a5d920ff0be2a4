/**
 * The bench's data set, loaded with a few set-based SQL statements: 100 organizations with 20
 * members, 10 collections, 100 spaces, two teams and some grants each, plus one organization with
 * 100,000 spaces. One admin and one `read` member belong to every organization. Loading takes
 * seconds; a database that already holds this version of the set is reused as it is.
 */
import postgres from 'postgres';
import { openDatabase } from '../../src/db/client';
import { hashToken } from '../../src/lib/ids';

export const DATA_VERSION = 'v2: 100 orgs x 20 members x 100 spaces, 1 org x 100000 spaces, 1000 change requests in one space per org';
export const CHANGE_REQUESTS = 1000;
export const ORGS = 100;
export const BIG_SPACES = 100_000;

/** Tokens of the two bench viewers; fixed, so a reused data set keeps working. */
export const ADMIN_TOKEN = 'quire_bench_admin_token';
export const READER_TOKEN = 'quire_bench_reader_token';

export const orgId = (n: number) => `benchorg${String(n).padStart(12, '0')}`;
export const BIG_ORG = 'benchbigorg000000000';
export const orgIds = Array.from({ length: ORGS }, (_, n) => orgId(n));
/** The space of organization n that holds its change requests: its first one. */
export const changeRequestSpace = (organizationId: string) => `benchspace${String(Number(organizationId.slice(8)) * 100).padStart(10, '0')}`;

export function benchDatabaseUrl(): string {
  return process.env.QUIRE_BENCH_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/quire_bench';
}

export async function ensureBenchData(url = benchDatabaseUrl()): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  const maintenance = new URL(url);
  maintenance.pathname = '/postgres';
  const admin = postgres(maintenance.toString(), { max: 1, onnotice: () => {} });
  try {
    const [exists] = await admin`select 1 from pg_database where datname = ${name}`;
    if (exists) {
      const db = postgres(url, { max: 1, onnotice: () => {} });
      const [marker] = await db`select to_regclass('bench_meta') as t`.then(async ([r]) => (r.t ? db`select version from bench_meta` : []));
      await db.end();
      if (marker?.version === DATA_VERSION) {
        // The data stays; the schema follows the code, as a deployed server's would.
        const migrated = await openDatabase({ url, migrate: true });
        await migrated.close();
        return;
      }
      await admin.unsafe(`drop database ${name} with (force)`);
    }
    await admin.unsafe(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const migrated = await openDatabase({ url, migrate: true });
  await migrated.close();
  const started = Date.now();
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql.begin(async (tx) => {
      await load(tx as unknown as postgres.Sql);
      await tx`create table bench_meta (version text not null)`;
      await tx`insert into bench_meta values (${DATA_VERSION})`;
    });
    await sql`vacuum analyze`;
  } finally {
    await sql.end();
  }
  console.log(`bench data loaded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

async function load(sql: postgres.Sql): Promise<void> {
  const at = "timestamptz '2024-01-01' + n * interval '1 second'";
  await sql`insert into users (id, display_name, email) values
    ('benchadmin0000000000', 'Bench Admin', 'admin@bench.test'), ('benchreader000000000', 'Bench Reader', 'reader@bench.test')`;
  await sql`insert into api_tokens (id, user_id, token_hash) values
    ('benchtokenadmin00000', 'benchadmin0000000000', ${hashToken(ADMIN_TOKEN)}),
    ('benchtokenreader0000', 'benchreader000000000', ${hashToken(READER_TOKEN)})`;
  await sql.unsafe(`insert into organizations (id, title, created_at, default_role)
    select 'benchorg' || lpad(n::text, 12, '0'), 'Bench organization ' || n, ${at}, 'read' from generate_series(0, ${ORGS - 1}) n`);
  await sql`insert into organizations (id, title, default_role) values (${BIG_ORG}, 'Bench big organization', 'read')`;
  await sql`insert into organization_members (organization_id, user_id, role)
    select id, 'benchadmin0000000000', 'admin' from organizations union all
    select id, 'benchreader000000000', 'read' from organizations`;
  // 20 members in each organization.
  await sql.unsafe(`insert into users (id, display_name, email)
    select 'benchuser' || lpad(n::text, 11, '0'), 'Member ' || n, 'member' || n || '@bench.test' from generate_series(0, ${ORGS * 20 - 1}) n`);
  await sql.unsafe(`insert into organization_members (organization_id, user_id, role, joined_at)
    select 'benchorg' || lpad((n / 20)::text, 12, '0'), 'benchuser' || lpad(n::text, 11, '0'),
      (array['read', 'comment', 'edit', 'review', 'create'])[1 + n % 5], ${at}
    from generate_series(0, ${ORGS * 20 - 1}) n`);
  // Two teams per organization, five members each; the reader is in the first.
  await sql.unsafe(`insert into teams (id, organization_id, title, created_at)
    select 'benchteam' || lpad(n::text, 11, '0'), 'benchorg' || lpad((n / 2)::text, 12, '0'), 'Team ' || n, ${at} from generate_series(0, ${ORGS * 2 - 1}) n`);
  await sql.unsafe(`insert into team_members (team_id, organization_id, user_id, role)
    select 'benchteam' || lpad((n / 5)::text, 11, '0'), 'benchorg' || lpad((n / 10)::text, 12, '0'),
      'benchuser' || lpad((n / 10 * 20 + n % 10)::text, 11, '0'), case when n % 5 = 0 then 'owner' else 'member' end
    from generate_series(0, ${ORGS * 10 - 1}) n`);
  await sql.unsafe(`insert into team_members (team_id, organization_id, user_id, role)
    select 'benchteam' || lpad((n * 2)::text, 11, '0'), 'benchorg' || lpad(n::text, 12, '0'), 'benchreader000000000', 'member'
    from generate_series(0, ${ORGS - 1}) n`);
  // Ten collections per organization: five at the top, five inside them; every third one closed.
  await sql.unsafe(`insert into collections (id, organization_id, parent_id, title, default_level, position, created_at)
    select 'benchcoll' || lpad(n::text, 11, '0'), 'benchorg' || lpad((n / 10)::text, 12, '0'),
      case when n % 10 >= 5 then 'benchcoll' || lpad((n - 5)::text, 11, '0') end,
      'Collection ' || n, case when n % 3 = 0 then null else 'inherit' end, n % 10, ${at}
    from generate_series(0, ${ORGS * 10 - 1}) n`);
  // A hundred spaces per organization, four in five in a collection.
  await sql.unsafe(`insert into spaces (id, organization_id, parent_id, title, visibility, revision_id, position, created_at, updated_at)
    select 'benchspace' || lpad(n::text, 10, '0'), 'benchorg' || lpad((n / 100)::text, 12, '0'),
      case when n % 5 <> 0 then 'benchcoll' || lpad((n / 100 * 10 + n % 10)::text, 11, '0') end,
      'Space ' || n, case when n % 5 <> 0 then 'in-collection' else 'private' end,
      'benchrev' || lpad(n::text, 12, '0'), n % 100, ${at}, ${at}
    from generate_series(0, ${ORGS * 100 - 1}) n`);
  // Grants: the reader's team on one closed collection, the reader on two spaces.
  await sql.unsafe(`insert into content_grants (id, organization_id, collection_id, team_id, role)
    select 'benchgrantc' || lpad(n::text, 9, '0'), 'benchorg' || lpad(n::text, 12, '0'),
      'benchcoll' || lpad((n * 10 + 3)::text, 11, '0'), 'benchteam' || lpad((n * 2)::text, 11, '0'), 'edit'
    from generate_series(0, ${ORGS - 1}) n`);
  await sql.unsafe(`insert into content_grants (id, organization_id, space_id, user_id, role)
    select 'benchgrants' || lpad(n::text, 9, '0'), 'benchorg' || lpad((n / 2)::text, 12, '0'),
      'benchspace' || lpad((n / 2 * 100 + 30 + n % 2)::text, 10, '0'), 'benchreader000000000', 'comment'
    from generate_series(0, ${ORGS * 2 - 1}) n`);
  // The first space of each organization gets a revision and 1,000 change requests: 7 in 10 open.
  await sql.unsafe(`insert into revisions (id, space_id, type, created_at)
    select 'benchrev' || lpad((n * 100)::text, 12, '0'), 'benchspace' || lpad((n * 100)::text, 10, '0'), 'edits', timestamptz '2024-01-01' from generate_series(0, ${ORGS - 1}) n`);
  await sql.unsafe(`insert into change_requests (id, space_id, number, subject, status, revision_id, revision_initial, created_by, created_at, updated_at)
    select 'benchcr' || lpad(n::text, 13, '0'), 'benchspace' || lpad((n / ${CHANGE_REQUESTS} * 100)::text, 10, '0'), n % ${CHANGE_REQUESTS} + 1,
      'Change ' || n, (array['open', 'open', 'open', 'open', 'open', 'open', 'open', 'draft', 'draft', 'merged'])[1 + n % 10],
      'benchrev' || lpad((n / ${CHANGE_REQUESTS} * 100)::text, 12, '0'), 'benchrev' || lpad((n / ${CHANGE_REQUESTS} * 100)::text, 12, '0'),
      'benchadmin0000000000', ${at}, ${at}
    from generate_series(0, ${ORGS * CHANGE_REQUESTS - 1}) n`);
  // The big organization: 100 collections and 100,000 spaces.
  await sql.unsafe(`insert into collections (id, organization_id, title, default_level, position, created_at)
    select 'benchbigcoll' || lpad(n::text, 8, '0'), '${BIG_ORG}', 'Big collection ' || n, 'inherit', n, ${at} from generate_series(0, 99) n`);
  await sql.unsafe(`insert into spaces (id, organization_id, parent_id, title, visibility, revision_id, position, created_at, updated_at)
    select 'benchbigspace' || lpad(n::text, 7, '0'), '${BIG_ORG}', 'benchbigcoll' || lpad((n % 100)::text, 8, '0'),
      'Big space ' || n, 'in-collection', 'benchbigrev' || lpad(n::text, 9, '0'), n / 100, ${at}, ${at}
    from generate_series(0, ${BIG_SPACES - 1}) n`);
}
