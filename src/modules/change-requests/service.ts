import { assertLive, refusedAsNull, watchChannel } from '../../context/live';
import { requireViewer, type RequestContext } from '../../context/request-context';
import { defineLoader } from '../../db/loader';
import { ConflictError, NotFoundError, PreconditionFailedError, ValidationError, hiddenAsMissing } from '../../domain/errors';
import type { Page, PageArgs } from '../../domain/page';
import { parseInput } from '../../domain/validate';
import { newId } from '../../lib/ids';
import { assertContentReadable, changesBetween, contentAt, withComputedPages, mergeConflicts, mergeRevisions, pdfUrl, spacePointer, type MergeConflict, type PageChange, type Resolution, type Resolutions, type RevisionPointer, type SpaceContent } from '../content/service';
import { currentRevisionId, getSpace } from '../spaces/service';
import type { SpaceRow } from '../../db/schema/spaces';
import { userById } from '../users/service';
import type { UserRow } from '../../db/schema/users';
import {
  changeRequestCreateSchema,
  changeRequestListSchema,
  changeRequestUpdateSchema,
  conflictResolveSchema,
  pdfQuerySchema,
  type ChangeRequestCreateInput,
  type ConflictChoice,
  type ConflictResolveInput,
  type ChangeRequestListInput,
  type ChangeRequestUpdateInput,
  type PdfQueryInput,
} from './input';
import { changeRequestById } from './loaders';
import { CHANGE_REQUEST_CHANNEL, parseChangeRequestEvent, publishChangeRequestEvent, type ChangeRequestEventKind } from './live';
import { revisionReadSchema, type RevisionReadInput } from '../../domain/content';
import {
  addContributor,
  advanceChangeRequest,
  contributorsOf,
  editableRevision,
  EDITABLE,
  findChangeRequest,
  findMergedInto,
  insertChangeRequest,
  listChangeRequests as listRows,
  listChangeRequestsOfSpaces,
  markMerged,
  updateChangeRequestRow,
} from './queries';
import type { ChangeRequestRow } from '../../db/schema/change-requests';

/** A change request with the space it belongs to: what its fields and checks need. */
export interface ChangeRequestInSpace {
  space: SpaceRow;
  row: ChangeRequestRow;
}

/** A change request of a space the viewer may read, by id or number; NOT_FOUND otherwise. */
export async function getChangeRequest(ctx: RequestContext, spaceId: string, reference: string): Promise<ChangeRequestInSpace> {
  const space = await getSpace(ctx, spaceId);
  const row = await findChangeRequest(ctx.db, space.id, reference);
  if (!row) throw new NotFoundError('Change request');
  changeRequestById(ctx).prime(row.id, row);
  return { space, row };
}

/** A change request by id alone (GraphQL's node lookup), when the viewer may read its space. */
export async function getChangeRequestById(ctx: RequestContext, id: string): Promise<ChangeRequestInSpace> {
  requireViewer(ctx);
  const row = await changeRequestById(ctx).load(id);
  if (!row) throw new NotFoundError('Change request');
  const space = await hiddenAsMissing(getSpace(ctx, row.spaceId), 'Change request');
  return { space, row };
}

/** The change request a merge revision of a space the caller reads came from: the platform's `mergedFrom`. */
export async function changeRequestMergedInto(ctx: RequestContext, space: SpaceRow, revisionId: string): Promise<ChangeRequestInSpace | null> {
  const row = await findMergedInto(ctx.db, revisionId);
  return row && row.spaceId === space.id ? { space, row } : null;
}

export async function listChangeRequests(ctx: RequestContext, spaceId: string, query: ChangeRequestListInput, args: PageArgs, max: number): Promise<Page<ChangeRequestInSpace>> {
  const space = await getSpace(ctx, spaceId);
  const filter = parseInput(changeRequestListSchema, query);
  const page = await listRows(ctx.db, space.id, filter, args, max);
  return { ...page, items: page.items.map((row) => ({ space, row })) };
}

/** The same window of change requests of many spaces the caller already reads, in one statement. */
export async function listChangeRequestsOf(ctx: RequestContext, spaces: readonly SpaceRow[], status: ChangeRequestListInput['status'], args: PageArgs, max: number): Promise<Map<string, Page<ChangeRequestInSpace>>> {
  const filter = parseInput(changeRequestListSchema, { status });
  const byId = new Map(spaces.map((s) => [s.id, s]));
  const pages = await listChangeRequestsOfSpaces(ctx.db, [...byId.keys()], filter.status, args, max);
  return new Map([...pages].map(([id, page]) => [id, { ...page, items: page.items.map((row) => ({ space: byId.get(id)!, row })) }]));
}

