import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../support/clients';
import type { Actor, OrgFixture } from '../../support/factories';
import { scenario } from '../../support/scenario';
import { contentBench, type ChangeRequestRef, type ContentBench, type Editor, type Outline } from '../../support/change-requests';
import { mutations } from '../../support/graphql';
import { gid } from '../../support/doors';
import { tableFingerprint } from '../../support/surface';

/**
 * Settling merge conflicts through GraphQL, as a client does: merge, read the conflicts, choose,
 * then merge again. Every refusal is checked to have written nothing, by reading both sides back.
 */
let t: TestApp;
let acme: OrgFixture;
let other: OrgFixture;
let people: Record<'reader', Actor>;

beforeAll(async () => {
  ({ t, acme, other, people } = await scenario({ reader: ['read', 'Rita Reader'] }));
});
afterAll(() => t?.close());

const { mutate, succeed, userError, refused } = mutations(() => t, { token: () => acme.admin.token });

const lines = (...l: string[]) => l.join('\n');
const DOC = lines('# Title', '', 'one', '', 'two', '', 'three');
const PROPOSED = DOC.replace('two', 'two, as the change request has it');
const CURRENT = DOC.replace('two', 'two, as the space has it');

const MERGE_SELECT = 'result revision { id } conflicts { kind pageId fileId title current proposed }';
const RESOLVE_SELECT = 'revision { id type } changeRequest { status outdated conflicts { kind } }';

const STATE = `query ($space: ID!, $cr: ID!) {
  space: node(id: $space) { ... on Space { content { id pages { title markdown } } } }
  cr: node(id: $cr) { ... on ChangeRequest { status revision { id pages { title markdown } } conflicts { kind pageId } } }
}`;

/** Both sides as a client reads them: revisions, page texts by title, status and conflicts. */
async function state(b: ContentBench, cr: ChangeRequestRef) {
  const res = await t.graphql(STATE, { space: b.spaceGid, cr: cr.gid }, acme.admin.token);
  expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
  const texts = (pages: { title: string; markdown: string }[]) => Object.fromEntries(pages.map((p) => [p.title, p.markdown]));
  const { space, cr: request } = res.body.data;
  return {
    space: { revision: space.content.id, pages: texts(space.content.pages) },
    cr: { status: request.status, revision: request.revision.id, pages: texts(request.revision.pages), conflicts: request.conflicts },
  };
}

/**
 * A space with the pages Intro and Usage, and a change request that changes the same line of
 * Intro as the space does meanwhile (and of Usage too, with `usage`). The merge that answers the
 * conflicts is part of the set-up: the client reads them there.
 */
async function conflicted({ usage = false } = {}) {
  const b = await contentBench(() => t, () => acme, [
    { title: 'Intro', markdown: DOC },
    { title: 'Usage', markdown: DOC },
  ]);
  const cr = await b.openChangeRequest();
  await b.editor(cr).update('Intro', { markdown: PROPOSED });
  await b.space.update('Intro', { markdown: CURRENT });
  if (usage) {
    await b.editor(cr).update('Usage', { markdown: PROPOSED });
    await b.space.update('Usage', { markdown: CURRENT });
  }
  const merge = await succeed('changeRequestMerge', { changeRequestId: cr.gid }, MERGE_SELECT);
  expect(merge.result).toBe('CONFLICTS');
  const pageIds: Record<string, string> = Object.fromEntries(merge.conflicts.map((c: { title: string; pageId: string }) => [c.title, c.pageId]));
  return { b, cr, merge, spaceRevisionId: merge.revision.id as string, pageIds };
}

