import type { RequestContext } from '../../context/request-context';
import type { CollectionRow } from '../../db/schema/collections';

export async function collectionPermissions(ctx: RequestContext, row: CollectionRow) {
  const [view, admin, create] = await Promise.all([
    ctx.authz.can('collection:view', row),
    ctx.authz.can('collection:admin', row),
    ctx.authz.can('collection:create', row),
  ]);
  return { view, admin, viewInviteLinks: admin, create };
}

export async function presentCollection(ctx: RequestContext, row: CollectionRow) {
  return {
    object: 'collection' as const,
    id: row.id,
    title: row.title,
    ...(row.description != null ? { description: row.description } : {}),
    organization: row.organizationId,
    ...(row.parentId ? { parent: row.parentId } : {}),
    defaultLevel: row.defaultLevel ?? null,
    urls: {
      location: `${ctx.config.publicUrl}/v1/collections/${row.id}`,
      app: `${ctx.config.appUrl}/o/${row.organizationId}/c/${row.id}`,
    },
    permissions: await collectionPermissions(ctx, row),
  };
}
