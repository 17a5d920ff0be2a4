import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scenario } from '../../support/scenario';
import { contentHelpers } from '../../support/content';
import { mutations } from '../../support/graphql';
import type { TestApp } from '../../support/clients';
import type { Actor, OrgFixture } from '../../support/factories';
import { gid } from '../../support/doors';

/**
 * Pages written through GraphQL and read through both doors. Every /v1 answer is checked against
 * the official spec by the test client.
 */
let t: TestApp;
let acme: OrgFixture;
let other: OrgFixture;
let people: Record<'editor' | 'reader', Actor>;

beforeAll(async () => {
  ({ t, acme, other, people } = await scenario({ editor: ['edit', 'Erin Editor'], reader: ['read', 'Rita Reader'] }));
});
afterAll(() => t?.close());

const { newSpace } = contentHelpers(() => t, () => acme);
const { succeed, userError, refused, mutate } = mutations(() => t, { token: () => acme.admin.token });

const PAGE = 'page { id restId title slug path type markdown pages { restId } parent { restId } } revision { restId type parents }';

const spaceNode = async (spaceId: string) => gid('Space', spaceId);

async function currentRevision(spaceId: string, token = acme.admin.token): Promise<string> {
  const res = await t.rest('GET', `/v1/spaces/${spaceId}/content`, { token });
  expect(res.status).toBe(200);
  return res.body.id;
}

describe('pages through GraphQL, read through REST', () => {
  let space: Record<string, any>;
  let sid: string;
  beforeAll(async () => {
    space = await newSpace({ title: 'Handbook' });
    sid = await spaceNode(space.id);
  });

  it('creates pages with slugs from titles, unique among siblings, and paths from nesting', async () => {
    const before = await currentRevision(space.id);
    const intro = await succeed('pageCreate', { spaceId: sid, title: 'Getting Started!', markdown: '# Hello\n\nWelcome.' }, PAGE);
    expect(intro.page).toMatchObject({ title: 'Getting Started!', slug: 'getting-started', path: 'getting-started', type: 'DOCUMENT', markdown: '# Hello\n\nWelcome.' });
    expect(intro.revision).toMatchObject({ type: 'edits', parents: [before] });

    const twin = await succeed('pageCreate', { spaceId: sid, title: 'Getting started' }, PAGE);
    expect(twin.page.slug).toBe('getting-started-2');

    const child = await succeed('pageCreate', { spaceId: sid, parentId: intro.page.id, title: 'Install on Linux' }, PAGE);
    expect(child.page).toMatchObject({ path: 'getting-started/install-on-linux', parent: { restId: intro.page.restId } });

    const res = await t.rest('GET', `/v1/spaces/${space.id}/content/path/getting-started/install-on-linux`, { token: people.reader.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: child.page.restId, kind: 'sheet', type: 'document', path: 'getting-started/install-on-linux' });

    const list = await t.rest('GET', `/v1/spaces/${space.id}/content/pages`, { token: people.reader.token });
    expect(list.body.pages.map((p: any) => [p.slug, p.pages.map((c: any) => c.slug)])).toEqual([
      ['getting-started', ['install-on-linux']],
      ['getting-started-2', []],
    ]);
    const content = await t.rest('GET', `/v1/spaces/${space.id}/content`, { token: people.reader.token });
    expect(content.body).toMatchObject({ object: 'revision', id: child.revision.restId, type: 'edits', parents: [twin.revision.restId] });
  });

  it('answers a page by id as markdown or as the JSON document, built by a markdown parser', async () => {
    const markdown = [
      '# Setup',
      '',
      'Run **this** and read [the intro](./getting-started).',
      '',
      '| Key | Value |',
      '| --- | ----- |',
      '| a   | 1     |',
      '',
      '```ts',
      'const x = 1;',
      '```',
      '',
      '- one',
      '- two',
    ].join('\n');
    const { page } = await succeed('pageCreate', { spaceId: sid, title: 'Setup', markdown }, PAGE);
    const asMarkdown = await t.rest('GET', `/v1/spaces/${space.id}/content/page/${page.restId}?format=markdown`, { token: people.reader.token });
    expect(asMarkdown.body.markdown).toBe(markdown);
    expect(asMarkdown.body.document).toBeUndefined();

    const asDocument = await t.rest('GET', `/v1/spaces/${space.id}/content/page/${page.restId}`, { token: people.reader.token });
    expect(asDocument.status).toBe(200);
    const nodes = asDocument.body.document.nodes.map((n: any) => n.type);
    expect(nodes).toEqual(['heading-1', 'paragraph', 'table', 'code', 'list-unordered']);
    const text = JSON.stringify(asDocument.body.document);
    expect(text).toContain('const x = 1;');
    expect(text).toContain('"bold"');
  });

  it('updates, moves and deletes pages, each a new revision', async () => {
    const a = await succeed('pageCreate', { spaceId: sid, title: 'Alpha' }, PAGE);
    const b = await succeed('pageCreate', { spaceId: sid, title: 'Beta' }, PAGE);
    const renamed = await succeed('pageUpdate', { pageId: b.page.id, title: 'Bravo', emoji: '🅱️', markdown: 'Bee' }, PAGE);
    expect(renamed.page).toMatchObject({ title: 'Bravo', slug: 'bravo', markdown: 'Bee' });
    expect(renamed.revision.parents).toEqual([b.revision.restId]);

    const moved = await succeed('pageMove', { pageId: renamed.page.id, parentId: a.page.id }, PAGE);
    expect(moved.page.path).toBe('alpha/bravo');
    const first = await succeed('pageMove', { pageId: a.page.id, position: { beforeId: (await succeed('pageCreate', { spaceId: sid, title: 'Omega' }, PAGE)).page.id } }, PAGE);
    expect(first.page.path).toBe('alpha');

    const deleted = await succeed('pageDelete', { pageId: first.page.id }, 'deletedPageId revision { restId pageCount }');
    expect(deleted.deletedPageId).toBe(first.page.id);
    const gone = await t.rest('GET', `/v1/spaces/${space.id}/content/page/${a.page.restId}`, { token: acme.admin.token });
    expect(gone.status).toBe(404);
    const goneChild = await t.rest('GET', `/v1/spaces/${space.id}/content/page/${b.page.restId}`, { token: acme.admin.token });
    expect(goneChild.status).toBe(404);
  });

  it('keeps every earlier revision readable as it was', async () => {
    const created = await succeed('pageCreate', { spaceId: sid, title: 'Versioned', markdown: 'v1' }, PAGE);
    await succeed('pageUpdate', { pageId: created.page.id, markdown: 'v2' }, PAGE);
    const old = await t.graphql(`query ($id: ID!) { node(id: $id) { ... on Page { markdown revision { restId } } } }`, { id: created.page.id }, acme.admin.token);
    expect(old.body.data.node).toEqual({ markdown: 'v1', revision: { restId: created.revision.restId } });
  });
});

