import { diff3Merge } from 'node-diff3';
import type { Hash } from './objects';
import type { FileData, PageData, RevisionTree, TreeFile, TreePage } from './tree';
import { loopedPages } from './merge-loops';
import { uniqueSlug } from './slugs';

/**
 * Three-way merge of revision trees: what `ours` and `theirs` each changed since `base`, together.
 * Pages and files are matched by id. For each, every field is merged on its own (a side that left
 * it as in base takes the other's), page bodies line by line with diff3, and the tree shape
 * (parent, then order among siblings) the same way. What both sides changed differently is a
 * conflict, and any conflict means no merged tree at all: the caller writes nothing.
 */

export type ConflictKind =
  /** Both changed the same lines of a page's body. */
  | 'content'
  /** Both changed the same field of a page (its title, emoji...) differently. */
  | 'attribute'
  /** One side deleted a page the other changed or moved. */
  | 'deleted-modified'
  /**
   * Both moved a page, under different parents; or each side's moves, clean on their own, put
   * pages under one another in a loop that no top-level page reaches (every page of the loop that
   * a side moved is reported).
   */
  | 'moved'
  /** A page ends up under a page the other side deleted. */
  | 'parent-deleted'
  /** Both changed a file differently, or one deleted a file the other changed. */
  | 'file';

export interface MergeConflict {
  kind: ConflictKind;
  /** The page or file in conflict. */
  pageId?: string;
  fileId?: string;
  /** Its title (or file name), from whichever side has it. */
  title: string;
  /** The field in conflict, for attribute conflicts. */
  field?: string;
  /** The text (or value) on each side; null where the page does not exist. */
  base: string | null;
  ours: string | null;
  theirs: string | null;
}

/**
 * How a person settled the conflicts of one page or file: each of them goes the way of one side
 * (what merged cleanly still merges), or, for a page body, their own text.
 */
export type Resolution = { keep: Side } | { markdown: string };
export type Side = 'ours' | 'theirs';

/** Resolutions by page id and by file id. */
export interface Resolutions {
  pages: ReadonlyMap<string, Resolution>;
  files: ReadonlyMap<string, Resolution>;
}

export interface MergeInput {
  base: RevisionTree;
  ours: RevisionTree;
  theirs: RevisionTree;
  /** The markdown of every body hash found in the three trees where the sides differ. */
  bodies: ReadonlyMap<Hash, string>;
  /** Conflicts settled beforehand: they are not conflicts any more. */
  resolutions?: Resolutions;
}

export type MergeOutcome = { ok: true; pages: TreePage[]; files: TreeFile[] } | { ok: false; conflicts: MergeConflict[] };

interface Placed {
  page: TreePage;
  parentId: string | null;
  /** The sibling right before it; null when first. */
  previous: string | null;
}

function flatten(pages: readonly TreePage[]): Map<string, Placed> {
  const placed = new Map<string, Placed>();
  const walk = (list: readonly TreePage[], parentId: string | null) => {
    list.forEach((page, i) => {
      placed.set(page.data.id, { page, parentId, previous: i > 0 ? list[i - 1].data.id : null });
      walk(page.children, page.data.id);
    });
  };
  walk(pages, null);
  return placed;
}

/** Fields compared one by one; the body, dates and the id are handled on their own. */
const FIELDS = ['type', 'title', 'slug', 'emoji', 'icon', 'description', 'hidden', 'noIndex', 'noRobotsIndex', 'layout', 'target', 'computed'] as const;

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The three-way choice for one value: who changed it wins; both changing it alike agree. */
function pick<V>(base: V, ours: V, theirs: V): { value: V } | { conflict: true } {
  if (same(ours, base)) return { value: theirs };
  if (same(theirs, base) || same(ours, theirs)) return { value: ours };
  return { conflict: true };
}

function dataChanged(a: PageData, b: PageData): boolean {
  return a.body !== b.body || FIELDS.some((f) => !same(a[f], b[f]));
}

const lines = (text: string) => text.split('\n');

/** diff3 on lines; null when both sides changed overlapping lines. */
export function mergeText(base: string, ours: string, theirs: string): string | null {
  const regions = diff3Merge(lines(ours), lines(base), lines(theirs), { excludeFalseConflicts: true });
  const out: string[] = [];
  for (const region of regions) {
    if (region.conflict) return null;
    out.push(...(region.ok ?? []));
  }
  return out.join('\n');
}