describe('settling a same-line conflict', () => {
  it('merge lists the conflict with both texts', async () => {
    const { merge } = await conflicted();
    expect(merge.conflicts).toEqual([{ kind: 'CONTENT', pageId: expect.any(String), fileId: null, title: 'Intro', current: CURRENT, proposed: PROPOSED }]);
  });

  const EDITED = DOC.replace('two', 'two, as both wanted it');
  it.each([
    ['THEIRS', undefined, CURRENT],
    ['OURS', undefined, PROPOSED],
    ['EDITED', EDITED, EDITED],
  ] as const)('%s: the change request then merges, and the space page is exactly the chosen text', async (choice, markdown, expected) => {
    const { b, cr, spaceRevisionId, pageIds } = await conflicted();
    const resolved = await succeed(
      'changeRequestResolveConflicts',
      { changeRequestId: cr.gid, spaceRevisionId, resolutions: [{ pageId: pageIds.Intro, choice, ...(markdown ? { markdown } : {}) }] },
      RESOLVE_SELECT,
    );
    expect(resolved.revision.type).toBe('update');
    expect(resolved.changeRequest).toEqual({ status: 'DRAFT', outdated: false, conflicts: [] });
    const between = await state(b, cr);
    expect(between.cr.revision).toBe(resolved.revision.id);
    expect(between.cr.pages.Intro).toBe(expected);
    // Settling touches the change request only.
    expect(between.space).toEqual({ revision: spaceRevisionId, pages: { Intro: CURRENT, Usage: DOC } });

    const merge = await succeed('changeRequestMerge', { changeRequestId: cr.gid }, `${MERGE_SELECT} changeRequest { status }`);
    expect(merge).toMatchObject({ result: 'MERGED', conflicts: [], changeRequest: { status: 'MERGED' } });
    const after = await state(b, cr);
    expect(after.space.pages).toEqual({ Intro: expected, Usage: DOC });
  });

  it('keeps what merged cleanly from both sides besides the settled page', async () => {
    const { b, cr, pageIds } = await conflicted();
    await b.editor(cr).update('Usage', { markdown: DOC.replace('one', 'ONE') });
    await b.space.update('Usage', { markdown: DOC.replace('three', 'THREE') });
    const { merge } = { merge: await succeed('changeRequestMerge', { changeRequestId: cr.gid }, MERGE_SELECT) };
    await succeed('changeRequestResolveConflicts', { changeRequestId: cr.gid, spaceRevisionId: merge.revision.id, resolutions: [{ pageId: pageIds.Intro, choice: 'OURS' }] });
    expect((await succeed('changeRequestMerge', { changeRequestId: cr.gid }, 'result')).result).toBe('MERGED');
    expect((await state(b, cr)).space.pages).toEqual({ Intro: PROPOSED, Usage: DOC.replace('one', 'ONE').replace('three', 'THREE') });
  });
});