describe('who may edit', () => {
  let space: Record<string, any>;
  let sid: string;
  beforeAll(async () => {
    space = await newSpace({ title: 'Guarded' });
    sid = await spaceNode(space.id);
  });

  it('lets an editor write and refuses a reader, without writing anything', async () => {
    await succeed('pageCreate', { spaceId: sid, title: 'By the editor' }, PAGE, people.editor.token);
    const before = await currentRevision(space.id);
    await refused('pageCreate', { spaceId: sid, title: 'By the reader' }, people.reader.token, 'FORBIDDEN');
    expect(await currentRevision(space.id)).toBe(before);
  });

  it('answers another organization exactly like a missing space', async () => {
    const foreign = await mutate('pageCreate', { spaceId: sid, title: 'Intruder' }, other.admin.token);
    const missing = await mutate('pageCreate', { spaceId: gid('Space', 'nope'), title: 'Nowhere' }, other.admin.token);
    expect(foreign.errors[0].extensions.code).toBe('NOT_FOUND');
    expect(foreign.errors[0].message).toBe(missing.errors[0].message);
    const rest = await t.rest('GET', `/v1/spaces/${space.id}/content`, { token: other.admin.token });
    const restMissing = await t.rest('GET', `/v1/spaces/nope/content`, { token: other.admin.token });
    expect(rest.status).toBe(404);
    expect(rest.body).toEqual(restMissing.body);
  });

  it('refuses everyone on a locked space', async () => {
    const locked = await newSpace({ title: 'Frozen' });
    const lockedId = await spaceNode(locked.id);
    const res = await t.rest('PATCH', `/v1/spaces/${locked.id}`, { token: acme.admin.token, body: { editMode: 'locked' } });
    expect(res.status).toBe(200);
    const before = await currentRevision(locked.id);
    const refusal = await refused('pageCreate', { spaceId: lockedId, title: 'Nope' }, acme.admin.token, 'FORBIDDEN');
    expect(refusal.errors[0].message).toMatch(/locked/);
    expect(await currentRevision(locked.id)).toBe(before);
  });
});

describe('bad input writes nothing', () => {
  let space: Record<string, any>;
  let sid: string;
  let pageId: string;
  beforeAll(async () => {
    space = await newSpace({ title: 'Strict' });
    sid = await spaceNode(space.id);
    pageId = (await succeed('pageCreate', { spaceId: sid, title: 'Link target' }, PAGE)).page.id;
  });

  it.each([
    ['an empty title', { title: '  ' }, ['title']],
    ['a group inside a page', { title: 'G', type: 'GROUP', parentId: 'PARENT' }, ['parentId']],
    ['a link without href', { title: 'L', type: 'LINK' }, ['href']],
    ['markdown on a group', { title: 'G', type: 'GROUP', markdown: 'x' }, ['markdown']],
  ])('refuses %s', async (_, input, field) => {
    const before = await currentRevision(space.id);
    const resolved = Object.fromEntries(Object.entries(input).map(([k, v]) => [k, v === 'PARENT' ? pageId : v]));
    await userError('pageCreate', { spaceId: sid, ...resolved }, 'VALIDATION_FAILED', field);
    expect(await currentRevision(space.id)).toBe(before);
  });

  it('answers an unknown page id with 404 through both doors', async () => {
    const rest = await t.rest('GET', `/v1/spaces/${space.id}/content/page/nope`, { token: acme.admin.token });
    expect(rest.status).toBe(404);
    expect(rest.body.error).toEqual({ code: 404, message: expect.stringMatching(/page/i) });
    const missing = gid('Page', 'nope/nope');
    const before = await currentRevision(space.id);
    const res = await mutate('pageUpdate', { pageId: missing, title: 'Ghost' });
    expect(res.errors?.[0]?.extensions?.code ?? res.payload?.userErrors?.[0]?.code).toMatch(/NOT_FOUND|VALIDATION/);
    expect(await currentRevision(space.id)).toBe(before);
  });

  it('refuses an unknown page type as a bad variable', async () => {
    const before = await currentRevision(space.id);
    const res = await mutate('pageCreate', { spaceId: sid, title: 'T', type: 'SHEET' });
    expect(res.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(await currentRevision(space.id)).toBe(before);
  });

  it('refuses a bad format with 400', async () => {
    const res = await t.rest('GET', `/v1/spaces/${space.id}/content/page/${pageId}?format=html`, { token: acme.admin.token });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/format/);
  });
});
