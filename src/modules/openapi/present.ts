import type { RequestContext } from '../../context/request-context';
import { specPermissions, type SpecInOrganization } from './service';

/** The platform's OpenAPISpec. */
export async function presentSpec(ctx: RequestContext, spec: SpecInOrganization) {
  const { row, organization } = spec;
  return {
    object: 'openapi-spec' as const,
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    slug: row.slug,
    ...(row.sourceUrl ? { sourceURL: row.sourceUrl } : {}),
    processingState: row.processingState,
    visibility: row.visibility,
    ...(row.lastVersionId ? { lastVersion: row.lastVersionId } : {}),
    ...(row.lastProcessedAt ? { lastProcessedAt: row.lastProcessedAt.toISOString() } : {}),
    ...(row.lastProcessErrorCode ? { lastProcessErrorCode: row.lastProcessErrorCode } : {}),
    permissions: await specPermissions(ctx, organization),
    urls: {
      location: `${ctx.config.publicUrl}/v1/orgs/${organization.id}/openapi/${row.slug}`,
      app: `${ctx.config.appUrl}/o/${organization.id}/openapi/${row.slug}`,
      ...(row.visibility === 'public' ? { published: `${ctx.config.publicUrl}/openapi/${organization.id}/${row.slug}` } : {}),
    },
  };
}
