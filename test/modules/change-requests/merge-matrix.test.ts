import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../support/clients';
import type { OrgFixture } from '../../support/factories';
import { scenario } from '../../support/scenario';
import { contentBench, type Editor, type Outline } from '../../support/change-requests';

/**
 * The three-way merge, case by case, through the API: a space is built, a change request is
 * opened, each side edits, then POST .../merge. A clean case checks the space's merged tree and
 * markdown; a clashing one checks the conflicts GraphQL lists and that nothing was written.
 */
let t: TestApp;
let acme: OrgFixture;

beforeAll(async () => {
  ({ t, acme } = await scenario({}));
});
afterAll(() => t?.close());

const lines = (...l: string[]) => l.join('\n');
const DOC = lines('# Title', '', 'one', '', 'two', '', 'three', '', 'four');

interface Case {
  name: string;
  base: Outline[];
  files?: string[];
  /** Edits made on the change request. */
  proposed(e: Editor): Promise<void>;
  /** Edits made to the space meanwhile. */
  current?(e: Editor): Promise<void>;
  expected:
    | { outline: string; markdown?: Record<string, string>; slugs?: Record<string, string>; files?: string[]; fields?: Record<string, Record<string, unknown>>; top?: [slug: string, markdown: string][] }
    | { conflicts: [kind: string, title: string][] };
}

const flat = (...titles: string[]): Outline[] => titles.map((title) => ({ title, markdown: DOC }));

