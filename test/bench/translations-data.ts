/**
 * The bench's translations, beside the base set (test/bench/data.ts): 200 translations of the
 * change-request space of each of the 100 organizations, with stats and a result, as runs leave
 * them. Reused while its marker matches.
 */
import postgres from 'postgres';
import { changeRequestSpace, orgIds } from './data';

export const TRANSLATIONS_VERSION = 'v1: 200 translations per organization';
export const TRANSLATIONS_PER_ORG = 200;
const LANGUAGES = ['fr', 'de', 'es', 'it', 'ja', 'ko', 'nl', 'pl'];

export async function ensureBenchTranslations(url: string): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql`create table if not exists bench_translations_meta (version text not null)`;
    const [marker] = await sql`select version from bench_translations_meta`;
    if (marker?.version === TRANSLATIONS_VERSION) return;
    await sql.begin(async (tx) => {
      const t = tx as unknown as postgres.Sql;
      await t`delete from translations where id like 'benchtr%'`;
      for (const [o, org] of orgIds.entries()) {
        const space = changeRequestSpace(org);
        const rows = Array.from({ length: TRANSLATIONS_PER_ORG }, (_, i) => ({
          id: `benchtr${String(o * TRANSLATIONS_PER_ORG + i).padStart(13, '0')}`,
          organization_id: org,
          source_space_id: space,
          source_language: 'en',
          language: LANGUAGES[i % LANGUAGES.length]!,
          instructions: sql.json({ object: 'document', data: {}, nodes: [] }),
          status: i % 3 === 0 ? 'pending' : 'completed',
          runs: i % 7,
          total_words: i * 120,
          total_pages: 40,
          created_at: new Date(Date.UTC(2024, 0, 1) + i * 60_000),
          updated_at: new Date(Date.UTC(2024, 0, 1) + i * 60_000),
        }));
        await t`insert into translations ${t(rows)}`;
      }
      await t`delete from bench_translations_meta`;
      await t`insert into bench_translations_meta values (${TRANSLATIONS_VERSION})`;
    });
    await sql`analyze translations`;
  } finally {
    await sql.end();
  }
}
