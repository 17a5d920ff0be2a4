import { describe, expect, it } from 'vitest';
import type { RevisionRow } from '../../../src/db/schema/revisions';
import { mergeTrees, type MergeOutcome, type Resolutions } from '../../../src/modules/content/merge';
import { indexTree, type TreePage } from '../../../src/modules/content/tree';

/**
 * A merge never loses or duplicates a page, whatever the two sides did: on 200 seeded cases (a
 * base of 5 to 12 pages, then random moves, additions and deletions on each side), the merge
 * either answers conflicts, or gives a tree holding exactly the base's pages plus what either
 * side added, minus what either deleted, each once. Settling every conflict by a side then gives
 * conflicts again or such a tree too. A failure names its seed, to replay it alone.
 */

const SEEDS = Array.from({ length: 200 }, (_, i) => i + 1);

/** mulberry32: small, seedable, the same numbers on every machine. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return { int, pick: <T>(list: readonly T[]): T => list[int(list.length)] };
}
type Random = ReturnType<typeof random>;

/** A tree as the ordered children of each parent (null: the top). */
type Shape = Map<string | null, string[]>;

const clone = (shape: Shape): Shape => new Map([...shape].map(([k, v]) => [k, [...v]]));
const pagesOf = (shape: Shape) => [...shape.values()].flat();
const subtree = (shape: Shape, id: string): string[] => [id, ...(shape.get(id) ?? []).flatMap((c) => subtree(shape, c))];
const parentOf = (shape: Shape, id: string) => [...shape].find(([, kids]) => kids.includes(id))![0];

function insert(shape: Shape, parent: string | null, id: string, rnd: Random) {
  const kids = shape.get(parent) ?? [];
  kids.splice(rnd.int(kids.length + 1), 0, id);
  shape.set(parent, kids);
}

function detach(shape: Shape, id: string) {
  const kids = shape.get(parentOf(shape, id))!;
  kids.splice(kids.indexOf(id), 1);
}

function baseShape(rnd: Random): Shape {
  const shape: Shape = new Map([[null, []]]);
  const count = 5 + rnd.int(8);
  for (let i = 0; i < count; i++) insert(shape, rnd.pick([null, ...pagesOf(shape)]), `p${i}`, rnd);
  return shape;
}

/** One side's edits: 1 to 4 of move (two in three), add or delete, like a person's page edits. */
function edit(from: Shape, side: string, rnd: Random): Shape {
  const shape = clone(from);
  const edits = 1 + rnd.int(4);
  for (let i = 0; i < edits; i++) {
    const pages = pagesOf(shape);
    const roll = rnd.int(6);
    if (roll === 0 || !pages.length) {
      insert(shape, rnd.pick([null, ...pages]), `${side}${i}`, rnd);
    } else if (roll === 1) {
      const gone = subtree(shape, rnd.pick(pages));
      detach(shape, gone[0]);
      for (const id of gone) shape.delete(id);
    } else {
      const page = rnd.pick(pages);
      const below = new Set(subtree(shape, page));
      detach(shape, page);
      insert(shape, rnd.pick([null, ...pages.filter((p) => !below.has(p))]), page, rnd);
    }
  }
  return shape;
}

const AT = '2026-11-27T00:00:00.000Z';

function tree(shape: Shape, name: string) {
  const build = (parent: string | null): TreePage[] =>
    (shape.get(parent) ?? []).map((id) => ({ data: { id, type: 'document', title: id, slug: id, createdAt: AT, updatedAt: AT }, children: build(id) }));
  // The merge reads pages and files only; the revision row is there for the type.
  return indexTree({ id: name } as RevisionRow, build(null), []);
}

/** Every page of a merged tree, in order, as often as it appears. */
const listed = (pages: readonly TreePage[]): string[] => pages.flatMap((p) => [p.data.id, ...listed(p.children)]);

const sorted = (ids: Iterable<string>) => [...ids].sort();