const cases: Case[] = [
  {
    name: 'same page, different lines: clean, both edits in the text',
    base: flat('Intro'),
    proposed: (e) => e.update('Intro', { markdown: DOC.replace('one', 'ONE') }),
    current: (e) => e.update('Intro', { markdown: DOC.replace('four', 'FOUR') }),
    expected: { outline: 'Intro', markdown: { Intro: DOC.replace('one', 'ONE').replace('four', 'FOUR') } },
  },
  {
    name: 'same line changed differently: content conflict',
    base: flat('Intro'),
    proposed: (e) => e.update('Intro', { markdown: DOC.replace('two', 'two, proposed') }),
    current: (e) => e.update('Intro', { markdown: DOC.replace('two', 'two, current') }),
    expected: { conflicts: [['CONTENT', 'Intro']] },
  },
  {
    name: 'same line changed alike on both sides: clean',
    base: flat('Intro'),
    proposed: (e) => e.update('Intro', { markdown: DOC.replace('two', 'TWO') }),
    current: (e) => e.update('Intro', { markdown: DOC.replace('two', 'TWO') }),
    expected: { outline: 'Intro', markdown: { Intro: DOC.replace('two', 'TWO') } },
  },
  {
    name: 'deleted in the space, edited in the change request: conflict',
    base: flat('Intro', 'Usage'),
    proposed: (e) => e.update('Usage', { markdown: DOC.replace('one', 'ONE') }),
    current: (e) => e.remove('Usage'),
    expected: { conflicts: [['DELETED_MODIFIED', 'Usage']] },
  },
  {
    name: 'edited in the space, deleted in the change request: conflict',
    base: flat('Intro', 'Usage'),
    proposed: (e) => e.remove('Usage'),
    current: (e) => e.update('Usage', { markdown: DOC.replace('one', 'ONE') }),
    expected: { conflicts: [['DELETED_MODIFIED', 'Usage']] },
  },
  {
    name: 'moved in the space, edited in the change request: clean, moved and edited',
    base: flat('Intro', 'Guide', 'Setup'),
    proposed: (e) => e.update('Setup', { markdown: DOC.replace('three', 'THREE') }),
    current: (e) => e.move('Setup', 'Guide'),
    expected: { outline: 'Intro, Guide(Setup)', markdown: { Setup: DOC.replace('three', 'THREE') } },
  },
  {
    name: 'both add a page with the same title: clean, both kept, slugs unique',
    base: flat('Intro'),
    proposed: (e) => e.create('FAQ', { markdown: 'proposed faq' }),
    current: (e) => e.create('FAQ', { markdown: 'current faq' }),
    expected: { outline: 'Intro, FAQ, FAQ', top: [['intro', DOC], ['faq', 'current faq'], ['faq-2', 'proposed faq']] },
  },
  {
    name: 'different pages added on each side: clean, both kept',
    base: flat('Intro'),
    proposed: (e) => e.create('Proposed page', { markdown: 'p' }),
    current: (e) => e.create('Current page', { markdown: 'c' }),
    expected: { outline: 'Intro, Current page, Proposed page', markdown: { 'Proposed page': 'p', 'Current page': 'c' } },
  },
  {
    name: 'a file renamed differently on both sides: file conflict',
    base: flat('Intro'),
    files: ['diagram.txt'],
    proposed: (e) => e.renameFile('diagram.txt', 'proposed.txt'),
    current: (e) => e.renameFile('diagram.txt', 'current.txt'),
    expected: { conflicts: [['FILE', 'current.txt']] },
  },
  {
    name: 'a file renamed on one side only: clean, renamed',
    base: flat('Intro'),
    files: ['diagram.txt', 'photo.txt'],
    proposed: (e) => e.renameFile('diagram.txt', 'architecture.txt'),
    current: (e) => e.upload('extra.txt', 'x'),
    expected: { outline: 'Intro', files: ['architecture.txt', 'extra.txt', 'photo.txt'] },
  },
  {
    name: 'a file deleted on one side, renamed on the other: file conflict',
    base: flat('Intro'),
    files: ['diagram.txt'],
    proposed: (e) => e.deleteFile('diagram.txt'),
    current: (e) => e.renameFile('diagram.txt', 'renamed.txt'),
    expected: { conflicts: [['FILE', 'renamed.txt']] },
  },
  {
    name: 'files added on both sides: clean, all kept',
    base: flat('Intro'),
    files: ['a.txt'],
    proposed: (e) => e.upload('b.txt', 'b'),
    current: (e) => e.upload('c.txt', 'c'),
    expected: { outline: 'Intro', files: ['a.txt', 'b.txt', 'c.txt'] },
  },
  {
    name: 'nested pages moved under a parent the space deleted: conflict',
    base: [{ title: 'Guide', markdown: 'g' }, { title: 'Old', markdown: 'o', children: [{ title: 'Child', markdown: 'c' }] }, { title: 'Loose', markdown: 'l' }],
    proposed: (e) => e.move('Loose', 'Old'),
    current: (e) => e.remove('Old'),
    expected: { conflicts: [['PARENT_DELETED', 'Loose']] },
  },
  {
    name: 'a page added under a parent the space deleted: conflict',
    base: flat('Intro', 'Doomed'),
    proposed: (e) => e.create('Orphan', { parent: 'Doomed', markdown: 'o' }),
    current: (e) => e.remove('Doomed'),
    expected: { conflicts: [['PARENT_DELETED', 'Orphan']] },
  },
  {
    name: 'the same page renamed differently: attribute conflict on the title',
    base: flat('Intro'),
    proposed: (e) => e.update('Intro', { title: 'Welcome' }),
    current: (e) => e.update('Intro', { title: 'Overview' }),
    expected: { conflicts: [['ATTRIBUTE', 'Overview']] },
  },
  {
    name: 'the same page renamed alike: clean',
    base: flat('Intro'),
    proposed: (e) => e.update('Intro', { title: 'Welcome' }),
    current: (e) => e.update('Intro', { title: 'Welcome' }),
    expected: { outline: 'Welcome', slugs: { Welcome: 'welcome' } },
  },
  {
    name: 'different fields of one page on each side: clean, both',
    base: flat('Intro'),
    proposed: (e) => e.update('Intro', { title: 'Welcome' }),
    current: (e) => e.update('Intro', { emoji: '1f44b' }),
    expected: { outline: 'Welcome', fields: { Welcome: { emoji: '1f44b' } } },
  },
  {
    name: 'the description set differently on both sides: attribute conflict',
    base: flat('Intro'),
    proposed: (e) => e.update('Intro', { description: 'Proposed' }),
    current: (e) => e.update('Intro', { description: 'Current' }),
    expected: { conflicts: [['ATTRIBUTE', 'Intro']] },
  },
  {
    name: 'a page deleted in the change request only: clean, gone',
    base: flat('Intro', 'Obsolete', 'Usage'),
    proposed: (e) => e.remove('Obsolete'),
    current: (e) => e.update('Usage', { markdown: 'usage, revised' }),
    expected: { outline: 'Intro, Usage', markdown: { Usage: 'usage, revised' } },
  },
  {
    name: 'the same page deleted on both sides: clean',
    base: flat('Intro', 'Obsolete'),
    proposed: (e) => e.remove('Obsolete'),
    current: (e) => e.remove('Obsolete'),
    expected: { outline: 'Intro' },
  },
  {
    name: 'the same page moved under different parents: moved conflict',
    base: flat('A', 'B', 'Wanderer'),
    proposed: (e) => e.move('Wanderer', 'A'),
    current: (e) => e.move('Wanderer', 'B'),
    expected: { conflicts: [['MOVED', 'Wanderer']] },
  },
  {
    name: 'the same page moved under the same parent: clean',
    base: flat('A', 'B', 'Wanderer'),
    proposed: (e) => e.move('Wanderer', 'A'),
    current: (e) => e.move('Wanderer', 'A'),
    expected: { outline: 'A(Wanderer), B' },
  },
  {
    name: 'siblings reordered in the change request, another page edited in the space: clean',
    base: flat('First', 'Second', 'Third'),
    proposed: (e) => e.move('Third', null, { before: 'First' }),
    current: (e) => e.update('Second', { markdown: 'second, revised' }),
    expected: { outline: 'Third, First, Second', markdown: { Second: 'second, revised' } },
  },
  {
    name: 'a section created with pages moved into it, while the space edits one of them: clean',
    base: flat('Install', 'Configure'),
    proposed: async (e) => {
      await e.create('Setup', { markdown: 's' });
      await e.move('Install', 'Setup');
      await e.move('Configure', 'Setup');
    },
    current: (e) => e.update('Configure', { markdown: lines('# Configure', '', 'Set it up.') }),
    expected: { outline: 'Setup(Install, Configure)', markdown: { Configure: lines('# Configure', '', 'Set it up.') } },
  },
  {
    name: 'nothing changed in the space: the change request as it is',
    base: flat('Intro'),
    proposed: async (e) => {
      await e.update('Intro', { markdown: 'rewritten' });
      await e.create('Next', { markdown: 'n', parent: 'Intro' });
    },
    expected: { outline: 'Intro(Next)', markdown: { Intro: 'rewritten', Next: 'n' } },
  },
  {
    name: 'several clashes at once: every one listed',
    base: flat('Intro', 'Usage', 'Gone'),
    proposed: async (e) => {
      await e.update('Intro', { markdown: DOC.replace('one', 'p') });
      await e.update('Gone', { markdown: 'kept' });
      await e.update('Usage', { title: 'Using it' });
    },
    current: async (e) => {
      await e.update('Intro', { markdown: DOC.replace('one', 'c') });
      await e.remove('Gone');
      await e.update('Usage', { title: 'How to use' });
    },
    expected: { conflicts: [['CONTENT', 'Intro'], ['ATTRIBUTE', 'How to use'], ['DELETED_MODIFIED', 'Gone']] },
  },
];