export function mergeTrees(input: MergeInput, putBody: (markdown: string) => Hash): MergeOutcome {
  const base = flatten(input.base.pages);
  const ours = flatten(input.ours.pages);
  const theirs = flatten(input.theirs.pages);
  const conflicts: MergeConflict[] = [];
  const text = (hash: Hash | undefined) => (hash ? (input.bodies.get(hash) ?? '') : '');
  const titleOf = (id: string) => (ours.get(id) ?? theirs.get(id) ?? base.get(id))!.page.data.title;
  const resolution = (id: string) => input.resolutions?.pages.get(id);
  const kept = (id: string): Side | undefined => {
    const r = resolution(id);
    return r && 'keep' in r ? r.keep : undefined;
  };

  /** Merged data and parent of every page that survives, keyed by id. */
  const merged: Merged = new Map();
  const ids = new Set([...ours.keys(), ...theirs.keys()]);

  for (const id of ids) {
    const b = base.get(id);
    const o = ours.get(id);
    const t = theirs.get(id);
    const side = kept(id);
    if (!b) {
      // Added on one side (ids are unique, so never on both).
      const added = (o ?? t)!;
      merged.set(id, { data: added.page.data, parentId: added.parentId, fromTheirs: !o });
      continue;
    }
    if (!o || !t) {
      // Deleted on one side: fine if the other left the page as it was, where it was.
      const left = (o ?? t)!;
      const touched = dataChanged(b.page.data, left.page.data) || left.parentId !== b.parentId;
      if (touched && side) {
        const chosen = side === 'ours' ? o : t;
        if (chosen) merged.set(id, { data: chosen.page.data, parentId: chosen.parentId, fromTheirs: side === 'theirs' });
      } else if (touched) {
        conflicts.push({
          kind: 'deleted-modified',
          pageId: id,
          title: titleOf(id),
          base: text(b.page.data.body),
          ours: o ? text(o.page.data.body) : null,
          theirs: t ? text(t.page.data.body) : null,
        });
      }
      continue;
    }

    const data: PageData = { ...o.page.data };
    for (const field of FIELDS) {
      const choice = pick(b.page.data[field], o.page.data[field], t.page.data[field]);
      if ('conflict' in choice && side) setField(data, field, (side === 'ours' ? o : t).page.data[field]);
      else if ('conflict' in choice) {
        if (field === 'slug') continue; // follows the title, whose conflict is reported
        conflicts.push({
          kind: 'attribute',
          pageId: id,
          title: titleOf(id),
          field,
          base: JSON.stringify(b.page.data[field] ?? null),
          ours: JSON.stringify(o.page.data[field] ?? null),
          theirs: JSON.stringify(t.page.data[field] ?? null),
        });
      } else setField(data, field, choice.value);
    }
    const body = pick(b.page.data.body, o.page.data.body, t.page.data.body);
    if ('conflict' in body) {
      const textMerged = mergeText(text(b.page.data.body), text(o.page.data.body), text(t.page.data.body));
      const settled = resolution(id);
      if (textMerged === null && settled) {
        setField(data, 'body', 'markdown' in settled ? (settled.markdown ? putBody(settled.markdown) : undefined) : (settled.keep === 'ours' ? o : t).page.data.body);
      } else if (textMerged === null) {
        conflicts.push({ kind: 'content', pageId: id, title: titleOf(id), base: text(b.page.data.body), ours: text(o.page.data.body), theirs: text(t.page.data.body) });
      } else if (textMerged) data.body = putBody(textMerged);
      else delete data.body;
    } else if (body.value === undefined) delete data.body;
    else data.body = body.value;
    data.updatedAt = o.page.data.updatedAt > t.page.data.updatedAt ? o.page.data.updatedAt : t.page.data.updatedAt;

    const parent = pick(b.parentId, o.parentId, t.parentId);
    if ('conflict' in parent && side) {
      merged.set(id, { data, parentId: (side === 'ours' ? o : t).parentId, fromTheirs: side === 'theirs' });
      continue;
    }
    if ('conflict' in parent) {
      conflicts.push({ kind: 'moved', pageId: id, title: titleOf(id), base: b.parentId, ours: o.parentId, theirs: t.parentId });
      continue;
    }
    const theirsMoved = t.parentId !== b.parentId || t.previous !== b.previous;
    const oursMoved = o.parentId !== b.parentId || o.previous !== b.previous;
    merged.set(id, { data, parentId: parent.value, fromTheirs: theirsMoved && !oursMoved });
  }

  if (input.resolutions) placeOrphans(merged, ours, theirs, input.resolutions);
  for (const [id, entry] of merged) {
    if (entry.parentId !== null && !merged.has(entry.parentId)) {
      conflicts.push({ kind: 'parent-deleted', pageId: id, title: entry.data.title, base: base.get(id)?.parentId ?? null, ours: ours.get(id)?.parentId ?? null, theirs: theirs.get(id)?.parentId ?? null });
    }
  }

  const parentIn = (side: Map<string, Placed>) => (id: string) => side.get(id)?.parentId;
  for (const id of loopedPages(merged, { base: parentIn(base), ours: parentIn(ours), theirs: parentIn(theirs) }, kept)) {
    conflicts.push({ kind: 'moved', pageId: id, title: merged.get(id)!.data.title, base: base.get(id)!.parentId, ours: ours.get(id)?.parentId ?? null, theirs: theirs.get(id)?.parentId ?? null });
  }

  const files = mergeFiles(input.base.files, input.ours.files, input.theirs.files, conflicts, input.resolutions?.files);
  if (conflicts.length) return { ok: false, conflicts };
  return { ok: true, pages: buildTree(base, merged, input.ours.pages, input.theirs.pages, ours, theirs), files };
}

