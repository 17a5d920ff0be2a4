import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scenario } from '../../support/scenario';
import { contentHelpers } from '../../support/content';
import { mutations } from '../../support/graphql';
import type { TestApp } from '../../support/clients';
import type { Actor, OrgFixture } from '../../support/factories';
import { gid } from '../../support/doors';

/**
 * GitBook's `{% hint %}` tags become the platform's hint blocks in a page's JSON document, so a client
 * that draws documents (the platform's renderer) shows a hint, not its tags as text. Every /v1 answer
 * is held to the official spec by the test client.
 */
let t: TestApp;
let acme: OrgFixture;
let people: Record<'reader', Actor>;

beforeAll(async () => {
  ({ t, acme, people } = await scenario({ reader: ['read', 'Rita Reader'] }));
});
afterAll(() => t?.close());

const { newSpace } = contentHelpers(() => t, () => acme);
const { succeed } = mutations(() => t, { token: () => acme.admin.token });
const PAGE = 'page { restId } revision { restId }';

type Block = { type: string; data?: { style?: string }; nodes?: Block[]; leaves?: { text: string }[] };
const words = (block: Block): string => (block.leaves ?? []).map((l) => l.text).join('') + (block.nodes ?? []).map(words).join('');

describe('hints in documents', () => {
  let spaceId: string;
  beforeAll(async () => {
    spaceId = (await newSpace({ title: 'Hints' })).id;
  });

  async function documentOf(markdown: string) {
    const { page, revision } = await succeed('pageCreate', { spaceId: gid('Space', spaceId), title: `Page ${Math.random()}`, markdown }, PAGE);
    const byPage = await t.rest('GET', `/v1/spaces/${spaceId}/content/page/${page.restId}`, { token: people.reader.token });
    expect(byPage.status).toBe(200);
    // The route the platform's renderer reads.
    const byRevision = await t.rest('GET', `/v1/spaces/${spaceId}/revisions/${revision.restId}/page/${page.restId}/document?evaluated=deterministic-only&dereferenced=reusable-contents`, { token: people.reader.token });
    expect(byRevision.status).toBe(200);
    expect(byRevision.body.nodes).toEqual(byPage.body.document.nodes);
    return byPage.body.document.nodes as Block[];
  }

  it('turns a hint, in one paragraph or several, into a hint block of its style, its tags gone', async () => {
    const nodes = await documentOf(
      ['Before.', '', '{% hint style="warning" %}', 'Mind **this**.', '{% endhint %}', '', 'Between.', '', '{% hint style="success" %}', '', 'First.', '', '- one', '- two', '', '{% endhint %}', '', 'After.'].join('\n'),
    );
    expect(nodes.map((n) => n.type)).toEqual(['paragraph', 'hint', 'paragraph', 'hint', 'paragraph']);
    expect(nodes[1]).toMatchObject({ type: 'hint', data: { style: 'warning' } });
    expect(words(nodes[1]!)).toBe('Mind this.');
    expect(nodes[3]!.nodes!.map((n) => n.type)).toEqual(['paragraph', 'list-unordered']);
    expect(JSON.stringify(nodes)).not.toContain('{%');
  });

  it('reads a missing or unknown style as info, keeps a code block inside as its text, and runs an unclosed hint to the end', async () => {
    const nodes = await documentOf(['{% hint style="shout" %}Loud.{% endhint %}', '', '{% hint %}', '', '```sh', 'npm start', '```', '', 'Still inside.'].join('\n'));
    expect(nodes.map((n) => [n.type, n.data?.style])).toEqual([
      ['hint', 'info'],
      ['hint', 'info'],
    ]);
    expect(words(nodes[0]!)).toBe('Loud.');
    expect(nodes[1]!.nodes!.map((n) => [n.type, words(n)])).toEqual([
      ['paragraph', 'npm start'],
      ['paragraph', 'Still inside.'],
    ]);
  });

  it('leaves a hint tag inside a list or a quote as text, as the published reader does', async () => {
    const nodes = await documentOf(['- {% hint style="info" %}not a hint{% endhint %}', '', '> {% hint %}quoted{% endhint %}'].join('\n'));
    expect(nodes.map((n) => n.type)).toEqual(['list-unordered', 'blockquote']);
    expect(JSON.stringify(nodes)).toContain('not a hint{% endhint %}');
  });
});
