import { param, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { rowsOf } from '../../db/rows';
import type { RevisionRow } from '../../db/schema/revisions';
import { loadObjects } from './objects';
import { searchConfig, sectionsOf } from './search-sections';
import { loadRevisionTree, type RevisionTree } from './tree';

/**
 * The search index of spaces: the sections of the pages of each space's current revision
 * (search_sections), and the revision and language it was built from (search_spaces). Pages are
 * content-addressed, so moving a revision re-indexes only the pages whose title, path or body hash
 * changed; the rest of the index stays as it is.
 */

/** What a page's index rows were built from: equal fingerprints, same rows. */
interface Fingerprint {
  title: string;
  path: string;
  body: string | null;
}

const same = (a: Fingerprint | undefined, b: Fingerprint) => a !== undefined && a.title === b.title && a.path === b.path && a.body === b.body;

type ReadRevision = (id: string) => Promise<RevisionRow | null>;

function fingerprints(tree: RevisionTree): Map<string, Fingerprint> {
  const out = new Map<string, Fingerprint>();
  for (const [id, entry] of tree.byId) {
    // Link pages have no text and no address of their own.
    if (entry.page.data.type === 'link') continue;
    out.set(id, { title: entry.page.data.title, path: entry.path, body: entry.page.data.body ?? null });
  }
  return out;
}

/** Brings the rows of a space from `before` to what `tree` holds: deletes what went or changed, writes what came or changed. */
async function applyDiff(tx: Tx | Db, spaceId: string, config: string, before: Map<string, Fingerprint>, tree: RevisionTree, rebuildAll = false): Promise<void> {
  const after = fingerprints(tree);
  const stale = [...before.keys()].filter((id) => rebuildAll || !same(after.get(id), before.get(id)!));
  const fresh = [...after].filter(([id, f]) => rebuildAll || !same(before.get(id), f));
  if (stale.length) await tx.execute(sql`delete from search_sections where space_id = ${spaceId} and page_id = any(${param(stale)}::text[])`);
  if (!fresh.length) return;
  const hashes = fresh.map(([, f]) => f.body).filter((h): h is string => h !== null);
  const bodies = hashes.length ? await loadObjects(tx, hashes) : new Map();
  const cols = { page: [] as string[], section: [] as number[], title: [] as string[], path: [] as string[], hash: [] as (string | null)[], heading: [] as string[], anchor: [] as string[], body: [] as string[] };
  for (const [id, f] of fresh) {
    const markdown = f.body ? (bodies.get(f.body)!.data as { markdown: string }).markdown : '';
    sectionsOf(markdown).forEach((s, i) => {
      cols.page.push(id);
      cols.section.push(i);
      cols.title.push(f.title);
      cols.path.push(f.path);
      cols.hash.push(f.body);
      cols.heading.push(s.heading);
      cols.anchor.push(s.anchor);
      cols.body.push(s.body);
    });
  }
  for (let i = 0; i < cols.page.length; i += 2000) {
    const slice = <T>(list: T[]) => param(list.slice(i, i + 2000));
    await tx.execute(sql`insert into search_sections (space_id, page_id, section, config, page_title, page_path, body_hash, heading, anchor, body)
      select ${spaceId}, x.page, x.section, ${config}::regconfig, x.title, x.path, x.hash, x.heading, x.anchor, x.body
      from unnest(${slice(cols.page)}::text[], ${slice(cols.section)}::int[], ${slice(cols.title)}::text[], ${slice(cols.path)}::text[],
        ${slice(cols.hash)}::text[], ${slice(cols.heading)}::text[], ${slice(cols.anchor)}::text[], ${slice(cols.body)}::text[])
        as x(page, section, title, path, hash, heading, anchor, body)
      on conflict (space_id, page_id, section) do update set config = excluded.config, page_title = excluded.page_title,
        page_path = excluded.page_path, body_hash = excluded.body_hash, heading = excluded.heading, anchor = excluded.anchor, body = excluded.body`);
  }
}

/**
 * Rebuilds the index of one space against what it holds now, whatever it was built from: the
 * first search of a space, a space whose language changed, or a move the cheap path missed.
 */
async function reconcile(tx: Tx | Db, spaceId: string, revision: RevisionRow, language: string | null): Promise<void> {
  const config = searchConfig(language);
  const [state] = rowsOf(await tx.execute(sql`select language from search_spaces where space_id = ${spaceId} for update`));
  const rows = rowsOf(await tx.execute(sql`select page_id, page_title, page_path, body_hash from search_sections where space_id = ${spaceId} and section = 0`));
  const before = new Map(rows.map((r) => [r.page_id as string, { title: r.page_title as string, path: r.page_path as string, body: (r.body_hash as string | null) ?? null }]));
  const languageChanged = state !== undefined && searchConfig((state.language as string | null) ?? null) !== config;
  await applyDiff(tx, spaceId, config, before, await loadRevisionTree(tx, revision), languageChanged || state === undefined);
  await tx.execute(sql`insert into search_spaces (space_id, revision_id, language) values (${spaceId}, ${revision.id}, ${language})
    on conflict (space_id) do update set revision_id = excluded.revision_id, language = excluded.language`);
}

/**
 * Keeps the index in step when a space's revision moves from `from` to `to`, in the transaction
 * that moves it. When the index was built from `from`, only the pages that differ between the
 * two trees are rewritten (both trees are usually cached: no statement to read them).
 */
export async function indexRevisionMove(tx: Tx, spaceId: string, from: string, to: string, readRevision: ReadRevision): Promise<void> {
  const moved = rowsOf(
    await tx.execute(sql`update search_spaces ss set revision_id = ${to} from spaces s
      where ss.space_id = ${spaceId} and s.id = ss.space_id and ss.revision_id = ${from} and ss.language is not distinct from s.language
      returning s.language`),
  );
  const target = await readRevision(to);
  if (!target) throw new Error(`revision ${to} is missing`);
  if (moved.length === 0) {
    const [space] = rowsOf(await tx.execute(sql`select language from spaces where id = ${spaceId}`));
    if (space) await reconcile(tx, spaceId, target, (space.language as string | null) ?? null);
    return;
  }
  const base = await readRevision(from);
  if (!base) throw new Error(`revision ${from} is missing`);
  const language = (moved[0].language as string | null) ?? null;
  await applyDiff(tx, spaceId, searchConfig(language), fingerprints(await loadRevisionTree(tx, base)), await loadRevisionTree(tx, target));
}

/**
 * Indexes the spaces matching `scope` (a condition on `spaces`) whose index is missing or was
 * built from another revision or language: one statement when all are up to date. Answers the
 * languages of those spaces, so a search asks only the text search configurations in use.
 */
export async function refreshIndex(db: Db, scope: SQL, readRevision: ReadRevision): Promise<(string | null)[]> {
  const [found] = rowsOf(
    await db.execute(sql`select coalesce(array_agg(distinct spaces.language), '{}') as languages,
        coalesce(json_agg(json_build_object('id', spaces.id, 'revision', spaces.revision_id, 'language', spaces.language))
          filter (where ss.space_id is null or ss.revision_id <> spaces.revision_id or ss.language is distinct from spaces.language), '[]') as stale
      from spaces left join search_spaces ss on ss.space_id = spaces.id
      where ${scope}`),
  );
  const stale = (typeof found.stale === 'string' ? JSON.parse(found.stale) : found.stale) as { id: string; revision: string; language: string | null }[];
  for (const row of stale) {
    const revision = await readRevision(row.revision);
    if (!revision) continue;
    await db.transaction((tx) => reconcile(tx, row.id, revision, row.language));
  }
  return found.languages as (string | null)[];
}
