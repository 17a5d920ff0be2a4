import { requireViewer, type RequestContext } from '../../context/request-context';
import { emitIntegrationEvent } from '../events/service';
import type { Db, Tx } from '../../db/client';
import { NotFoundError } from '../../domain/errors';
import { newId } from '../../lib/ids';
import { getRevision, insertRevision } from '../revisions/service';
import type { RevisionRow, RevisionType } from '../../db/schema/revisions';
import { advanceSpaceRevision, currentRevisionId, spaceById } from '../spaces/service';
import type { SpaceRow } from '../../db/schema/spaces';
import { ObjectBatch } from './objects';
import { publishSpaceContentEvent } from './live';
import { indexRevisionMove } from './search-index';
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
  /** Parents besides the revision the edit was applied to (a merge names the one it brings in). */
  parents?: string[];
  result: T;
}

/**
 * What an edit moves: the revision a space, or a change request, points at. Only ever moved by
 * compare-and-set, so no writer overwrites another's revision.
 */
export interface RevisionPointer {
  /** The revision pointed at now; with `lock`, the row stays locked until the transaction ends. Throws when edits are closed. */
  current(db: Db | Tx, lock: boolean): Promise<string>;
  /** Points at `to` if it still points at `from`; false otherwise. */
  advance(tx: Tx, from: string, to: string): Promise<boolean>;
  /** Set on a space's own pointer: a revision there is news to the integrations installed on it. */
  spaceId?: string;
  /** Runs once the write committed: what tells the subscribers of what the pointer belongs to. */
  committed?(revision: RevisionRow): Promise<void>;
}

/** The space's own content: its current revision. */
export function spacePointer(spaceId: string): RevisionPointer {
  return {
    spaceId,
    async current(db, lock) {
      const id = await currentRevisionId(db, spaceId, lock);
      if (!id) throw new NotFoundError('Space');
      return id;
    },
    async advance(tx, from, to) {
      if (!(await advanceSpaceRevision(tx, spaceId, from, to))) return false;
      await indexRevisionMove(tx, spaceId, from, to, (id) => readRevision(tx, id));
      return true;
    },
  };
}

export interface CommitOptions {
  /** Where the edit lands; the space's current revision when absent. */
  pointer?: RevisionPointer;
  /** The new revision's type; `edits` when absent. */
  type?: RevisionType;
  /** Runs in the write's transaction once the pointer has moved; throwing undoes the whole write. */
  alongside?: (tx: Tx, revision: RevisionRow) => Promise<void>;
}

class RaceLost extends Error {}

/** Builds an edit from the tree it applies to. `db` is the handle to read anything else with. */
export type Apply<T> = (tree: RevisionTree, batch: ObjectBatch, now: Date, db: Db | Tx) => Edit<T> | Promise<Edit<T>>;

/**
 * Applies an edit to the current content of the space (or of what `options.pointer` names) as a
 * new revision, and moves the pointer to it. `apply` may put new objects (page bodies) in the batch.
 *
 * First optimistically: the edit is built outside any lock and the pointer moves only if nobody
 * moved it meanwhile (compare-and-set). A writer that loses the race applies its edit again to
 * what the winner left, this time holding the pointer's row lock, so it cannot lose twice: with
 * any number of writers, every edit lands, one revision after the other.
 */
export async function commitEdit<T>(ctx: RequestContext, space: SpaceRow, apply: Apply<T>, options: CommitOptions = {}): Promise<{ tree: RevisionTree; result: T }> {
  const viewer = requireViewer(ctx);
  const pointer = options.pointer ?? spacePointer(space.id);
  const prepare = async (db: Db | Tx, lock: boolean) => {
    const base = await readRevision(db, await pointer.current(db, lock));
    if (!base) throw new NotFoundError('Revision');
    const batch = new ObjectBatch();
    const edit = await apply(await loadRevisionTree(db, base), batch, ctx.now(), db);
    const pages = edit.pages ? writePages(batch, edit.pages) : base.pages;
    const files = edit.files ? writeFiles(batch, edit.files) : base.files;
    return { base, batch, pages, files, parents: [base.id, ...(edit.parents ?? [])], result: edit.result };
  };
  const write = async (tx: Tx, { base, batch, pages, files, parents }: Awaited<ReturnType<typeof prepare>>) => {
    await batch.store(tx);
    const row = await insertRevision(tx, {
      id: newId(),
      spaceId: space.id,
      parents,
      type: options.type ?? 'edits',
      pages,
      files,
      variables: base.variables,
      createdBy: viewer.user.id,
      createdAt: ctx.now(),
    });
    if (!(await pointer.advance(tx, base.id, row.id))) throw new RaceLost();
    await options.alongside?.(tx, row);
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
  if (pointer.spaceId) {
    // One indexed statement when nothing is installed in the organization.
    await emitIntegrationEvent(ctx.db, ctx.jobs, { organizationId: space.organizationId, spaceId: space.id }, { type: 'space_content_updated', revisionId: written.revision.id });
    await publishSpaceContentEvent(ctx.db, { spaceId: space.id, revisionId: written.revision.id, kind: written.revision.type });
  }
  await pointer.committed?.(written.revision);
  return { tree: await loadRevisionTree(ctx.db, written.revision), result: written.result };
}