function mergeCase(seed: number) {
  const rnd = random(seed);
  const base = baseShape(rnd);
  const [ours, theirs] = [edit(base, 'o', rnd), edit(base, 't', rnd)];
  const [b, o, t] = [tree(base, 'base'), tree(ours, 'ours'), tree(theirs, 'theirs')];
  const merge = (resolutions?: Resolutions): MergeOutcome =>
    mergeTrees({ base: b, ours: o, theirs: t, bodies: new Map(), resolutions }, () => {
      throw new Error('no body is merged here');
    });
  const [basePages, oursPages, theirsPages] = [new Set(pagesOf(base)), new Set(pagesOf(ours)), new Set(pagesOf(theirs))];
  const expected = new Set([...basePages].filter((id) => oursPages.has(id) && theirsPages.has(id)));
  for (const id of [...oursPages, ...theirsPages]) if (!basePages.has(id)) expected.add(id);
  return { rnd, merge, expected, oursPages, theirsPages };
}

/** No page twice, every page both sides kept, and only pages a side has. */
function keepsEveryPage(ids: string[], c: ReturnType<typeof mergeCase>) {
  expect(ids.length, 'no page twice').toBe(new Set(ids).size);
  for (const id of c.oursPages) if (c.theirsPages.has(id)) expect(ids, `page ${id}, kept by both sides`).toContain(id);
  for (const id of ids) expect(c.oursPages.has(id) || c.theirsPages.has(id), `page ${id} comes from a side`).toBe(true);
}

/** A case where the sides' moves, each clean, would close a loop: a moved conflict no side's two moves explain. */
const loopConflicts = (outcome: MergeOutcome) =>
  outcome.ok ? [] : outcome.conflicts.filter((x) => x.kind === 'moved' && (x.ours === x.base || x.theirs === x.base));

describe('a merge keeps every page exactly once', () => {
  let conflicted = 0;
  let clean = 0;
  let loops = 0;
  let settledLoops = 0;

  it.each(SEEDS)('seed %i: conflicts, or exactly the expected pages, each once', (seed) => {
    const c = mergeCase(seed);
    const outcome = c.merge();
    if (!outcome.ok) {
      conflicted++;
      if (loopConflicts(outcome).length) loops++;
      expect(outcome.conflicts.length).toBeGreaterThan(0);
      return;
    }
    clean++;
    const ids = listed(outcome.pages);
    expect(ids.length, 'no page twice').toBe(new Set(ids).size);
    expect(sorted(ids)).toEqual(sorted(c.expected));
  });

  it.each(SEEDS)('seed %i: settling every conflict by a side gives conflicts, or every page both sides kept, each once', (seed) => {
    const c = mergeCase(seed);
    const first = c.merge();
    if (first.ok) return;
    const pages = new Map(first.conflicts.filter((x) => x.pageId).map((x) => [x.pageId!, { keep: c.rnd.pick(['ours', 'theirs'] as const) }]));
    const settled = c.merge({ pages, files: new Map() });
    if (settled.ok) keepsEveryPage(listed(settled.pages), c);
  });

  it.each(SEEDS)('seed %i: moved conflicts alone, all settled by the same side, always merge', (seed) => {
    const c = mergeCase(seed);
    const first = c.merge();
    if (first.ok || first.conflicts.some((x) => x.kind !== 'moved')) return;
    if (loopConflicts(first).length) settledLoops++;
    for (const keep of ['ours', 'theirs'] as const) {
      const settled = c.merge({ pages: new Map(first.conflicts.map((x) => [x.pageId!, { keep }])), files: new Map() });
      expect(settled.ok, `settled by ${keep}: ${JSON.stringify(settled)}`).toBe(true);
      if (!settled.ok) continue;
      const ids = listed(settled.pages);
      keepsEveryPage(ids, c);
      // A page placed under one the other side deleted brings that page back, with its own parents.
      for (const id of c.expected) expect(ids, `page ${id}`).toContain(id);
    }
  });

  it('the cases cover clean merges, conflicts, and loops the sides close together, settled or not', () => {
    expect({ clean: clean > 20, conflicted: conflicted > 20, loops: loops > 5, settledLoops: settledLoops > 3 }).toEqual({ clean: true, conflicted: true, loops: true, settledLoops: true });
  });
});
