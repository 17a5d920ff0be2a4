import type { RequestContext } from '../../context/request-context';
import { presentTeam } from '../teams/present';
import { samlProviderDefaultTeam, samlServiceUrls } from './service';
import type { SamlProviderRow } from '../../db/schema/saml';

export async function presentSamlProvider(ctx: RequestContext, provider: SamlProviderRow) {
  const team = await samlProviderDefaultTeam(ctx, provider);
  return {
    object: 'saml-provider' as const,
    id: provider.id,
    label: provider.label,
    ssoURL: provider.ssoUrl,
    entityID: provider.entityId,
    certificate: provider.certificate,
    ...(team ? { defaultTeam: await presentTeam(ctx, team) } : {}),
    defaultRole: provider.defaultRole,
    createdAt: provider.createdAt.toISOString(),
    // Every stored provider has what signing in needs: create refuses one without it.
    status: 'active' as const,
    service: samlServiceUrls(ctx, provider),
    urls: { location: `${ctx.config.publicUrl}/v1/orgs/${provider.organizationId}/saml/${provider.id}` },
  };
}

export function presentSsoLogin(ctx: RequestContext, provider: SamlProviderRow) {
  return { id: provider.id, label: provider.label, startURL: samlServiceUrls(ctx, provider).startURL };
}