/** The space revision the change request's changes are measured from. */
export const baseOf = (row: ChangeRequestRow) => row.revisionMergedAncestor ?? row.revisionInitial;

/** Whether the space has moved on since the change request's base; never for a merged one. */
export function isOutdated({ space, row }: ChangeRequestInSpace): boolean {
  return row.status !== 'merged' && space.revisionId !== baseOf(row);
}

const STATUS_WORDS: Record<string, string> = { merged: 'merged', archived: 'archived' };

function assertEditable(row: ChangeRequestRow): void {
  if (!EDITABLE.includes(row.status)) {
    throw new ConflictError(`The change request is ${STATUS_WORDS[row.status] ?? row.status}: its content can no longer change${row.status === 'archived' ? ' (reopen it first)' : ''}`);
  }
}

async function assertMayEdit(ctx: RequestContext, space: SpaceRow): Promise<void> {
  const message = space.editMode === 'locked' ? 'The space is locked: unlock it to change its content or its change requests' : 'Your role does not let you edit the content of this space';
  await ctx.authz.assert('space:edit', space, message);
}

export async function createChangeRequest(ctx: RequestContext, spaceId: string, input: ChangeRequestCreateInput): Promise<ChangeRequestInSpace> {
  const viewer = requireViewer(ctx);
  const space = await getSpace(ctx, spaceId);
  await assertMayEdit(ctx, space);
  const { subject } = parseInput(changeRequestCreateSchema, input);
  const revision = (await currentRevisionId(ctx.db, space.id)) ?? space.revisionId;
  const now = ctx.now();
  const row = await insertChangeRequest(ctx.db, {
    id: newId(),
    spaceId: space.id,
    subject: subject ?? '',
    status: 'draft',
    revisionId: revision,
    revisionInitial: revision,
    createdBy: viewer.user.id,
    createdAt: now,
    updatedAt: now,
  });
  await publishChangeRequestEvent(ctx.db, { kind: 'created', spaceId: space.id, changeRequestId: row.id });
  return { space, row };
}

/** Subject and status; `merged` only comes from a merge, and opening one needs a subject. */
export async function updateChangeRequest(ctx: RequestContext, { space, row }: ChangeRequestInSpace, input: ChangeRequestUpdateInput): Promise<ChangeRequestInSpace> {
  await assertMayEdit(ctx, space);
  const changes = parseInput(changeRequestUpdateSchema, input);
  if (row.status === 'merged' && (changes.status !== undefined || changes.subject !== undefined)) {
    throw new ConflictError('The change request is merged: it can no longer change', changes.status !== undefined ? ['status'] : ['subject']);
  }
  const subject = changes.subject ?? row.subject;
  const status = changes.status ?? row.status;
  if (status === 'open' && subject === '') throw new ValidationError('subject: an open change request needs a subject', ['subject']);
  const updated = await updateChangeRequestRow(ctx.db, row.id, { ...changes, updatedAt: ctx.now() });
  changeRequestById(ctx).clear(row.id);
  // One event for the one action: a new status is the larger news when the subject changed too.
  const kind = updated.status !== row.status ? 'statusChanged' : updated.subject !== row.subject ? 'edited' : null;
  if (kind) await publishChangeRequestEvent(ctx.db, { kind, spaceId: space.id, changeRequestId: row.id });
  return { space, row: updated };
}

/** The content of the change request: its current revision. */
export async function changeRequestContent(ctx: RequestContext, spaceId: string, reference: string, query: RevisionReadInput = {}): Promise<SpaceContent & { changeRequest: ChangeRequestRow }> {
  const { space, row } = await getChangeRequest(ctx, spaceId, reference);
  await assertContentReadable(ctx, space);
  const { computed } = parseInput(revisionReadSchema, query);
  const content = await contentAt(ctx, space, row.revisionId);
  return { ...(computed === 'false' ? content : await withComputedPages(ctx, content)), changeRequest: row };
}