function setField<K extends keyof PageData>(data: PageData, field: K, value: PageData[K] | undefined): void {
  if (value === undefined) delete data[field];
  else data[field] = value;
}

type Merged = Map<string, { data: PageData; parentId: string | null; fromTheirs: boolean }>;

/**
 * Pages left under a page that is gone, placed the way the side chosen for them has it: where
 * that side puts them, bringing back the pages above them that side still has, or gone with their
 * parent when that side has no such page (what was under them then follows the same choice). A
 * page no choice reaches stays where it is, and is reported as a `parent-deleted` conflict.
 */
function placeOrphans(merged: Merged, ours: Map<string, Placed>, theirs: Map<string, Placed>, resolutions: Resolutions): void {
  const sides = { ours, theirs };
  const sideOf = new Map<string, Side>();
  for (const [id, r] of resolutions.pages) if ('keep' in r) sideOf.set(id, r.keep);
  // Each round moves, brings back or drops at least one page; choices that pull against each other stop here.
  for (let round = 0, changed = true; changed && round <= 2 * (ours.size + theirs.size); round++) {
    changed = false;
    for (const [id, entry] of merged) {
      const side = sideOf.get(id);
      if (entry.parentId === null || merged.has(entry.parentId) || !side) continue;
      changed = true;
      const there = sides[side].get(id);
      if (!there) {
        merged.delete(id);
        for (const [child, e] of merged) if (e.parentId === id && !sideOf.has(child)) sideOf.set(child, side);
      } else if (there.parentId !== entry.parentId) {
        Object.assign(entry, { parentId: there.parentId, fromTheirs: side === 'theirs' });
      } else {
        const parent = sides[side].get(entry.parentId)!;
        merged.set(entry.parentId, { data: parent.page.data, parentId: parent.parentId, fromTheirs: side === 'theirs' });
        if (!sideOf.has(entry.parentId)) sideOf.set(entry.parentId, side);
      }
    }
  }
}

/**
 * Sibling order: ours, with what theirs placed put right after its previous sibling in theirs,
 * and after any page ours added at that same spot (what is already there comes first).
 */
function orderChildren(
  parentId: string | null,
  merged: Map<string, { parentId: string | null; fromTheirs: boolean }>,
  children: readonly string[],
  oursList: readonly TreePage[],
  theirsList: readonly TreePage[],
  addedByOurs: (id: string) => boolean,
): string[] {
  const here = (id: string) => merged.get(id)?.parentId === parentId;
  const order = oursList.map((p) => p.data.id).filter((id) => here(id) && !merged.get(id)!.fromTheirs);
  // Membership by set: a list of thousands of siblings made this quadratic.
  const placed = new Set(order);
  const theirsIds = theirsList.map((p) => p.data.id);
  theirsIds.forEach((id, i) => {
    if (!here(id) || !merged.get(id)!.fromTheirs || placed.has(id)) return;
    let at = 0;
    for (let j = i - 1; j >= 0; j--) {
      const k = order.indexOf(theirsIds[j]);
      if (k >= 0) {
        at = k + 1;
        break;
      }
    }
    while (at < order.length && addedByOurs(order[at])) at++;
    order.splice(at, 0, id);
    placed.add(id);
  });
  // A page placed by theirs under a parent whose children theirs lists elsewhere (moved in from
  // another parent on our side) is kept, last.
  for (const id of children) if (!placed.has(id)) order.push(id);
  return order;
}

