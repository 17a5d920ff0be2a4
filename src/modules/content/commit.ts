import { requireViewer, type RequestContext } from '../../context/request-context';
import type { Db, Tx } from '../../db/client';
import { NotFoundError } from '../../domain/errors';
import { newId } from '../../lib/ids';
import { getRevision, insertRevision } from '../revisions/queries';
import type { RevisionRow } from '../revisions/table';
import { spaceById } from '../spaces/loaders';
import { advanceSpaceRevision, currentRevisionId } from '../spaces/queries';
import type { SpaceRow } from '../spaces/table';
import { ObjectBatch } from './objects';
import { loadRevisionTree, writeFiles, writePages, type RevisionTree, type TreeFile, type TreePage } from './tree';

const REVISION_CACHE_LIMIT = 1000;
const revisionRows = new Map<string, RevisionRow>();

/** A revision row by id; kept once read, since a revision never changes. */
export async function readRevision(db: Db | Tx, id: string): Promise<RevisionRow | null> {
  const cached = revisionRows.get(id);
  if (cached) return cached;
  const row = await getRevision(db, id);
  if (row) {
    if (revisionRows.size >= REVISION_CACHE_LIMIT) revisionRows.delete(revisionRows.keys().next().value!);
    revisionRows.set(id, row);
  }
  return row;
}

/** The tree of the revision the space points at. */
export async function currentTree(ctx: RequestContext, space: SpaceRow): Promise<RevisionTree> {
  const revision = await readRevision(ctx.db, space.revisionId);
  if (!revision) throw new Error(`space ${space.id} points at a missing revision ${space.revisionId}`);
  return loadRevisionTree(ctx.db, revision);
}

/** What an edit changes: new pages, new files (either left out when unchanged), and what to answer. */
export interface Edit<T> {
  pages?: readonly TreePage[];
  files?: readonly TreeFile[];
  result: T;
}

class RaceLost extends Error {}

type Apply<T> = (tree: RevisionTree, batch: ObjectBatch, now: Date) => Edit<T> | Promise<Edit<T>>;

/**
 * Applies an edit to the space's current content as a new `edits` revision, and points the space
 * at it. `apply` may put new objects (page bodies) in the batch.
 *
 * First optimistically: the edit is built outside any lock and the space moves only if nobody
 * moved it meanwhile (compare-and-set). A writer that loses the race applies its edit again to
 * what the winner left, this time holding the space row's lock, so it cannot lose twice: with
 * any number of writers on one space, every edit lands, one revision after the other.
 */
export async function commitEdit<T>(ctx: RequestContext, space: SpaceRow, apply: Apply<T>): Promise<{ tree: RevisionTree; result: T }> {
  const viewer = requireViewer(ctx);
  const prepare = async (db: Db | Tx, lock: boolean) => {
    const baseId = await currentRevisionId(db, space.id, lock);
    const base = baseId ? await readRevision(db, baseId) : null;
    if (!base) throw new NotFoundError('Space');
    const batch = new ObjectBatch();
    const edit = await apply(await loadRevisionTree(db, base), batch, ctx.now());
    const pages = edit.pages ? writePages(batch, edit.pages) : base.pages;
    const files = edit.files ? writeFiles(batch, edit.files) : base.files;
    return { base, batch, pages, files, result: edit.result };
  };
  const write = async (tx: Tx, { base, batch, pages, files }: Awaited<ReturnType<typeof prepare>>) => {
    await batch.store(tx);
    const row = await insertRevision(tx, {
      id: newId(),
      spaceId: space.id,
      parents: [base.id],
      type: 'edits',
      pages,
      files,
      variables: base.variables,
      createdBy: viewer.user.id,
      createdAt: ctx.now(),
    });
    if (!(await advanceSpaceRevision(tx, space.id, base.id, row.id))) throw new RaceLost();
    return row;
  };

  let written: { revision: RevisionRow; result: T };
  try {
    const prepared = await prepare(ctx.db, false);
    written = { revision: await ctx.db.transaction((tx) => write(tx, prepared)), result: prepared.result };
  } catch (error) {
    if (!(error instanceof RaceLost)) throw error;
    written = await ctx.db.transaction(async (tx) => {
      const prepared = await prepare(tx, true);
      return { revision: await write(tx, prepared), result: prepared.result };
    });
  }
  spaceById(ctx).clear(space.id);
  return { tree: await loadRevisionTree(ctx.db, written.revision), result: written.result };
}
