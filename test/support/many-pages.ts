/**
 * Spaces of many pages (test/security/work-bounds.test.ts, `npm run bench:worst`): each space gets
 * its own revision of `count` top-level document pages, every body distinct (about 900 bytes of
 * markdown: three paragraphs of 40 words and two headings), written with Quire's own object codec
 * in a few large inserts. Works on PGlite and on PostgreSQL. `fillTree` builds one nested tree the same way.
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../../src/db/client';
import { ObjectBatch } from '../../src/modules/content/objects';
import { contentObjects } from '../../src/db/schema/content';
import { DEFAULT_LAYOUT, writePages, type TreePage } from '../../src/modules/content/tree';
import { revisions } from '../../src/db/schema/revisions';
import { spaces } from '../../src/db/schema/spaces';

const WORDS = ['kettle', 'harbor', 'lantern', 'meadow', 'quire', 'margin', 'folio', 'binding', 'spine', 'gutter', 'recto', 'verso'];

/** The markdown of page `i` of space `s`: the same length for every page, never the same text. */
export function pageMarkdown(s: number, i: number): string {
  let x = s * 100_003 + i * 7 + 1;
  const word = () => WORDS[(x = (x * 1103515245 + 12345) % 2147483648) % WORDS.length];
  const text = () => Array.from({ length: 40 }, word).join(' ');
  return `Space ${s}, page ${i}. ${text()}.\n\n## About the ${word()}\n\n${text()}.\n\n## The ${word()} in detail\n\n${text()}.\n`;
}

/** Gives each space a revision of `count` pages; answers the bytes of markdown written. */
export async function fillSpaces(db: Db, spaceIds: readonly string[], count: number): Promise<number> {
  let bytes = 0;
  for (const [s, spaceId] of spaceIds.entries()) {
    const batch = new ObjectBatch();
    const pages: TreePage[] = Array.from({ length: count }, (_, i) => documentPage(batch, `mp${s}x${i}`, `Page ${i}`, `page-${i}`, pageMarkdown(s, i)));
    for (let i = 0; i < count; i++) bytes += Buffer.byteLength(pageMarkdown(s, i));
    await storeRevision(db, spaceId, batch, pages);
  }
  return bytes;
}

/**
 * Gives a space a page tree as deep as `fanout` is long: `fanout[0]` top-level pages, each holding
 * `fanout[1]` pages, and so on. Answers how many pages it holds.
 */
export async function fillTree(db: Db, spaceId: string, fanout: readonly number[]): Promise<number> {
  const batch = new ObjectBatch();
  let made = 0;
  const level = (depth: number, prefix: string): TreePage[] => {
    if (depth === fanout.length) return [];
    return Array.from({ length: fanout[depth] }, (_, i) => {
      const name = `${prefix}${i + 1}`;
      const page = documentPage(batch, `tp${made++}x${spaceId.slice(0, 6)}`, `Page ${name}`, `page-${name}`, pageMarkdown(depth, made));
      return { ...page, children: level(depth + 1, `${name}-`) };
    });
  };
  await storeRevision(db, spaceId, batch, level(0, ''));
  return made;
}

const AT = '2024-01-01T00:00:00.000Z';

function documentPage(batch: ObjectBatch, id: string, title: string, slug: string, markdown: string): TreePage {
  return { data: { id, type: 'document', title, slug, layout: DEFAULT_LAYOUT, body: batch.put('body', { markdown }), createdAt: AT, updatedAt: AT }, children: [] };
}

async function storeRevision(db: Db, spaceId: string, batch: ObjectBatch, pages: TreePage[]): Promise<void> {
  const root = writePages(batch, pages);
  // Inserted directly, not through ObjectBatch.store, so the process's object cache stays cold.
  const objects = [...(batch as unknown as { objects: Map<string, { kind: 'body' | 'page' | 'list'; json: string; data: unknown }> }).objects];
  for (let i = 0; i < objects.length; i += 500) {
    const rows = objects.slice(i, i + 500).map(([hash, o]) => ({ hash, kind: o.kind, data: o.data, size: Buffer.byteLength(o.json) }));
    await db.insert(contentObjects).values(rows).onConflictDoNothing();
  }
  const revisionId = `mprev${spaceId}`;
  await db.insert(revisions).values({ id: revisionId, spaceId, type: 'edits', pages: root }).onConflictDoNothing();
  await db.update(spaces).set({ revisionId }).where(eq(spaces.id, spaceId));
}
