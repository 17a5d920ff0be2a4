import type { RequestContext } from '../../context/request-context';
import { spaceCounters, spacePermissions } from './service';
import type { SpaceRow } from './table';

export async function presentSpace(ctx: RequestContext, row: SpaceRow) {
  const [permissions, counters] = await Promise.all([spacePermissions(ctx, row), spaceCounters(ctx, row)]);
  return {
    object: 'space' as const,
    id: row.id,
    title: row.title,
    emoji: row.emoji ?? '',
    visibility: row.visibility,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    ...(row.deletedAt ? { deletedAt: row.deletedAt.toISOString() } : {}),
    editMode: row.editMode,
    urls: {
      location: `${ctx.config.publicUrl}/v1/spaces/${row.id}`,
      app: `${ctx.config.appUrl}/o/${row.organizationId}/s/${row.id}`,
      ...(row.icon ? { icon: row.icon } : {}),
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
