import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../../src/auth/context';
import { authenticate } from '../../../src/auth/authenticate';
import { addContent } from '../../../src/modules/content/service';
import type { NewPage } from '../../../src/domain/content';
import { scenario } from '../../support/scenario';
import { contentHelpers } from '../../support/content';
import { mutations } from '../../support/graphql';
import { gid } from '../../support/doors';
import type { TestApp } from '../../support/clients';
import type { OrgFixture } from '../../support/factories';

/** What revisions cost, and that they never change or lose an edit. */
let t: TestApp;
let acme: OrgFixture;

beforeAll(async () => {
  ({ t, acme } = await scenario({}));
});
afterAll(() => t?.close());

const { newSpace } = contentHelpers(() => t, () => acme);
const { succeed } = mutations(() => t, { token: () => acme.admin.token });

async function adminContext() {
  return createContext({ db: t.db, config: { port: 0, publicUrl: 'http://quire.test', appUrl: 'http://quire.test', dataDir: '' } }, await authenticate(t.db, `Bearer ${acme.admin.token}`));
}

async function storage(): Promise<{ objects: number; bytes: number; revisions: number }> {
  const { rows } = await t.database.executeSql(
    `SELECT (SELECT count(*)::int FROM content_objects) AS objects,
            (SELECT coalesce(sum(size), 0)::int FROM content_objects) + (SELECT coalesce(sum(pg_column_size(r.*)), 0)::int FROM revisions r) AS bytes,
            (SELECT count(*)::int FROM revisions) AS revisions`,
  );
  return rows[0] as { objects: number; bytes: number; revisions: number };
}

/** 1,000 pages: 20 chapters of 49 sections, each with a paragraph of its own. */
function bigTree(): NewPage[] {
  return Array.from({ length: 20 }, (_, c) => ({
    title: `Chapter ${c + 1}`,
    markdown: `# Chapter ${c + 1}\n\nAn overview of chapter ${c + 1}.`,
    children: Array.from({ length: 49 }, (_, s) => ({
      title: `Section ${c + 1}.${s + 1}`,
      markdown: `## Section ${c + 1}.${s + 1}\n\n${'Words of this section. '.repeat(20)}${c * 49 + s}`,
    })),
  }));
}

describe('structural sharing', () => {
  it('stores about one page when one page of a 1,000-page space is edited', async () => {
    const space = await newSpace({ title: 'Big' });
    const ctx = await adminContext();
    const added = await addContent(ctx, space.id, { pages: bigTree() });
    expect(added.tree.byId.size).toBe(1000);

    const before = await storage();
    const pageId = added.tree.byPath.get('chapter-7/section-7-30')!.page.data.id;
    const edited = await succeed('pageUpdate', { pageId: gid('Page', `${added.tree.revision.id}/${pageId}`), markdown: 'A new body for one section.' }, 'page { markdown }');
    expect(edited.page.markdown).toBe('A new body for one section.');
    const after = await storage();

    const grown = after.bytes - before.bytes;
    const perPage = before.bytes / 1000;
    // One page node, its body, its parent's node, a chunk or a few of each list on the way (chunk
    // boundaries depend on the random page ids: 11 objects were seen once), and the revision row: a
    // few pages' worth, where a copy of the tree would be a thousand.
    expect(after.revisions - before.revisions).toBe(1);
    expect(after.objects - before.objects).toBeLessThanOrEqual(14);
    expect(grown).toBeLessThan(12 * perPage);
    console.log(`sharing: 1,000 pages take ${before.bytes} bytes (${Math.round(perPage)} per page); one edit added ${after.objects - before.objects} objects, ${grown} bytes`);

    const whole = await t.rest('GET', `/v1/spaces/${space.id}/content/pages`, { token: acme.admin.token });
    expect(whole.body.pages).toHaveLength(20);
    expect(whole.body.pages[6].pages[29].markdown).toBe('A new body for one section.');
    expect(whole.body.pages[6].pages[28].markdown).toContain('Section 7.29');
  });
});

describe('immutability', () => {
  it('refuses any UPDATE of a written revision, in the database itself', async () => {
    const space = await newSpace({ title: 'Fixed' });
    const content = await t.rest('GET', `/v1/spaces/${space.id}/content`, { token: acme.admin.token });
    await expect(t.database.executeSql(`UPDATE revisions SET type = 'merge' WHERE id = $1`, [content.body.id])).rejects.toThrow(/immutable/i);
    const again = await t.rest('GET', `/v1/spaces/${space.id}/content`, { token: acme.admin.token });
    expect(again.body.type).toBe(content.body.type);
  });
});

describe('concurrent edits', () => {
  it('keeps every edit of writers racing on one space', async () => {
    const space = await newSpace({ title: 'Busy' });
    const writers = 12;
    const results = await Promise.all(
      Array.from({ length: writers }, (_, i) => succeed('pageCreate', { spaceId: gid('Space', space.id), title: `Page ${i}` }, 'page { restId } revision { restId parents }')),
    );
    const pages = await t.rest('GET', `/v1/spaces/${space.id}/content/pages`, { token: acme.admin.token });
    expect(pages.body.pages.map((p: any) => p.title).sort()).toEqual(Array.from({ length: writers }, (_, i) => `Page ${i}`).sort());
    // Each edit made its own revision on top of the one before: a chain, no fork.
    const revisions = results.map((r) => r.revision);
    const parents = new Set(revisions.map((r: any) => r.parents[0]));
    expect(parents.size).toBe(writers);
  });
});