describe('refusals write nothing', () => {
  /** Runs `attempt`, then checks both sides read back exactly as before it, and every table too. */
  async function unchanged(b: ContentBench, cr: ChangeRequestRef, attempt: () => Promise<unknown>) {
    const before = await state(b, cr);
    const tables = await tableFingerprint(t);
    await attempt();
    expect(await state(b, cr)).toEqual(before);
    expect(await tableFingerprint(t)).toBe(tables);
  }

  it('a resolution for a page that is not in conflict', async () => {
    const { b, cr, spaceRevisionId, pageIds } = await conflicted();
    const usage = (await t.rest('GET', `/v1/spaces/${b.spaceId}/content/pages`, { token: acme.admin.token })).body.pages.find((p: { title: string }) => p.title === 'Usage').id;
    await unchanged(b, cr, () =>
      userError('changeRequestResolveConflicts', { changeRequestId: cr.gid, spaceRevisionId, resolutions: [{ pageId: pageIds.Intro, choice: 'OURS' }, { pageId: usage, choice: 'THEIRS' }] }, 'VALIDATION_FAILED', ['resolutions', '1', 'pageId']),
    );
    await unchanged(b, cr, () =>
      userError('changeRequestResolveConflicts', { changeRequestId: cr.gid, spaceRevisionId, resolutions: [{ pageId: pageIds.Intro, choice: 'OURS' }, { fileId: 'noSuchFile', choice: 'OURS' }] }, 'VALIDATION_FAILED', ['resolutions', '1', 'fileId']),
    );
  });

  it('a conflict left without a resolution: all must be settled', async () => {
    const { b, cr, spaceRevisionId, pageIds } = await conflicted({ usage: true });
    expect(Object.keys(pageIds).sort()).toEqual(['Intro', 'Usage']);
    await unchanged(b, cr, async () => {
      const res = await userError('changeRequestResolveConflicts', { changeRequestId: cr.gid, spaceRevisionId, resolutions: [{ pageId: pageIds.Intro, choice: 'OURS' }] }, 'VALIDATION_FAILED', ['resolutions']);
      expect(res.payload.userErrors[0].message).toContain('Usage');
    });
    await succeed('changeRequestResolveConflicts', { changeRequestId: cr.gid, spaceRevisionId, resolutions: [{ pageId: pageIds.Intro, choice: 'OURS' }, { pageId: pageIds.Usage, choice: 'THEIRS' }] });
    expect((await state(b, cr)).cr.pages).toEqual({ Intro: PROPOSED, Usage: CURRENT });
  });

  it('a change request that is no longer draft or open', async () => {
    const { b, cr, spaceRevisionId, pageIds } = await conflicted();
    await succeed('changeRequestUpdate', { changeRequestId: cr.gid, status: 'ARCHIVED' });
    await unchanged(b, cr, () =>
      userError('changeRequestResolveConflicts', { changeRequestId: cr.gid, spaceRevisionId, resolutions: [{ pageId: pageIds.Intro, choice: 'OURS' }] }, 'CONFLICT', null),
    );
  });

  it('stale conflicts: the space moved since they were read, and reading them again settles', async () => {
    const { b, cr, spaceRevisionId, pageIds } = await conflicted();
    await b.space.update('Usage', { markdown: DOC.replace('three', 'THREE') });
    await unchanged(b, cr, async () => {
      const res = await userError('changeRequestResolveConflicts', { changeRequestId: cr.gid, spaceRevisionId, resolutions: [{ pageId: pageIds.Intro, choice: 'OURS' }] }, 'PRECONDITION_FAILED', ['spaceRevisionId']);
      expect(res.payload.userErrors[0].message).toMatch(/read the conflicts again/);
    });
    const again = await succeed('changeRequestMerge', { changeRequestId: cr.gid }, MERGE_SELECT);
    await succeed('changeRequestResolveConflicts', { changeRequestId: cr.gid, spaceRevisionId: again.revision.id, resolutions: [{ pageId: pageIds.Intro, choice: 'OURS' }] });
    expect((await succeed('changeRequestMerge', { changeRequestId: cr.gid }, 'result')).result).toBe('MERGED');
    expect((await state(b, cr)).space.pages).toEqual({ Intro: PROPOSED, Usage: DOC.replace('three', 'THREE') });
  });

  it('stale conflicts: the change request was edited since its revision was read', async () => {
    const { b, cr, spaceRevisionId, pageIds } = await conflicted();
    const seen = (await state(b, cr)).cr.revision;
    await b.editor(cr).update('Usage', { markdown: 'edited meanwhile' });
    await unchanged(b, cr, () =>
      userError(
        'changeRequestResolveConflicts',
        { changeRequestId: cr.gid, spaceRevisionId, changeRequestRevisionId: seen, resolutions: [{ pageId: pageIds.Intro, choice: 'THEIRS' }] },
        'PRECONDITION_FAILED',
        ['changeRequestRevisionId'],
      ),
    );
  });

  it('bad input', async () => {
    const { b, cr, spaceRevisionId, pageIds } = await conflicted();
    const intro = pageIds.Intro;
    const bad: [resolutions: unknown[], field: string[]][] = [
      [[], ['resolutions']],
      [[{ pageId: intro, choice: 'EDITED' }], ['resolutions', '0', 'markdown']],
      [[{ pageId: intro, choice: 'THEIRS', markdown: 'text' }], ['resolutions', '0', 'markdown']],
      [[{ choice: 'OURS' }], ['resolutions', '0', 'pageId']],
      [[{ pageId: intro, fileId: 'f', choice: 'OURS' }], ['resolutions', '0', 'pageId']],
      [[{ fileId: 'f', choice: 'EDITED', markdown: 'x' }], ['resolutions', '0', 'choice']],
      [[{ pageId: intro, choice: 'OURS' }, { pageId: intro, choice: 'THEIRS' }], ['resolutions', '1', 'pageId']],
      [[{ pageId: intro, choice: 'EDITED', markdown: '[click](javascript:alert(1))' }], ['resolutions', '0', 'markdown']],
    ];
    for (const [resolutions, field] of bad) {
      await unchanged(b, cr, () => userError('changeRequestResolveConflicts', { changeRequestId: cr.gid, spaceRevisionId, resolutions }, 'VALIDATION_FAILED', field));
    }
    // A choice outside the enum, or an id of another type, is refused before anything runs.
    const wrongChoice = await mutate('changeRequestResolveConflicts', { changeRequestId: cr.gid, spaceRevisionId, resolutions: [{ pageId: intro, choice: 'MINE' }] });
    expect(wrongChoice.errors?.length).toBe(1);
    const wrongType = await mutate('changeRequestResolveConflicts', { changeRequestId: cr.gid, spaceRevisionId: cr.gid, resolutions: [{ pageId: intro, choice: 'OURS' }] });
    expect(wrongType.errors?.length).toBe(1);
    expect((await state(b, cr)).cr.conflicts).toHaveLength(1);
  });

  it("another organization's change request answers like a missing one", async () => {
    const { b, cr, spaceRevisionId, pageIds } = await conflicted();
    const input = (changeRequestId: string) => ({ changeRequestId, spaceRevisionId, resolutions: [{ pageId: pageIds.Intro, choice: 'OURS' }] });
    await unchanged(b, cr, async () => {
      const foreign = await refused('changeRequestResolveConflicts', input(cr.gid), other.admin.token, 'NOT_FOUND');
      const missing = await refused('changeRequestResolveConflicts', input(gid('ChangeRequest', 'doesNotExist00000000')), other.admin.token, 'NOT_FOUND');
      expect(foreign.errors[0].message).toBe(missing.errors[0].message);
      expect(foreign.data).toEqual(missing.data);
    });
  });

  it('a reader without edit rights is refused', async () => {
    const { b, cr, spaceRevisionId, pageIds } = await conflicted();
    await unchanged(b, cr, () => refused('changeRequestResolveConflicts', { changeRequestId: cr.gid, spaceRevisionId, resolutions: [{ pageId: pageIds.Intro, choice: 'OURS' }] }, people.reader.token, 'FORBIDDEN'));
  });
});