/** A link to a PDF of the change request's pages as they are now (one page with `page`, without its children with `only`). */
export async function changeRequestPdfUrl(ctx: RequestContext, spaceId: string, reference: string, query: PdfQueryInput): Promise<string> {
  const { space, row } = await getChangeRequest(ctx, spaceId, reference);
  const { page, only } = parseInput(pdfQuerySchema, query);
  return pdfUrl(ctx, await contentAt(ctx, space, row.revisionId), { pageId: page, only: only === 'true' });
}

/**
 * Where edits to the change request land: its revision, moved by compare-and-set while it is
 * draft or open. Each editor becomes a contributor.
 */
function changeRequestPointer(ctx: RequestContext, row: ChangeRequestRow, onAdvance: Partial<Pick<ChangeRequestRow, 'revisionMergedAncestor'>> = {}): RevisionPointer {
  const viewer = requireViewer(ctx);
  return {
    async current(db, lock) {
      const found = await editableRevision(db, row.id, lock);
      if (!found) throw new NotFoundError('Change request');
      assertEditable({ ...row, status: found.status });
      return found.revisionId;
    },
    async advance(tx, from, to) {
      const now = ctx.now();
      if (!(await advanceChangeRequest(tx, row.id, from, to, now, onAdvance))) return false;
      await addContributor(tx, row.id, viewer.user.id, now);
      // A later action of the same request (a merge after an edit) must not act on the old revision.
      changeRequestById(ctx).clear(row.id);
      return true;
    },
    committed: () => publishChangeRequestEvent(ctx.db, { kind: 'contentUpdated', spaceId: row.spaceId, changeRequestId: row.id }),
  };
}

/**
 * The pointer that the content editing functions write through, for a change request still open
 * to edits. The edit rights themselves are checked by those functions.
 */
export function changeRequestEditTarget(ctx: RequestContext, { row }: ChangeRequestInSpace): RevisionPointer {
  assertEditable(row);
  return changeRequestPointer(ctx, row);
}

export interface MergeAnswer {
  /** The revision the merge wrote, or the unchanged one when it clashed. */
  revision: string;
  result: 'merge' | 'update' | 'conflicts';
  conflicts: MergeConflict[];
  changeRequest: ChangeRequestInSpace;
}

/**
 * Merges the change request into the space: a three-way merge of its base, the space's current
 * revision and the change request's. Clean: a `merge` revision with both parents becomes the
 * space's, and the change request is merged. Clashing: the conflicts, and nothing written.
 */
export async function mergeChangeRequest(ctx: RequestContext, { space, row }: ChangeRequestInSpace): Promise<MergeAnswer> {
  const message = space.editMode === 'locked' ? 'The space is locked: unlock it to merge change requests' : 'Your role does not let you merge change requests in this space';
  await ctx.authz.assert('space:merge', space, message);
  assertEditable(row);
  const merged = await mergeRevisions(ctx, space, {
    base: baseOf(row),
    incoming: row.revisionId,
    pointer: spacePointer(space.id),
    type: 'merge',
    alongside: async (tx, revision) => {
      if (!(await markMerged(tx, row.id, row.revisionId, revision.id, ctx.now()))) {
        throw new ConflictError('The change request changed while it was being merged (an edit, or another merge): try again');
      }
    },
  });
  changeRequestById(ctx).clear(row.id);
  // Both moved: the space to the merge revision, the change request to merged.
  const after = await getChangeRequest(ctx, space.id, row.id);
  if (merged.result === 'conflicts') return { revision: after.space.revisionId, result: 'conflicts', conflicts: merged.conflicts, changeRequest: after };
  await publishChangeRequestEvent(ctx.db, { kind: 'statusChanged', spaceId: space.id, changeRequestId: row.id });
  return { revision: merged.content.tree.revision.id, result: 'merge', conflicts: [], changeRequest: after };
}

/**
 * Brings the space's changes into the change request, the same way a merge goes the other way:
 * an `update` revision on the change request, whose base becomes the space's current revision.
 */
