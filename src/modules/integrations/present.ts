import type { RequestContext } from '../../context/request-context';
import { presentOrganization } from '../organizations/present';
import { ASSETS_PATH, integrationOwner } from './service';
import type { IntegrationRow } from '../../db/schema/integrations';

export function assetUrl(ctx: RequestContext, hash: string): string {
  return `${ctx.config.publicUrl}${ASSETS_PATH}${hash}`;
}

export function integrationUrls(ctx: RequestContext, row: IntegrationRow) {
  const location = `${ctx.config.publicUrl}/v1/integrations/${encodeURIComponent(row.name)}`;
  return {
    location,
    ...(row.iconBlob ? { icon: assetUrl(ctx, row.iconBlob) } : {}),
    app: `${ctx.config.appUrl}/integrations/${encodeURIComponent(row.name)}`,
    assets: `${ctx.config.publicUrl}${ASSETS_PATH}`,
    publicEndpoint: `${location}/integration`,
    // Newer releases of @gitbook/runtime read this one; the same endpoint serves both.
    publicContentEndpoint: `${location}/integration`,
  };
}

/** The spec's `Integration`; secrets, the script and the signing secret never leave the server. */
export async function presentIntegration(ctx: RequestContext, row: IntegrationRow) {
  const owner = await integrationOwner(ctx, row);
  const m = row.manifest;
  return {
    object: 'integration' as const,
    name: row.name,
    version: row.version,
    title: row.title,
    description: row.description,
    ...(row.summary !== null ? { summary: row.summary } : {}),
    previewImages: row.previewBlobs.map((hash) => assetUrl(ctx, hash)),
    target: row.target,
    verified: false,
    visibility: row.visibility,
    scopes: row.scopes,
    categories: row.categories,
    blocks: m.blocks ?? [],
    contentSources: m.contentSources ?? [],
    configurations: m.configurations ?? {},
    externalLinks: m.externalLinks ?? [],
    owner: await presentOrganization(ctx, owner),
    urls: integrationUrls(ctx, row),
    permissions: { admin: await ctx.authz.can('integration:publish', row) },
    ...(m.contentSecurityPolicy !== undefined ? { contentSecurityPolicy: m.contentSecurityPolicy } : {}),
  };
}
