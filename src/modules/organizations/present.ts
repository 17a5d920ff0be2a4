import type { RequestContext } from '../../context/request-context';
import { organizationPermissions } from './service';
import type { OrganizationRow } from '../../db/schema/organizations';

export function organizationUrls(ctx: RequestContext, org: OrganizationRow) {
  return {
    location: `${ctx.config.publicUrl}/v1/orgs/${org.id}`,
    app: `${ctx.config.appUrl}/o/${org.id}/`,
    ...(org.logoUrl ? { logo: org.logoUrl } : {}),
  };
}

export async function presentOrganization(ctx: RequestContext, org: OrganizationRow) {
  return {
    object: 'organization' as const,
    id: org.id,
    title: org.title,
    createdAt: org.createdAt.toISOString(),
    emailDomains: org.emailDomains,
    ...(org.hostname ? { hostname: org.hostname } : {}),
    type: org.type,
    ...(org.useCase ? { useCase: org.useCase } : {}),
    ...(org.communityType ? { communityType: org.communityType } : {}),
    defaultRole: org.defaultRole,
    ...(org.defaultContent ? { defaultContent: org.defaultContent } : {}),
    sso: org.sso,
    ai: org.ai,
    inviteLinks: org.inviteLinks,
    plan: org.plan,
    // Billing and trials are not part of this server: every organization is on its plan for good.
    trial: { status: 'notapplicable' as const },
    urls: organizationUrls(ctx, org),
    permissions: await organizationPermissions(ctx, org),
  };
}
