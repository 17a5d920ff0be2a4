import { z } from 'zod';
import type { RequestContext } from '../../../context/request-context';
import { NotFoundError } from '../../../domain/errors';
import { parseInput } from '../../../domain/validate';
import type { RevisionRow } from '../../../db/schema/revisions';
import { readRevision } from '../commit';
import { semanticChanges, type SemanticChange } from '../semantic-changes';
import { indexTree, loadRevisionTree } from '../tree';
import type { SpaceRow } from '../../../db/schema/spaces';
import { contentReadableSpace, type SpaceContent } from './read';

/** The most changes one answer lists; `more` counts the rest. */
export const MAX_CHANGES = 1_000;

const changesQuerySchema = z.object({
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(MAX_CHANGES, `limit must be at most ${MAX_CHANGES}`)
    .default(10),
  metadata: z.enum(['true', 'false'], { error: 'metadata must be true or false' }).optional(),
  computed: z.enum(['true', 'false'], { error: 'computed must be true or false' }).optional(),
});
export type RevisionChangesInput = z.input<typeof changesQuerySchema>;

/**
 * What a revision changed from its first parent (its first revision: from nothing). A duplicated
 * space's first revision has its parent in the source space; that parent is read for the
 * comparison only, and it holds the same content, so nothing of the source shows.
 */
export async function changesOfRevision(ctx: RequestContext, revision: RevisionRow, query: RevisionChangesInput): Promise<{ changes: SemanticChange[]; more: number }> {
  const { limit } = parseInput(changesQuerySchema, query);
  const parent = revision.parents[0] ? await readRevision(ctx.db, revision.parents[0]) : null;
  const after = await loadRevisionTree(ctx.db, revision);
  const before = parent ? await loadRevisionTree(ctx.db, parent) : indexTree(revision, [], []);
  const changes = semanticChanges(before, after);
  return { changes: changes.slice(0, limit), more: Math.max(0, changes.length - limit) };
}

/** The changes of a revision of a space whose content the viewer may read. */
export async function revisionChanges(ctx: RequestContext, spaceId: string, revisionId: string, query: RevisionChangesInput): Promise<{ changes: SemanticChange[]; more: number }> {
  parseInput(changesQuerySchema, query);
  const space = await contentReadableSpace(ctx, spaceId);
  const revision = await readRevision(ctx.db, revisionId);
  if (!revision || revision.spaceId !== space.id) throw new NotFoundError('Revision');
  return changesOfRevision(ctx, revision, query);
}

/**
 * What a branch changed from its base (a change request's, from the space revision it started
 * from or last brought in): the same changes, between any two revisions of one space. The caller
 * has resolved the space and authorized reading it.
 */
export async function changesBetweenRevisions(ctx: RequestContext, space: SpaceRow, fromId: string, toId: string, query: RevisionChangesInput): Promise<{ content: SpaceContent; changes: SemanticChange[]; more: number }> {
  const { limit } = parseInput(changesQuerySchema, query);
  const [from, to] = await Promise.all([readRevision(ctx.db, fromId), readRevision(ctx.db, toId)]);
  if (!to || to.spaceId !== space.id) throw new NotFoundError('Revision');
  const after = await loadRevisionTree(ctx.db, to);
  const before = from ? await loadRevisionTree(ctx.db, from) : indexTree(to, [], []);
  const changes = semanticChanges(before, after);
  return { content: { space, tree: after }, changes: changes.slice(0, limit), more: Math.max(0, changes.length - limit) };
}
