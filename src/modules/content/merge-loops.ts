/** Where a merged page sits: its parent, and whether theirs placed it (which orders its siblings). */
export interface MergedPlace {
  parentId: string | null;
  fromTheirs: boolean;
}

/** A page's parent on one side: null at the top, undefined where that side has no such page. */
type ParentOn = (id: string) => string | null | undefined;

/**
 * Pages whose parent links, once merged, go round in a loop: say ours moved A under B and theirs B
 * under A. Each move merged cleanly on its own field, yet no top-level page reaches A or B, and a
 * tree built from the links would silently lose them (and all below them). The pages of a loop
 * that a side moved are returned, to be reported as conflicts; every loop has one, since neither
 * the base nor either side has a loop. A page settled by keeping a side takes that side's parent,
 * and only the loops that still stand then are returned.
 */
export function loopedPages(merged: Map<string, MergedPlace>, parents: { base: ParentOn; ours: ParentOn; theirs: ParentOn }, kept: (id: string) => 'ours' | 'theirs' | undefined): string[] {
  const moved = () => loops(merged).filter((id) => parents.base(id) !== undefined && parents.base(id) !== merged.get(id)!.parentId);
  const found = moved();
  let relinked = false;
  for (const id of found) {
    const side = kept(id);
    const parentId = side && parents[side](id);
    if (parentId === undefined) continue;
    Object.assign(merged.get(id)!, { parentId, fromTheirs: side === 'theirs' });
    relinked = true;
  }
  // Only pages on loops were re-linked, so a page the top reached still reaches it: one more look suffices.
  return relinked ? moved() : found;
}

/**
 * Every page on a loop of parent links, in time linear in the number of pages: each page's parents
 * are followed once, every walk marking the pages it goes through. A walk that comes back to a
 * page it marked has gone round a loop; one that reaches the top, a missing parent or a page an
 * earlier walk marked stops there.
 */
function loops(merged: ReadonlyMap<string, MergedPlace>): string[] {
  const walkOf = new Map<string, number>();
  const found: string[] = [];
  let walk = 0;
  for (const start of merged.keys()) {
    walk++;
    let id: string | null = start;
    let place: MergedPlace | undefined;
    while (id !== null && !walkOf.has(id) && (place = merged.get(id))) {
      walkOf.set(id, walk);
      id = place.parentId;
    }
    if (id === null || walkOf.get(id) !== walk) continue;
    let at = id;
    do {
      found.push(at);
      at = merged.get(at)!.parentId!;
    } while (at !== id);
  }
  return found;
}