const CONFLICTS = `query ($id: ID!) { node(id: $id) { ... on ChangeRequest { status outdated conflicts { kind title base current proposed } } } }`;

describe('merge matrix', () => {
  it('has at least 20 cases', () => expect(cases.length).toBeGreaterThanOrEqual(20));

  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_, c) => {
    const bench = await contentBench(() => t, () => acme, c.base, c.files);
    const cr = await bench.openChangeRequest();
    await c.proposed(bench.editor(cr));
    await c.current?.(bench.space);
    const before = await bench.revision();
    const crBefore = await bench.revision(cr);

    const res = await t.rest('POST', `/v1/spaces/${bench.spaceId}/change-requests/${cr.id}/merge`, { token: acme.admin.token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);

    if ('conflicts' in c.expected) {
      expect(res.body).toEqual({ revision: before.id, result: 'conflicts' });
      expect((await bench.revision()).id).toBe(before.id);
      const gql = await t.graphql(CONFLICTS, { id: cr.gid }, acme.admin.token);
      expect(gql.body.data.node.status).toBe('DRAFT');
      expect(gql.body.data.node.conflicts.map((x: any) => [x.kind, x.title])).toEqual(expect.arrayContaining(c.expected.conflicts));
      expect(gql.body.data.node.conflicts).toHaveLength(c.expected.conflicts.length);
      return;
    }

    expect(res.body.result, JSON.stringify(res.body)).toBe('merge');
    const after = await bench.revision();
    expect(after).toMatchObject({ id: res.body.revision, type: 'merge', parents: [before.id, crBefore.id] });
    expect(await bench.outline()).toBe(c.expected.outline);
    const pages = await bench.pagesByTitle();
    for (const [title, markdown] of Object.entries(c.expected.markdown ?? {})) expect(pages[title]?.markdown, title).toBe(markdown);
    for (const [title, slug] of Object.entries(c.expected.slugs ?? {})) expect(pages[title]?.slug, title).toBe(slug);
    for (const [title, fields] of Object.entries(c.expected.fields ?? {})) expect(pages[title], title).toMatchObject(fields);
    if (c.expected.top) expect((await bench.topPages()).map((p) => [p.slug, p.markdown])).toEqual(c.expected.top);
    if (c.expected.files) expect(await bench.fileNames()).toEqual(c.expected.files);

    const merged = await t.rest('GET', `/v1/spaces/${bench.spaceId}/change-requests/${cr.number}`, { token: acme.admin.token });
    expect(merged.body).toMatchObject({ status: 'merged', revisionMerged: after.id, outdated: false });
  });
});