export async function updateFromSpace(ctx: RequestContext, { space, row: found }: ChangeRequestInSpace): Promise<MergeAnswer> {
  await assertMayEdit(ctx, space);
  assertEditable(found);
  const spaceRevision = (await currentRevisionId(ctx.db, space.id)) ?? space.revisionId;
  if (spaceRevision === baseOf(found)) {
    return { revision: found.revisionId, result: 'update', conflicts: [], changeRequest: { space, row: found } };
  }
  const merged = await mergeRevisions(ctx, space, {
    base: baseOf(found),
    incoming: spaceRevision,
    pointer: changeRequestPointer(ctx, found, { revisionMergedAncestor: spaceRevision }),
    type: 'update',
  });
  changeRequestById(ctx).clear(found.id);
  // The change request moved to the update revision.
  const after = await getChangeRequest(ctx, space.id, found.id);
  // The merge ran from the change request's side; conflicts read from the space's, as for a merge.
  const conflicts = merged.result === 'conflicts' ? merged.conflicts.map((c) => ({ ...c, ours: c.theirs, theirs: c.ours })) : [];
  if (merged.result === 'conflicts') return { revision: found.revisionId, result: 'conflicts', conflicts, changeRequest: after };
  return { revision: merged.content.tree.revision.id, result: 'update', conflicts: [], changeRequest: after };
}

/**
 * Settles the conflicts merging the change request would meet, the way a person chose for each
 * conflicting page or file: the change request's content is brought onto the space's current
 * revision (as an update from the space does) in a new `update` revision, so that its merge then
 * goes through. The choices must settle exactly the conflicts there are, as read at the space's
 * revision `spaceRevisionId` (and the change request's `changeRequestRevisionId`, when given): a
 * side that moved since is refused, for the caller to read the conflicts again.
 */
export async function resolveChangeRequestConflicts(ctx: RequestContext, { space, row }: ChangeRequestInSpace, input: ConflictResolveInput): Promise<{ revision: string; changeRequest: ChangeRequestInSpace }> {
  await assertMayEdit(ctx, space);
  const { spaceRevisionId, changeRequestRevisionId, resolutions } = parseInput(conflictResolveSchema, input);
  assertEditable(row);
  const spaceRevision = (await currentRevisionId(ctx.db, space.id)) ?? space.revisionId;
  if (spaceRevisionId !== spaceRevision) {
    throw new PreconditionFailedError(`The space's content changed since these conflicts were read (it is at revision ${spaceRevision} now): read the conflicts again and settle those`, ['spaceRevisionId']);
  }
  const staleRequest = () => new PreconditionFailedError('The change request changed since these conflicts were read: read the conflicts again and settle those', changeRequestRevisionId ? ['changeRequestRevisionId'] : undefined);
  const seen = changeRequestRevisionId ?? row.revisionId;
  if (seen !== row.revisionId) throw staleRequest();
  const merged = await mergeRevisions(ctx, space, {
    base: baseOf(row),
    incoming: spaceRevision,
    pointer: changeRequestPointer(ctx, row, { revisionMergedAncestor: spaceRevision }),
    type: 'update',
    settle: (conflicts, current) => {
      // An edit that landed since the row was read would be settled unseen.
      if (current !== seen) throw staleRequest();
      return settleAsChosen(conflicts, resolutions);
    },
  });
  changeRequestById(ctx).clear(row.id);
  if (merged.result === 'conflicts') {
    throw new ConflictError(`These choices still leave conflicts: ${describeConflicts(merged.conflicts)}; choose the other side for the pages above them`, ['resolutions']);
  }
  return { revision: merged.content.tree.revision.id, changeRequest: await getChangeRequest(ctx, space.id, row.id) };
}

/** The first few conflicts, for a message a person reads. */
function describeConflicts(conflicts: MergeConflict[]): string {
  const named = conflicts.slice(0, 5).map((c) => `${c.kind} on "${c.title}"`);
  return conflicts.length > 5 ? `${named.join(', ')} and ${conflicts.length - 5} more` : named.join(', ');
}

/**
 * The merge's resolutions from the caller's choices, checked against the conflicts met: one per
 * conflicting page or file, and none for anything else. The change request is the merge's `ours`.
 */
