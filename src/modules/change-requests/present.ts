import type { RequestContext } from '../../context/request-context';
import { presentUser } from '../users/present';
import { changeRequestAuthor, isOutdated, type ChangeRequestInSpace } from './service';

/** A user whose account is gone, for the author of an old change request. */
function formerUser(ctx: RequestContext) {
  return { object: 'user' as const, id: 'deleted', displayName: 'Deleted user', urls: { location: `${ctx.config.publicUrl}/v1/users/deleted` } };
}

/** The platform's ChangeRequest. */
export async function presentChangeRequest(ctx: RequestContext, cr: ChangeRequestInSpace) {
  const { space, row } = cr;
  const author = await changeRequestAuthor(ctx, row);
  return {
    object: 'change-request' as const,
    id: row.id,
    number: row.number,
    status: row.status,
    subject: row.subject,
    createdBy: author ? await presentUser(ctx, author) : formerUser(ctx),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    revision: row.revisionId,
    revisionInitial: row.revisionInitial,
    ...(row.revisionMergedAncestor ? { revisionMergedAncestor: row.revisionMergedAncestor } : {}),
    ...(row.revisionMerged ? { revisionMerged: row.revisionMerged } : {}),
    comments: row.commentsOpen,
    outdated: isOutdated(cr),
    urls: {
      app: `${ctx.config.appUrl}/o/${space.organizationId}/s/${space.id}/~/changes/${row.number}`,
      location: `${ctx.config.publicUrl}/v1/spaces/${space.id}/change-requests/${row.id}`,
    },
  };
}