describe('the other kinds of conflict, each way', () => {
  interface KindCase {
    name: string;
    base: Outline[];
    files?: string[];
    proposed(e: Editor): Promise<void>;
    current(e: Editor): Promise<void>;
    conflict: [kind: string, title: string];
    /** What the space holds once merged: outline (and file names) with THEIRS, then with OURS. */
    theirs: [outline: string, files?: string[]];
    ours: [outline: string, files?: string[]];
  }
  const flat = (...titles: string[]): Outline[] => titles.map((title) => ({ title, markdown: title.toLowerCase() }));
  const cases: KindCase[] = [
    {
      name: 'a title set differently on both sides (ATTRIBUTE)',
      base: flat('Intro'),
      proposed: (e) => e.update('Intro', { title: 'Welcome' }),
      current: (e) => e.update('Intro', { title: 'Overview' }),
      conflict: ['ATTRIBUTE', 'Overview'],
      theirs: ['Overview'],
      ours: ['Welcome'],
    },
    {
      name: 'a page moved under different parents (MOVED)',
      base: flat('A', 'B', 'Wanderer'),
      proposed: (e) => e.move('Wanderer', 'A'),
      current: (e) => e.move('Wanderer', 'B'),
      conflict: ['MOVED', 'Wanderer'],
      theirs: ['A, B(Wanderer)'],
      ours: ['A(Wanderer), B'],
    },
    {
      name: 'a page the change request deleted and the space edited (DELETED_MODIFIED)',
      base: flat('Intro', 'Usage'),
      proposed: (e) => e.remove('Usage'),
      current: (e) => e.update('Usage', { markdown: 'usage, revised' }),
      conflict: ['DELETED_MODIFIED', 'Usage'],
      theirs: ['Intro, Usage'],
      ours: ['Intro'],
    },
    {
      name: 'a page added under a page the space deleted (PARENT_DELETED)',
      base: flat('Intro', 'Doomed'),
      proposed: (e) => e.create('Orphan', { parent: 'Doomed', markdown: 'o' }),
      current: (e) => e.remove('Doomed'),
      conflict: ['PARENT_DELETED', 'Orphan'],
      theirs: ['Intro'],
      ours: ['Intro, Doomed(Orphan)'],
    },
    {
      name: 'a page moved under a page the space deleted (PARENT_DELETED)',
      base: [{ title: 'Guide', markdown: 'g' }, { title: 'Old', markdown: 'o', children: [{ title: 'Child', markdown: 'c' }] }, { title: 'Loose', markdown: 'l' }],
      proposed: (e) => e.move('Loose', 'Old'),
      current: (e) => e.remove('Old'),
      conflict: ['PARENT_DELETED', 'Loose'],
      theirs: ['Guide, Loose'],
      ours: ['Guide, Old(Loose)'],
    },
    {
      name: 'a file renamed differently on both sides (FILE)',
      base: flat('Intro'),
      files: ['diagram.txt'],
      proposed: (e) => e.renameFile('diagram.txt', 'proposed.txt'),
      current: (e) => e.renameFile('diagram.txt', 'current.txt'),
      conflict: ['FILE', 'current.txt'],
      theirs: ['Intro', ['current.txt']],
      ours: ['Intro', ['proposed.txt']],
    },
    {
      name: 'a file the change request deleted and the space renamed (FILE)',
      base: flat('Intro'),
      files: ['diagram.txt', 'kept.txt'],
      proposed: (e) => e.deleteFile('diagram.txt'),
      current: (e) => e.renameFile('diagram.txt', 'renamed.txt'),
      conflict: ['FILE', 'renamed.txt'],
      theirs: ['Intro', ['kept.txt', 'renamed.txt']],
      ours: ['Intro', ['kept.txt']],
    },
  ];

  it.each(cases.flatMap((c) => (['THEIRS', 'OURS'] as const).map((choice) => [`${c.name}, ${choice}`, c, choice] as const)))('%s', async (_, c, choice) => {
    const b = await contentBench(() => t, () => acme, c.base, c.files);
    const cr = await b.openChangeRequest();
    await c.proposed(b.editor(cr));
    await c.current(b.space);
    const merge = await succeed('changeRequestMerge', { changeRequestId: cr.gid }, MERGE_SELECT);
    expect(merge.conflicts.map((x: { kind: string; title: string }) => [x.kind, x.title])).toEqual([c.conflict]);
    const [{ pageId, fileId }] = merge.conflicts;
    const target = pageId ? { pageId } : { fileId };
    await succeed('changeRequestResolveConflicts', { changeRequestId: cr.gid, spaceRevisionId: merge.revision.id, resolutions: [{ ...target, choice }] });
    expect((await succeed('changeRequestMerge', { changeRequestId: cr.gid }, 'result')).result).toBe('MERGED');
    const [outline, files] = choice === 'THEIRS' ? c.theirs : c.ours;
    expect(await b.outline()).toBe(outline);
    if (files) expect(await b.fileNames()).toEqual(files);
    // A title's slug goes with it.
    if (c.conflict[0] === 'ATTRIBUTE') expect((await b.topPages()).map((p) => p.slug)).toEqual([outline.toLowerCase()]);
  });

  it('EDITED is refused for a page whose conflict is not about its text', async () => {
    const b = await contentBench(() => t, () => acme, flat('Intro'));
    const cr = await b.openChangeRequest();
    await b.editor(cr).update('Intro', { title: 'Welcome', markdown: 'proposed' });
    await b.space.update('Intro', { title: 'Overview', markdown: 'current' });
    const merge = await succeed('changeRequestMerge', { changeRequestId: cr.gid }, MERGE_SELECT);
    expect(merge.conflicts.map((x: { kind: string }) => x.kind).sort()).toEqual(['ATTRIBUTE', 'CONTENT']);
    const before = await b.revision(cr);
    await userError('changeRequestResolveConflicts', { changeRequestId: cr.gid, spaceRevisionId: merge.revision.id, resolutions: [{ pageId: merge.conflicts[0].pageId, choice: 'EDITED', markdown: 'mine' }] }, 'VALIDATION_FAILED', ['resolutions', '0', 'choice']);
    expect((await b.revision(cr)).id).toBe(before.id);
    // One choice settles every conflict of the page.
    await succeed('changeRequestResolveConflicts', { changeRequestId: cr.gid, spaceRevisionId: merge.revision.id, resolutions: [{ pageId: merge.conflicts[0].pageId, choice: 'OURS' }] });
    expect((await succeed('changeRequestMerge', { changeRequestId: cr.gid }, 'result')).result).toBe('MERGED');
    expect((await b.pagesByTitle()).Welcome?.markdown).toBe('proposed');
  });
});
