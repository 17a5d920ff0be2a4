import type { RequestContext } from '../../context/request-context';
import { spaceCounters } from './service';
import type { SpaceRow } from './table';

export async function spacePermissions(ctx: RequestContext, row: SpaceRow) {
  const [view, comment, edit, review, merge, admin] = await Promise.all([
    ctx.authz.can('space:view', row),
    ctx.authz.can('space:comment', row),
    ctx.authz.can('space:edit', row),
    ctx.authz.can('space:review', row),
    ctx.authz.can('space:merge', row),
    ctx.authz.can('space:admin', row),
  ]);
  return { view, access: view, admin, viewInviteLinks: admin, edit, triggerGitSync: edit, comment, merge, review, installIntegration: admin };
}

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