function settleAsChosen(conflicts: MergeConflict[], chosen: ConflictChoice[]): Resolutions {
  const met = new Map<string, MergeConflict[]>();
  for (const c of conflicts) {
    const key = c.pageId !== undefined ? `page ${c.pageId}` : `file ${c.fileId}`;
    met.set(key, [...(met.get(key) ?? []), c]);
  }
  const resolutions = { pages: new Map<string, Resolution>(), files: new Map<string, Resolution>() };
  chosen.forEach((r, i) => {
    const [what, id, field] = r.pageId !== undefined ? (['page', r.pageId, 'pageId'] as const) : (['file', r.fileId!, 'fileId'] as const);
    const found = met.get(`${what} ${id}`);
    if (!found) throw new ValidationError(`resolutions.${i}: the ${what} ${id} is not in conflict: give resolutions only for the conflicts the change request lists`, ['resolutions', String(i), field]);
    const other = found.find((c) => c.kind !== 'content');
    if (r.choice === 'edited' && other) {
      throw new ValidationError(`resolutions.${i}: EDITED settles a content conflict only, and "${other.title}" has a ${other.kind} conflict: choose THEIRS or OURS for it`, ['resolutions', String(i), 'choice']);
    }
    (what === 'page' ? resolutions.pages : resolutions.files).set(id, r.choice === 'edited' ? { markdown: r.markdown! } : { keep: r.choice === 'ours' ? 'ours' : 'theirs' });
  });
  const unsettled = conflicts.filter((c) => !(c.pageId !== undefined ? resolutions.pages.has(c.pageId) : resolutions.files.has(c.fileId!)));
  if (unsettled.length) throw new ValidationError(`resolutions: every conflict needs a resolution, and these have none: ${describeConflicts(unsettled)}`, ['resolutions']);
  return resolutions;
}

/** What the change request changes, from its base: for review screens. */
export function changeRequestChanges(ctx: RequestContext, { space, row }: ChangeRequestInSpace): Promise<PageChange[]> {
  return changesBetween(ctx, space, baseOf(row), row.revisionId);
}

/** What merging it now would clash on; none for a merged or archived one. */
export async function changeRequestConflicts(ctx: RequestContext, { space, row }: ChangeRequestInSpace): Promise<MergeConflict[]> {
  if (!EDITABLE.includes(row.status)) return [];
  return mergeConflicts(ctx, space, { base: baseOf(row), current: space.revisionId, incoming: row.revisionId });
}

const contributorIds = defineLoader<string, string[]>('changeRequestContributors', async (db, ids) => {
  const byRequest = await contributorsOf(db, ids);
  return ids.map((id) => byRequest.get(id) ?? []);
});

/** The users who contributed, author first; the change requests of one request are read together. */
export async function changeRequestContributors(ctx: RequestContext, row: ChangeRequestRow): Promise<UserRow[]> {
  const ids = (await contributorIds(ctx).load(row.id)) ?? [];
  const users = await userById(ctx).loadMany(ids);
  return users.filter((u): u is UserRow => u !== null && !(u instanceof Error));
}

/** The author, when their account still exists. */
export async function changeRequestAuthor(ctx: RequestContext, row: ChangeRequestRow): Promise<UserRow | null> {
  return row.createdBy ? userById(ctx).load(row.createdBy) : null;
}

/** A change request event as it reaches a subscriber: the change request as it is now. */
export interface ChangeRequestLiveEvent {
  kind: ChangeRequestEventKind;
  changeRequest: ChangeRequestInSpace;
}

/**
 * What happens to the change requests of a space (to one of them, with `changeRequest`) from now
 * on, from any instance. Access to the space is checked when it starts and again, afresh, at each
 * event: a subscriber who lost it gets nothing more, and the stream ends.
 */
export async function watchChangeRequests(ctx: RequestContext, spaceId: string, changeRequest: string | undefined, signal?: AbortSignal): Promise<AsyncIterableIterator<ChangeRequestLiveEvent>> {
  assertLive(ctx);
  const space = await getSpace(ctx, spaceId);
  const only = changeRequest === undefined ? null : (await getChangeRequest(ctx, space.id, changeRequest)).row.id;
  return watchChannel<ChangeRequestLiveEvent>(
    ctx,
    CHANGE_REQUEST_CHANNEL,
    async (payload, renew) => {
      const event = parseChangeRequestEvent(payload);
      if (!event || event.spaceId !== space.id || (only !== null && event.changeRequestId !== only)) return null;
      const fresh = await renew();
      const now = fresh && (await refusedAsNull(getSpace(fresh, space.id)));
      if (!fresh || !now) return 'end';
      const found = await getChangeRequest(fresh, now.id, event.changeRequestId).catch((error: unknown) => (error instanceof NotFoundError ? null : Promise.reject(error)));
      return found && { kind: event.kind, changeRequest: found };
    },
    signal,
  );
}
export { changeRequestSemanticChanges } from './semantic-changes';
