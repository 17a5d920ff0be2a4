import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../support/clients';
import type { OrgFixture } from '../../support/factories';
import { scenario } from '../../support/scenario';
import { contentBench, type ChangeRequestRef, type ContentBench, type Editor, type Outline } from '../../support/change-requests';
import { mutations } from '../../support/graphql';
import { tableFingerprint } from '../../support/surface';

/**
 * Moves that close a loop between the two sides: the change request moves A under B while the
 * space moves B under A (or longer loops, or a page moved under a page the other side moved
 * below it). Each move is clean on its own; together no top-level page would reach the pages, and
 * a merge that wrote them would lose them. Through GraphQL, as a client does it: the merge answers
 * MOVED conflicts and writes nothing, and settling them by a side merges with every page once.
 */
let t: TestApp;
let acme: OrgFixture;

beforeAll(async () => {
  ({ t, acme } = await scenario({}));
});
afterAll(() => t?.close());

const { succeed } = mutations(() => t, { token: () => acme.admin.token });

const MERGE_SELECT = 'result revision { id } conflicts { kind pageId title base current proposed }';

interface LoopCase {
  name: string;
  base: Outline[];
  proposed(e: Editor): Promise<void>;
  current(e: Editor): Promise<void>;
  /** The pages reported, by title, each with its parent (by title) at the base, in the space and in the change request. */
  conflicts: Record<string, [base: string | null, current: string | null, proposed: string | null]>;
  /** The space's outline once merged, with every page settled as THEIRS (the space's), then as OURS (the change request's). */
  theirs: string;
  ours: string;
}

const flat = (...titles: string[]): Outline[] => titles.map((title) => ({ title, markdown: title.toLowerCase() }));

const cases: LoopCase[] = [
  {
    name: 'A under B in the change request, B under A in the space',
    base: flat('A', 'B', 'Still'),
    proposed: (e) => e.move('A', 'B'),
    current: (e) => e.move('B', 'A'),
    conflicts: { A: [null, null, 'B'], B: [null, 'A', null] },
    theirs: 'A(B), Still',
    ours: 'Still, B(A)',
  },
  {
    name: 'a loop of three: A under B and B under C in the change request, C under A in the space',
    base: flat('A', 'B', 'C'),
    proposed: async (e) => {
      await e.move('A', 'B');
      await e.move('B', 'C');
    },
    current: (e) => e.move('C', 'A'),
    conflicts: { A: [null, null, 'B'], B: [null, null, 'C'], C: [null, 'A', null] },
    theirs: 'A(C), B',
    ours: 'C(B(A))',
  },
  {
    name: 'B moved under A1 in the change request, A (with A1 below it) moved under B in the space',
    base: [{ title: 'A', markdown: 'a', children: [{ title: 'A1', markdown: 'a1', children: [{ title: 'A2', markdown: 'a2' }] }] }, { title: 'B', markdown: 'b' }],
    proposed: (e) => e.move('B', 'A1'),
    current: (e) => e.move('A', 'B'),
    conflicts: { A: [null, 'B', null], B: [null, null, 'A1'] },
    theirs: 'B(A(A1(A2)))',
    ours: 'A(A1(A2, B))',
  },
];

/** Both sides as a client reads them: their revisions and outlines. */
async function sides(b: ContentBench, cr: ChangeRequestRef) {
  return { space: [(await b.revision()).id, await b.outline()], cr: [(await b.revision(cr)).id, await b.outline(cr)] };
}

/** Every page's title as /v1 lists it, as often as it appears in the tree. */
async function titles(b: ContentBench): Promise<string[]> {
  type Listed = { title: string; pages?: Listed[] };
  const walk = (list: Listed[]): string[] => list.flatMap((p) => [p.title, ...walk(p.pages ?? [])]);
  return walk((await b.topPages()) as Listed[]).sort();
}

async function looped(c: LoopCase) {
  const b = await contentBench(() => t, () => acme, c.base);
  const cr = await b.openChangeRequest();
  await c.proposed(b.editor(cr));
  await c.current(b.space);
  return { b, cr, all: await titles(b) };
}

describe('moves that close a loop between the two sides', () => {
  it.each(cases)('$name: the merge answers MOVED conflicts and writes nothing', async (c) => {
    const { b, cr } = await looped(c);
    const before = await sides(b, cr);
    const tables = await tableFingerprint(t);
    const merge = await succeed('changeRequestMerge', { changeRequestId: cr.gid }, `${MERGE_SELECT} changeRequest { status }`);
    expect(merge.result).toBe('CONFLICTS');
    expect(merge.changeRequest.status).not.toBe('MERGED');
    const titleOf = new Map(Object.values(await b.pagesByTitle()).map((p) => [p.id as string | null, p.title as string | null]));
    const title = (id: string | null) => (id === null ? null : titleOf.get(id));
    const reported = Object.fromEntries(merge.conflicts.map((x: { kind: string; title: string; base: string | null; current: string | null; proposed: string | null }) => [x.title, [x.kind, title(x.base), title(x.current), title(x.proposed)]]));
    expect(reported).toEqual(Object.fromEntries(Object.entries(c.conflicts).map(([page, parents]) => [page, ['MOVED', ...parents]])));
    expect(await sides(b, cr)).toEqual(before);
    expect(await tableFingerprint(t)).toBe(tables);

    // The change request lists the same conflicts, and an update from the space stops on them too.
    const listed = await t.graphql('query ($id: ID!) { node(id: $id) { ... on ChangeRequest { conflicts { kind title } } } }', { id: cr.gid }, acme.admin.token);
    expect(listed.body.data.node.conflicts.map((x: { title: string }) => x.title).sort()).toEqual(Object.keys(c.conflicts).sort());
    const update = await succeed('changeRequestUpdateFromSpace', { changeRequestId: cr.gid }, 'result conflicts { kind title }');
    expect(update.result).toBe('CONFLICTS');
    expect(update.conflicts.map((x: { kind: string; title: string }) => `${x.kind} ${x.title}`).sort()).toEqual(Object.keys(c.conflicts).map((x) => `MOVED ${x}`).sort());
    expect(await sides(b, cr)).toEqual(before);
  });

  it.each(cases.flatMap((c) => (['THEIRS', 'OURS'] as const).map((choice) => [`${c.name}, settled ${choice}`, c, choice] as const)))(
    '%s: the merge then keeps every page exactly once',
    async (_, c, choice) => {
      const { b, cr, all } = await looped(c);
      const merge = await succeed('changeRequestMerge', { changeRequestId: cr.gid }, MERGE_SELECT);
      const resolutions = merge.conflicts.map((x: { pageId: string }) => ({ pageId: x.pageId, choice }));
      await succeed('changeRequestResolveConflicts', { changeRequestId: cr.gid, spaceRevisionId: merge.revision.id, resolutions });
      const merged = await succeed('changeRequestMerge', { changeRequestId: cr.gid }, 'result changeRequest { status }');
      expect(merged).toMatchObject({ result: 'MERGED', changeRequest: { status: 'MERGED' } });
      expect(await b.outline()).toBe(choice === 'THEIRS' ? c.theirs : c.ours);
      expect(await titles(b)).toEqual(all);
    },
  );
});
