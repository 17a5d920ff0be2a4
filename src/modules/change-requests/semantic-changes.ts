import type { RequestContext } from '../../context/request-context';
import { NotFoundError } from '../../domain/errors';
import { assertContentReadable, changesBetweenRevisions, type RevisionChangesInput, type SemanticChange, type SpaceContent } from '../content/service';
import type { ChangeRequestRow } from '../../db/schema/change-requests';
import type { SpaceRow } from '../../db/schema/spaces';

/**
 * What a change request changes from its base, as the platform's semantic changes (the spec's
 * getChangeRequestChanges): what the renderer's preview lists as changed pages. Drafts are not a
 * site's published content: a site's API token reads them as missing. The base is the space revision
 * the change request started from or last brought in (service.ts's `baseOf`).
 */
export async function changeRequestSemanticChanges(ctx: RequestContext, { space, row }: { space: SpaceRow; row: ChangeRequestRow }, query: Omit<RevisionChangesInput, 'metadata' | 'computed'>): Promise<{ content: SpaceContent; changes: SemanticChange[]; more: number }> {
  if (ctx.viewer?.site) throw new NotFoundError('Change request');
  await assertContentReadable(ctx, space);
  return changesBetweenRevisions(ctx, space, row.revisionMergedAncestor ?? row.revisionInitial, row.revisionId, query);
}
