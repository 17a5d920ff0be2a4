import { pageArgs, renderList, REST_MAX } from '../../rest/pagination';
import { bodyAs, type RestRouter } from '../../rest/router';
import type { OrganizationUpdateInput } from './input';
import { presentOrganization } from './present';
import { getOrganization, listOrganizationsForEmailDomain, listViewerOrganizations, updateOrganization } from './service';

export function organizationRoutes(r: RestRouter): void {
  r.get('/v1/orgs', async ({ ctx, query }) => ({
    status: 200,
    body: await renderList(ctx, await listViewerOrganizations(ctx, pageArgs(query), REST_MAX), presentOrganization),
  }));

  r.get('/v1/orgs/:organizationId', async ({ ctx, params }) => ({
    status: 200,
    body: await presentOrganization(ctx, await getOrganization(ctx, params.organizationId)),
  }));

  r.patch('/v1/orgs/:organizationId', async ({ ctx, params, body }) => ({
    status: 200,
    body: await presentOrganization(ctx, await updateOrganization(ctx, params.organizationId, bodyAs<OrganizationUpdateInput>(body))),
  }));

  r.get('/v1/email-domains/:emailDomain/orgs', async ({ ctx, params }) => {
    const orgs = await listOrganizationsForEmailDomain(ctx, params.emailDomain);
    return { status: 200, body: { organizations: await Promise.all(orgs.map((o) => presentOrganization(ctx, o))) } };
  });
}
