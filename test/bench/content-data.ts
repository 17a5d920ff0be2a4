/**
 * The bench's content, written beside the base set (test/bench/data.ts) with Quire's own object
 * codec: the 100 spaces of the first organization get 100 pages each (10,000 pages), and the first
 * space of the second organization gets 1,000. Pages have two headings and words drawn from a
 * vocabulary of 1,732, so a search for two words finds some pages and not others. Reused while its marker matches.
 */
import postgres from 'postgres';
import { ObjectBatch } from '../../src/modules/content/objects';
import { writePages, type TreePage } from '../../src/modules/content/tree';
import { orgId } from './data';

export const CONTENT_VERSION = 'v2: 100 spaces x 100 pages, 1 space x 1000 pages, 1,732 words';
export const spaceOf = (org: number, n: number) => `benchspace${String(org * 100 + n).padStart(10, '0')}`;
/** Revisions never change: each version of the content has its own ids, and the spaces are pointed at them. */
export const revisionOf = (org: number, n: number) => `benchcv2${String(org * 100 + n).padStart(12, '0')}`;
/** The 100 spaces searched together, and the big one. */
export const SEARCH_ORG = orgId(0);
export const SEARCH_SPACES = Array.from({ length: 100 }, (_, n) => spaceOf(0, n));
export const BIG_SPACE = spaceOf(1, 0);

/** 1,728 made-up words and four real ones: a page holds a word with a chance of about 7%. */
const SYLLABLES = ['ka', 'ro', 'mi', 'te', 'lu', 'sa', 've', 'no', 'pi', 'da', 'gu', 'fe'];
const WORDS = ['kettle', 'harbor', 'lantern', 'meadow', ...SYLLABLES.flatMap((a) => SYLLABLES.flatMap((b) => SYLLABLES.map((c) => a + b + c)))];

/** A fixed pseudo-random sequence, so that every load writes the same content. */
function random(seed: number): () => number {
  let x = seed * 2654435761 + 1;
  return () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x / 2147483648;
  };
}

function pages(count: number, seed: number): TreePage[] {
  const at = '2024-01-01T00:00:00.000Z';
  const next = random(seed + 1);
  const word = () => WORDS[Math.floor(next() * WORDS.length)];
  const text = (n: number) => Array.from({ length: n }, word).join(' ');
  return Array.from({ length: count }, (_, i) => {
    const markdown = `${text(40)}.\n\n## About the ${word()}\n\n${text(40)}.\n\n## The ${word()} in detail\n\n${text(40)}.\n`;
    return { data: { id: `bp${seed}x${i}`, type: 'document', title: `Page ${i}: ${word()} and ${word()}`, slug: `page-${i}`, createdAt: at, updatedAt: at, markdown } as never, children: [] };
  });
}

async function write(sql: postgres.Sql, revisionId: string, spaceId: string, list: TreePage[]): Promise<void> {
  const batch = new ObjectBatch();
  const withBodies = list.map((p) => {
    const { markdown, ...data } = p.data as unknown as { markdown: string } & TreePage['data'];
    return { data: { ...data, body: batch.put('body', { markdown }) }, children: [] };
  });
  const root = writePages(batch, withBodies);
  const objects = [...(batch as unknown as { objects: Map<string, { kind: string; json: string }> }).objects];
  for (let i = 0; i < objects.length; i += 500) {
    const rows = objects.slice(i, i + 500).map(([hash, o]) => ({ hash, kind: o.kind, data: JSON.parse(o.json), size: Buffer.byteLength(o.json) }));
    await sql`insert into content_objects ${sql(rows, 'hash', 'kind', 'data', 'size')} on conflict do nothing`;
  }
  await sql`insert into revisions (id, space_id, type, pages) values (${revisionId}, ${spaceId}, 'edits', ${root}) on conflict (id) do nothing`;
  await sql`update spaces set revision_id = ${revisionId} where id = ${spaceId}`;
}

export async function ensureBenchContent(url: string): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql`create table if not exists bench_content_meta (version text not null)`;
    const [marker] = await sql`select version from bench_content_meta`;
    if (marker?.version === CONTENT_VERSION) return;
    const started = Date.now();
    await sql.begin(async (tx) => {
      const t = tx as unknown as postgres.Sql;
      for (let n = 0; n < 100; n++) await write(t, revisionOf(0, n), spaceOf(0, n), pages(100, n));
      await write(t, revisionOf(1, 0), spaceOf(1, 0), pages(1000, 1000));
      // Same revision ids, new content: the search index must be rebuilt from scratch.
      await t`delete from search_spaces`;
      await t`delete from search_sections`;
      await t`delete from bench_content_meta`;
      await t`insert into bench_content_meta values (${CONTENT_VERSION})`;
    });
    await sql`vacuum analyze content_objects`;
    console.log(`bench content loaded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await sql.end();
  }
}
