import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../support/clients';
import type { Actor, OrgFixture } from '../../support/factories';
import { scenario } from '../../support/scenario';
import { contentBench, type ContentBench } from '../../support/change-requests';
import { gid } from '../../support/doors';

/** Full-text search over the current content of spaces, one space at a time or a whole organization. */
let t: TestApp;
let acme: OrgFixture;
let other: OrgFixture;
let people: Record<'reader' | 'guest', Actor>;
let b: ContentBench;

beforeAll(async () => {
  ({ t, acme, other, people } = await scenario({ reader: ['read', 'Rita Reader'], guest: [null, 'Gus Guest'] }));
  b = await contentBench(() => t, () => acme, [
    { title: 'Kettle', markdown: 'How to boil water.\n\n# Descaling\n\nVinegar removes limescale from the kettle.' },
    { title: 'Teapots', markdown: 'Warm the pot first.\n\n## Brewing\n\nSteep the leaves in boiling water.\n\n## Serving\n\nA kettle is not a teapot, and a teapot is not a kettle.' },
    { title: 'Garden', markdown: 'Nothing about tea here.\n\n```\n# not a heading: kettle in code\n```' },
  ]);
});
afterAll(() => t?.close());

const search = (query: string, token = acme.admin.token, extra = '') => t.rest('GET', `/v1/spaces/${b.spaceId}/search?query=${encodeURIComponent(query)}${extra}`, { token });
const titles = (body: any) => body.items.map((p: any) => p.title);