function buildTree(
  base: Map<string, Placed>,
  merged: Map<string, { data: PageData; parentId: string | null; fromTheirs: boolean }>,
  oursTop: readonly TreePage[],
  theirsTop: readonly TreePage[],
  ours: Map<string, Placed>,
  theirs: Map<string, Placed>,
): TreePage[] {
  const childrenOf = new Map<string | null, string[]>();
  for (const [id, entry] of merged) {
    const list = childrenOf.get(entry.parentId);
    if (list) list.push(id);
    else childrenOf.set(entry.parentId, [id]);
  }
  const build = (parentId: string | null): TreePage[] => {
    const oursList = parentId === null ? oursTop : (ours.get(parentId)?.page.children ?? []);
    const theirsList = parentId === null ? theirsTop : (theirs.get(parentId)?.page.children ?? []);
    const taken = new Set<string>();
    return orderChildren(parentId, merged, childrenOf.get(parentId) ?? [], oursList, theirsList, (id) => !base.has(id) && ours.has(id)).map((id) => {
      const entry = merged.get(id)!;
      let data = entry.data;
      if (data.slug !== undefined) {
        // Both sides may have added a page with the same title: the later one gets a new slug.
        const slug = uniqueSlug(data.slug, taken);
        if (slug !== data.slug) data = { ...data, slug };
        taken.add(slug);
      }
      const children = build(id);
      return reuse(ours.get(id)?.page, data, children) ?? reuse(theirs.get(id)?.page, data, children) ?? { data, children };
    });
  };
  return build(null);
}

/** The side's own page object when the merge left it as it was, so its stored object is shared. */
function reuse(page: TreePage | undefined, data: PageData, children: TreePage[]): TreePage | undefined {
  if (!page || !same(page.data, data) || page.children.length !== children.length) return undefined;
  return page.children.every((c, i) => c === children[i]) ? page : undefined;
}

function mergeFiles(baseFiles: readonly TreeFile[], oursFiles: readonly TreeFile[], theirsFiles: readonly TreeFile[], conflicts: MergeConflict[], resolutions?: ReadonlyMap<string, Resolution>): TreeFile[] {
  const byId = (files: readonly TreeFile[]) => new Map(files.map((f) => [f.data.id, f]));
  const [base, ours, theirs] = [byId(baseFiles), byId(oursFiles), byId(theirsFiles)];
  const result: TreeFile[] = [];
  const conflict = (id: string, b?: TreeFile, o?: TreeFile, t?: TreeFile) => {
    const settled = resolutions?.get(id);
    if (settled && 'keep' in settled) {
      const chosen = settled.keep === 'ours' ? o : t;
      if (chosen) result.push(chosen);
      return;
    }
    conflicts.push({
      kind: 'file',
      fileId: id,
      title: (o ?? t ?? b)!.data.name,
      base: b ? describe(b.data) : null,
      ours: o ? describe(o.data) : null,
      theirs: t ? describe(t.data) : null,
    });
  };
  for (const file of oursFiles) {
    const id = file.data.id;
    const [b, t] = [base.get(id), theirs.get(id)];
    if (!b) result.push(file);
    else if (!t) {
      if (!same(file.data, b.data)) conflict(id, b, file, t);
    } else {
      const choice = pick(b.data, file.data, t.data);
      if ('conflict' in choice) conflict(id, b, file, t);
      else result.push(choice.value === file.data ? file : t);
    }
  }
  for (const file of theirsFiles) {
    const id = file.data.id;
    const b = base.get(id);
    if (!b) result.push(file);
    else if (!ours.has(id) && !same(file.data, b.data)) conflict(id, b, undefined, file);
  }
  return result;
}

const describe = (file: FileData) => `${file.name} (${file.contentType}, ${file.size} bytes, ${file.blob.slice(0, 12)})`;
