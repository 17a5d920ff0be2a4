/**
 * Markdown that a parser handles badly must not hold the server. With remark's parser a comment of
 * 5,000 `>` answered 500 after 4.4 s (the stack overflowed), nested emphasis in 16 KB took 5 s and
 * one 1 MB paragraph of bold words 104 s. Bodies nested deeper than the server keeps are refused
 * with a 400 (a user error in GraphQL) that says why, writing nothing; shallow but busy bodies are
 * kept and read back while the server goes on answering.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MARKDOWN_MAX_NESTING } from '../../src/lib/markdown-tree';
import { contentHelpers } from '../support/content';
import { gid } from '../support/doors';
import { mutations } from '../support/graphql';
import { scenario } from '../support/scenario';
import { TEST_ORIGIN, type TestApp } from '../support/clients';
import type { Actor, OrgFixture } from '../support/factories';

let t: TestApp;
let acme: OrgFixture;
let people: Record<'reader', Actor>;

beforeAll(async () => {
  ({ t, acme, people } = await scenario({ reader: ['read', 'Rita Reader'] }));
});
afterAll(() => t?.close());

const { newSpace } = contentHelpers(() => t, () => acme);
const { succeed, mutate } = mutations(() => t, { token: () => acme.admin.token });

/** Generous: the bodies below took from 4 s to minutes before; a request here takes about a second. */
const BOUND_MS = 15_000;
const TOO_DEEP = `quotes, lists, emphasis and links may nest at most ${MARKDOWN_MAX_NESTING} levels deep`;

const DEEP: Record<string, string> = {
  '5,000 quotes': `${'>'.repeat(5_000)} x`,
  '500,000 quotes': `${'>'.repeat(500_000)} x`,
  'a list nested 300,000 deep on one line': `${'- '.repeat(300_000)}x`,
  'lists nested by indentation 200 deep': Array.from({ length: 200 }, (_, i) => `${' '.repeat(i * 2)}- item`).join('\n'),
  'emphasis nested 3,000 deep': `${'*a '.repeat(3_000)}x${' a*'.repeat(3_000)}`,
  'a run of 400,000 stars around a word': `${'*'.repeat(200_000)}x${'*'.repeat(200_000)}`,
  'strong emphasis in quotes in lists, 33 deep': `${'- > '.repeat(11)}${'**'.repeat(11)}x${'**'.repeat(11)}`,
};

/** Shallow but busy: each was quadratic with the old parser. */
const BUSY: Record<string, string> = {
  'one paragraph of 150,000 bold words': '**a** '.repeat(150_000),
  'one paragraph of 120,000 links': '[a](b) '.repeat(120_000),
  '400,000 unmatched brackets': `${'['.repeat(200_000)}x${']'.repeat(200_000)}`,
  'quotes 30 deep, again and again': `${Array.from({ length: 30 }, (_, i) => `${'>'.repeat(i + 1)} line ${i}`).join('\n')}\n\n`.repeat(1_200),
};

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await run();
  return { value, ms: performance.now() - started };
}

async function pageCount(spaceId: string): Promise<number> {
  const res = await t.rest('GET', `/v1/spaces/${spaceId}/content/pages`, { token: acme.admin.token });
  expect(res.status).toBe(200);
  const count = (pages: { pages?: unknown[] }[]): number => pages.reduce((n, p) => n + 1 + count((p.pages ?? []) as never), 0);
  return count(res.body.pages);
}

/**
 * A page as its reader gets it. Read without the test client's check against the spec: its
 * validator tries every alternative of the spec's recursive block schema at each level, which
 * takes exponential time on a document nested 32 deep (the server answers in milliseconds).
 */
async function readPage(spaceId: string, pageId: string): Promise<{ status: number; body: any }> {
  const res = await t.app.fetch(new Request(`${TEST_ORIGIN}/v1/spaces/${spaceId}/content/page/${pageId}`, { headers: { authorization: `Bearer ${people.reader.token}` } }));
  return { status: res.status, body: await res.json() };
}

describe('page bodies', () => {
  let space: Record<string, any>;
  let sid: string;
  beforeAll(async () => {
    space = await newSpace({ title: 'Hostile' });
    sid = gid('Space', space.id);
  });

  for (const [name, markdown] of Object.entries(DEEP)) {
    it(`refuses ${name} (${markdown.length.toLocaleString('en')} characters), saying why, writing nothing`, async () => {
      const before = await pageCount(space.id);
      const { value: res, ms } = await timed(() => mutate('pageCreate', { spaceId: sid, title: 'Deep', markdown }, acme.admin.token, 'page { id }'));
      expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
      expect(res.payload.userErrors).toEqual([{ code: 'VALIDATION_FAILED', field: ['markdown'], message: expect.stringContaining(TOO_DEEP) }]);
      expect(ms).toBeLessThan(BOUND_MS);
      expect(await pageCount(space.id)).toBe(before);
    });
  }

  it('keeps a body nested as deep as allowed, and reads it back as a document', async () => {
    const markdown = `${'>'.repeat(MARKDOWN_MAX_NESTING)} deepest\n\n${Array.from({ length: MARKDOWN_MAX_NESTING }, (_, i) => `${'  '.repeat(i)}- level ${i + 1}`).join('\n')}`;
    const { page } = await succeed('pageCreate', { spaceId: sid, title: 'As deep as allowed', markdown }, 'page { restId }');
    const res = await readPage(space.id, page.restId);
    expect(res.status).toBe(200);
    const text = JSON.stringify(res.body.document);
    expect(text).toContain('deepest');
    expect(text).toContain(`level ${MARKDOWN_MAX_NESTING}`);
  });

  for (const [name, markdown] of Object.entries(BUSY)) {
    it(`keeps ${name} (${Math.round(markdown.length / 1000)} KB) and answers its document quickly, while /health answers`, async () => {
      const health: number[] = [];
      let done = false;
      const probe = (async () => {
        while (!done) {
          const res = await t.app.fetch(new Request(`${TEST_ORIGIN}/health`));
          health.push(res.status);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      })();
      const write = await timed(() => succeed('pageCreate', { spaceId: sid, title: name, markdown }, 'page { restId }'));
      const read = await timed(() => readPage(space.id, write.value.page.restId));
      done = true;
      await probe;
      // The document of a body this busy may be more than one response carries: then a clear 400.
      if (read.value.status === 200) expect(read.value.body.document.nodes.length).toBeGreaterThan(0);
      else expect(read.value.body.error, JSON.stringify(read.value.body)).toMatchObject({ code: 400, message: expect.stringContaining('larger than') });
      expect(write.ms).toBeLessThan(BOUND_MS);
      expect(read.ms).toBeLessThan(BOUND_MS);
      expect(health.length).toBeGreaterThan(0);
      expect(health.every((status) => status === 200)).toBe(true);
    });
  }
});

describe('comment bodies', () => {
  it('refuses a comment of 5,000 quotes with a 400 naming the field, and posts nothing', async () => {
    const space = await newSpace({ title: 'Comments' });
    const post = (markdown: string) => t.rest('POST', `/v1/spaces/${space.id}/comments`, { token: acme.admin.token, body: { body: { markdown } } });
    const { value: res, ms } = await timed(() => post(`${'>'.repeat(5_000)} x`));
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('body.markdown');
    expect(res.body.error.message).toContain(TOO_DEEP);
    expect(ms).toBeLessThan(BOUND_MS);
    const list = await t.rest('GET', `/v1/spaces/${space.id}/comments`, { token: acme.admin.token });
    expect(list.body.items).toEqual([]);
    expect((await post('> a quote\n>\n> > and a nested one')).status).toBe(200);
  });
});