describe('space search', () => {
  it('answers 401 without credentials', async () => {
    const res = await t.rest('GET', `/v1/spaces/${b.spaceId}/search?query=kettle`);
    expect(res.status).toBe(401);
  });

  it('ranks a title hit above a body hit', async () => {
    const res = await search('kettle', people.reader.token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(titles(res.body)).toEqual(['Kettle', 'Teapots', 'Garden']);
  });

  it('cuts pages at their headings and highlights the words found in each section', async () => {
    const res = await search('limescale');
    expect(res.body.items).toHaveLength(1);
    const [page] = res.body.items;
    expect(page).toMatchObject({ id: (await b.pagesByTitle()).Kettle.id, title: 'Kettle', path: 'kettle' });
    expect(page.urls.app).toMatch(/\/s\/.+\/kettle$/);
    expect(page.sections).toEqual([
      { id: 'descaling', title: 'Descaling', path: 'kettle#descaling', body: expect.stringMatching(/^Vinegar removes <mark>limescale<\/mark> from the kettle\.?$/), urls: { app: `${page.urls.app}#descaling` } },
    ]);
  });

  it('shows the sections that matched by their own text, best first', async () => {
    const res = await search('boiling water');
    const teapots = res.body.items.find((p: any) => p.title === 'Teapots');
    expect(teapots.sections.map((s: any) => s.title)).toEqual(['Brewing']);
    expect(teapots.sections[0].body).toContain('<mark>boiling</mark> <mark>water</mark>');
  });

  it('answers 400 for an empty or missing query, 404 for another organization', async () => {
    expect((await search('   ')).status).toBe(400);
    expect((await t.rest('GET', `/v1/spaces/${b.spaceId}/search`, { token: acme.admin.token })).body).toEqual({ error: { code: 400, message: expect.stringContaining('query') } });
    const foreign = await search('kettle', other.admin.token);
    const missing = await t.rest('GET', `/v1/spaces/nope/search?query=kettle`, { token: other.admin.token });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(missing.body);
  });

  it('pages through results with limit and page', async () => {
    const first = await search('kettle', acme.admin.token, '&limit=2');
    expect(titles(first.body)).toEqual(['Kettle', 'Teapots']);
    expect(first.body.next.page).toEqual(expect.any(String));
    const second = await search('kettle', acme.admin.token, `&limit=2&page=${first.body.next.page}`);
    expect(titles(second.body)).toEqual(['Garden']);
    expect(second.body.next).toBeUndefined();
  });

  it('follows edits: a changed page is found by its new words, no longer by its old ones', async () => {
    await b.space.update('Garden', { markdown: 'Roses and tulips.' });
    expect(titles((await search('kettle')).body)).toEqual(['Kettle', 'Teapots']);
    expect(titles((await search('tulips')).body)).toEqual(['Garden']);
    await b.space.update('Garden', { title: 'Flowerbeds' });
    expect(titles((await search('flowerbeds')).body)).toEqual(['Flowerbeds']);
    await b.space.remove('Flowerbeds');
    expect((await search('tulips')).body.items).toEqual([]);
  });

  it('follows a merged change request', async () => {
    const cr = await b.openChangeRequest('Add a page');
    await b.editor(cr).create('Infusions', { markdown: 'Chamomile and mint.' });
    expect((await search('chamomile')).body.items).toEqual([]);
    const merged = await t.rest('POST', `/v1/spaces/${b.spaceId}/change-requests/${cr.id}/merge`, { token: acme.admin.token });
    expect(merged.status, JSON.stringify(merged.body)).toBeLessThan(300);
    expect(titles((await search('chamomile')).body)).toEqual(['Infusions']);
  });
});

describe('organization search', () => {
  let tea: ContentBench;
  let vault: ContentBench;
  const orgSearch = (query: string, token: string, extra = '') => t.rest('GET', `/v1/orgs/${acme.organizationId}/search?query=${encodeURIComponent(query)}${extra}`, { token });
  const spacesFound = (body: any) => body.items.map((s: any) => [s.title, s.pages.map((p: any) => p.title)]);

  beforeAll(async () => {
    tea = await contentBench(() => t, () => acme, [{ title: 'Oolong', markdown: 'Rolled leaves; rinse them with hot water from the kettle.' }, { title: 'Sencha', markdown: 'Green, steamed.' }]);
    vault = await contentBench(() => t, () => acme, [{ title: 'Vault notes', markdown: 'The kettle recipe nobody may read: a kettle, then another kettle.' }]);
    await t.rest('PATCH', `/v1/spaces/${tea.spaceId}`, { token: acme.admin.token, body: { title: 'Tea room' } });
    await t.rest('PATCH', `/v1/spaces/${vault.spaceId}`, { token: acme.admin.token, body: { title: 'Vault', defaultLevel: null } });
    await t.rest('PATCH', `/v1/spaces/${b.spaceId}`, { token: acme.admin.token, body: { title: 'Kitchen' } });
  });

  it('answers 401 without credentials and 400 for an empty query', async () => {
    expect((await t.rest('GET', `/v1/orgs/${acme.organizationId}/search?query=kettle`)).status).toBe(401);
    expect((await orgSearch('', people.reader.token)).body).toEqual({ error: { code: 400, message: expect.stringContaining('query') } });
  });

  it('groups pages by space, best space first; the admin also finds the restricted space', async () => {
    const res = await orgSearch('kettle', acme.admin.token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(spacesFound(res.body)).toEqual([
      ['Kitchen', ['Kettle', 'Teapots']],
      ['Vault', ['Vault notes']],
      ['Tea room', ['Oolong']],
    ]);
    expect(res.body.items[2].pages[0].sections[0].body).toContain('<mark>kettle</mark>');
  });

  it('never shows a reader a hit from a space they cannot see', async () => {
    expect(spacesFound((await orgSearch('kettle', people.reader.token)).body)).toEqual([
      ['Kitchen', ['Kettle', 'Teapots']],
      ['Tea room', ['Oolong']],
    ]);
    expect((await orgSearch('recipe', people.reader.token)).body).toEqual({ items: [], count: 0 });
  });

  it('shows a guest only the spaces shared with them, and another organization nothing at all', async () => {
    const guest = await orgSearch('kettle', people.guest.token);
    if (guest.status === 200) expect(guest.body.items).toEqual([]);
    else expect(guest.status).toBe(404);
    const foreign = await orgSearch('kettle', other.admin.token);
    const missing = await t.rest('GET', `/v1/orgs/nope/search?query=kettle`, { token: other.admin.token });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(missing.body);
    expect((await t.rest('GET', `/v1/spaces/${vault.spaceId}/search?query=kettle`, { token: people.reader.token })).status).toBe(404);
  });

  it('pages through spaces', async () => {
    const first = await orgSearch('kettle', acme.admin.token, '&limit=2');
    expect(spacesFound(first.body).map(([title]: string[]) => title)).toEqual(['Kitchen', 'Vault']);
    const second = await orgSearch('kettle', acme.admin.token, `&limit=2&page=${first.body.next.page}`);
    expect(spacesFound(second.body)).toEqual([['Tea room', ['Oolong']]]);
    expect(second.body.next).toBeUndefined();
  });

  it("stems words in the space's language, and in English without one", async () => {
    expect(spacesFound((await orgSearch('rinsing', acme.admin.token)).body)).toEqual([['Tea room', ['Oolong']]]);
    await t.rest('PATCH', `/v1/spaces/${tea.spaceId}`, { token: acme.admin.token, body: { language: 'en' } });
    expect(spacesFound((await orgSearch('rinsing', acme.admin.token)).body)).toEqual([['Tea room', ['Oolong']]]);
    await t.rest('PATCH', `/v1/spaces/${tea.spaceId}`, { token: acme.admin.token, body: { language: 'fr' } });
    expect((await orgSearch('rinsing', acme.admin.token)).body.items).toEqual([]);
    // The word being typed still matches the start of a written word, whatever the language.
    expect(spacesFound((await orgSearch('rins', acme.admin.token)).body)).toEqual([['Tea room', ['Oolong']]]);
  });

  it('leaves out a space in the trash', async () => {
    await t.rest('DELETE', `/v1/spaces/${vault.spaceId}`, { token: acme.admin.token });
    expect(spacesFound((await orgSearch('recipe', acme.admin.token)).body)).toEqual([]);
  });
});

describe('search over GraphQL', () => {
  const SPACE = `query ($id: ID!, $query: String!, $first: Int, $after: String) { node(id: $id) { ... on Space { search(query: $query, first: $first, after: $after) {
    edges { cursor node { title path url page { title } sections { title anchor snippet url } } } pageInfo { hasNextPage endCursor } } } } }`;
  const ORG = `query ($id: ID!, $query: String!) { node(id: $id) { ... on Organization { search(query: $query) { edges { node { space { title } pages { title } } } } } } }`;

  it('answers Space.search like the REST search, page by page', async () => {
    const first = await t.graphql(SPACE, { id: b.spaceGid, query: 'kettle', first: 1 }, acme.admin.token);
    expect(first.body.errors).toBeUndefined();
    const conn = first.body.data.node.search;
    expect(conn.edges.map((e: any) => e.node.title)).toEqual(['Kettle']);
    expect(conn.edges[0].node.page).toEqual({ title: 'Kettle' });
    expect(conn.pageInfo.hasNextPage).toBe(true);
    const rest = await t.rest('GET', `/v1/spaces/${b.spaceId}/search?query=kettle&limit=1`, { token: acme.admin.token });
    expect(conn.pageInfo.endCursor).toBe(rest.body.next.page);
    const next = await t.graphql(SPACE, { id: b.spaceGid, query: 'kettle', first: 5, after: conn.pageInfo.endCursor }, acme.admin.token);
    expect(next.body.data.node.search.edges.map((e: any) => e.node.title)).toEqual(['Teapots']);
  });

  it('refuses an empty query with a validation error', async () => {
    const res = await t.graphql(SPACE, { id: b.spaceGid, query: ' ' }, acme.admin.token);
    expect(res.body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
  });

  it('answers Organization.search grouped by space, with only what the reader may see', async () => {
    const res = await t.graphql(ORG, { id: gid('Organization', acme.organizationId), query: 'kettle' }, people.reader.token);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.node.search.edges.map((e: any) => [e.node.space.title, e.node.pages.map((p: any) => p.title)])).toEqual([
      ['Kitchen', ['Kettle', 'Teapots']],
      ['Tea room', ['Oolong']],
    ]);
  });
});

describe('word forms and prefixes', () => {
  let words: ContentBench;
  const SPACE = `query ($id: ID!, $query: String!) { node(id: $id) { ... on Space { search(query: $query) { edges { node { title sections { snippet } } } } } } }`;
  const ORG = `query ($id: ID!, $query: String!) { node(id: $id) { ... on Organization { search(query: $query) { edges { node { space { title } pages { title } } } } } } }`;
  const inSpace = (query: string) => t.rest('GET', `/v1/spaces/${words.spaceId}/search?query=${encodeURIComponent(query)}`, { token: people.reader.token });
  const graphqlTitles = async (query: string) => {
    const res = await t.graphql(SPACE, { id: words.spaceGid, query }, people.reader.token);
    expect(res.body.errors).toBeUndefined();
    return res.body.data.node.search.edges.map((e: any) => e.node.title);
  };

  beforeAll(async () => {
    // No language: stemmed as English. "Changes" says "revisions" three times, so only the exact-word boost puts "History" first.
    words = await contentBench(() => t, () => acme, [
      { title: 'Changes', markdown: 'Older revisions stay readable; revisions are kept, and revisions can be compared.' },
      { title: 'History', markdown: 'Every revision has an author.' },
      { title: 'Reviews', markdown: 'A review of the door.' },
    ]);
    await t.rest('PATCH', `/v1/spaces/${words.spaceId}`, { token: acme.admin.token, body: { title: 'Archive' } });
  });

  it('finds other forms of a word, the exact word first', async () => {
    expect(titles((await inSpace('revision')).body)).toEqual(['History', 'Changes']);
    expect(titles((await inSpace('revisions')).body)).toEqual(['Changes', 'History']);
    expect(await graphqlTitles('revision')).toEqual(['History', 'Changes']);
  });

  it('matches the word being typed as the start of a word, and marks it', async () => {
    for (const prefix of ['revis', 'revisio', 'REVISIO']) {
      const res = await inSpace(prefix);
      expect(res.status).toBe(200);
      expect(titles(res.body).sort(), prefix).toEqual(['Changes', 'History']);
    }
    const changes = (await inSpace('revisio')).body.items.find((p: any) => p.title === 'Changes');
    expect(changes.sections[0].body).toContain('<mark>revisions</mark>');
    expect((await graphqlTitles('older revis')).sort()).toEqual(['Changes']);
    expect(titles((await inSpace('revie')).body)).toEqual(['Reviews']);
    // Only the last word is a prefix: the others are whole words, in any of their forms.
    expect(titles((await inSpace('revis door')).body)).toEqual([]);
    expect(titles((await inSpace('review door')).body)).toEqual(['Reviews']);
  });

  it('finds prefixes across the organization, through both doors', async () => {
    const rest = await t.rest('GET', `/v1/orgs/${acme.organizationId}/search?query=revis`, { token: people.reader.token });
    expect(rest.body.items.map((s: any) => [s.title, s.pages.map((p: any) => p.title).sort()])).toEqual([['Archive', ['Changes', 'History']]]);
    const gql = await t.graphql(ORG, { id: gid('Organization', acme.organizationId), query: 'revis' }, people.reader.token);
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.node.search.edges.map((e: any) => e.node.space.title)).toEqual(['Archive']);
  });

  it('answers text-search syntax in the query as words, never with a server error', async () => {
    const nasty = ["'", '"', "revis'", 'revis\\', '&|!():*\\', 'a & b | !c', 'revis:*', '(revis', "'revis':*", '"unclosed revis', '-revis', 'revis -', "\\'", '::*', "''''", '!', '<->', 'revis<->older', 'or', 'revis or', '\u0000', 'x\u0000y', '🙂 revis', 'ünï revis', 'x'.repeat(512)];
    for (const query of nasty) {
      const rest = await inSpace(query);
      expect([200, 400], `${JSON.stringify(query)}: ${JSON.stringify(rest.body)}`).toContain(rest.status);
      const org = await t.rest('GET', `/v1/orgs/${acme.organizationId}/search?query=${encodeURIComponent(query)}`, { token: people.reader.token });
      expect([200, 400], JSON.stringify(query)).toContain(org.status);
      const gql = await t.graphql(SPACE, { id: words.spaceGid, query }, people.reader.token);
      for (const error of gql.body.errors ?? []) expect(['VALIDATION_FAILED', 'BAD_USER_INPUT'], `${JSON.stringify(query)}: ${error.message}`).toContain(error.extensions?.code);
    }
    const badBytes = await t.rest('GET', `/v1/spaces/${words.spaceId}/search?query=revis%FF%FE`, { token: people.reader.token });
    expect([200, 400]).toContain(badBytes.status);
    const surrogate = await t.graphql(SPACE, { id: words.spaceGid, query: 'revis\ud800' }, people.reader.token);
    for (const error of surrogate.body.errors ?? []) expect(['VALIDATION_FAILED', 'BAD_USER_INPUT']).toContain(error.extensions?.code);
    // Operators are read as websearch's: a negated word is left out, an OR finds either.
    expect(titles((await inSpace('review or older')).body).sort()).toEqual(['Changes', 'Reviews']);
    expect(titles((await inSpace('revision -older')).body)).toEqual(['History']);
  });
});
