import type { RequestContext } from '../../context/request-context';
import { spacePublication } from '../sites/service';
import { spaceCounters, spacePermissions } from './service';
import type { SpaceRow } from '../../db/schema/spaces';

export async function presentSpace(ctx: RequestContext, row: SpaceRow) {
  const [permissions, counters, publication] = await Promise.all([spacePermissions(ctx, row), spaceCounters(ctx, row), spacePublication(ctx, row)]);
  return {
    object: 'space' as const,
    id: row.id,
    title: row.title,
    emoji: row.emoji ?? '',
    // A space published by sites is as visible as they make it.
    visibility: publication?.visibility ?? row.visibility,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    ...(row.deletedAt ? { deletedAt: row.deletedAt.toISOString() } : {}),
    editMode: row.editMode,
    urls: {
      location: `${ctx.config.publicUrl}/v1/spaces/${row.id}`,
      app: `${ctx.config.appUrl}/o/${row.organizationId}/s/${row.id}`,
      ...(row.icon ? { icon: row.icon } : {}),
      ...(publication ? { published: publication.url, ...(publication.visibility === 'public' ? { public: publication.url } : {}) } : {}),
    },
    organization: row.organizationId,
    ...(row.parentId ? { parent: row.parentId } : {}),
    ...(row.language ? { language: row.language } : {}),
    revision: row.revisionId,
    defaultLevel: row.defaultLevel ?? null,
    ...counters,
    permissions,
  };
}
