import type { RequestContext } from '../../../context/request-context';
import type { Db, Tx } from '../../../db/client';
import type { SpaceRow } from '../../../db/schema/spaces';
import { changedBodies, pageChanges, type PageChange } from '../changes';
import { commitEdit, type CommitOptions, type RevisionPointer } from '../commit';
import { mergeTrees, type MergeConflict, type Resolutions } from '../merge';
import { loadObjects, type Hash } from '../objects';
import type { RevisionTree } from '../tree';
import { contentAt, type SpaceContent } from './read';

/*
 * Three-way merges of revisions (change requests into their space, and the space into them), the
 * conflicts they would meet, and what changed between two revisions.
 */

/** Thrown from inside a merge's edit to write nothing; carries what clashed. */
class MergeConflicts extends Error {
  constructor(readonly conflicts: MergeConflict[]) {
    super('merge conflicts');
  }
}

export interface MergeRequest {
  /** The common ancestor of the two sides. */
  base: string;
  /** The revision whose changes are brought in; the pointer's current revision is the other side. */
  incoming: string;
  /** What the merged revision moves: the space for a merge, a change request for an update. */
  pointer: RevisionPointer;
  type: 'merge' | 'update';
  /** What must change in the same transaction (the change request's status, say). */
  alongside?: CommitOptions['alongside'];
  /**
   * How a person settles the conflicts: given those the merge meets (none when it is clean) and
   * the pointer's revision they were met at, the resolutions to merge with. Throwing writes nothing.
   */
  settle?: (conflicts: MergeConflict[], current: string) => Resolutions;
}

export type MergeResult = { result: 'merged'; content: SpaceContent } | { result: 'conflicts'; conflicts: MergeConflict[] };

/** Body hashes whose text a three-way merge of these trees may need. */
export function differingBodies(trees: RevisionTree[]): Hash[] {
  const hashes = new Set<Hash>();
  const ids = new Set(trees.flatMap((t) => [...t.byId.keys()]));
  for (const id of ids) {
    const bodies = trees.map((t) => t.byId.get(id)?.page.data.body);
    if (new Set(bodies).size > 1) for (const b of bodies) if (b) hashes.add(b);
  }
  return [...hashes];
}

export async function bodiesOf(db: Db | Tx, hashes: Hash[]): Promise<Map<Hash, string>> {
  const objects = hashes.length ? await loadObjects(db, hashes) : new Map();
  return new Map(hashes.map((h) => [h, (objects.get(h)!.data as { markdown: string }).markdown]));
}

export async function revisionTree(ctx: RequestContext, space: SpaceRow, id: string): Promise<RevisionTree> {
  return (await contentAt(ctx, space, id)).tree;
}

/**
 * Three-way merges `incoming` into what the pointer names, from their common `base`: a new
 * revision of `type` with both parents when nothing clashes; otherwise the conflicts, and nothing
 * written. The caller has checked the viewer may do it. A writer that moved the pointer meanwhile
 * is merged with too (see commitEdit).
 */
export async function mergeRevisions(ctx: RequestContext, space: SpaceRow, request: MergeRequest): Promise<MergeResult> {
  const [base, incoming] = [await revisionTree(ctx, space, request.base), await revisionTree(ctx, space, request.incoming)];
  try {
    const { tree } = await commitEdit(
      ctx,
      space,
      async (ours, batch, _now, db) => {
        const bodies = await bodiesOf(db, differingBodies([base, ours, incoming]));
        let resolutions: Resolutions | undefined;
        if (request.settle) {
          const met = mergeTrees({ base, ours, theirs: incoming, bodies }, () => '');
          resolutions = request.settle(met.ok ? [] : met.conflicts, ours.revision.id);
        }
        const outcome = mergeTrees({ base, ours, theirs: incoming, bodies, resolutions }, (markdown) => batch.put('body', { markdown }));
        if (!outcome.ok) throw new MergeConflicts(outcome.conflicts);
        return { pages: outcome.pages, files: outcome.files, parents: [incoming.revision.id], result: undefined };
      },
      { pointer: request.pointer, type: request.type, alongside: request.alongside },
    );
    return { result: 'merged', content: { space, tree } };
  } catch (error) {
    if (error instanceof MergeConflicts) return { result: 'conflicts', conflicts: error.conflicts };
    throw error;
  }
}

/** What merging `incoming` into `current` from `base` would clash on, without writing anything. */
export async function mergeConflicts(ctx: RequestContext, space: SpaceRow, revisions: { base: string; current: string; incoming: string }): Promise<MergeConflict[]> {
  const [base, ours, theirs] = [await revisionTree(ctx, space, revisions.base), await revisionTree(ctx, space, revisions.current), await revisionTree(ctx, space, revisions.incoming)];
  const outcome = mergeTrees({ base, ours, theirs, bodies: await bodiesOf(ctx.db, differingBodies([base, ours, theirs])) }, () => '');
  return outcome.ok ? [] : outcome.conflicts;
}

/** The pages changed from one revision of the space to another, each with a diff of its body. */
export async function changesBetween(ctx: RequestContext, space: SpaceRow, from: string, to: string): Promise<PageChange[]> {
  const [before, after] = [await revisionTree(ctx, space, from), await revisionTree(ctx, space, to)];
  return pageChanges(before, after, await bodiesOf(ctx.db, changedBodies(before, after)));
}
