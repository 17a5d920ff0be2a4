import { bodyAs, type RestRouter } from '../../rest/router';
import { pageArgs, renderList, REST_MAX } from '../../rest/pagination';
import type { LinkInviteCreateInput, LinkInviteUpdateInput } from './input';
import { presentLinkInvite } from './present';
import { createLinkInvite, deleteLinkInvite, getLinkInvite, joinWithLinkInvite, listLinkInvites, updateLinkInvite } from './service';

export function inviteRoutes(r: RestRouter): void {
  r.get('/v1/orgs/:organizationId/link-invites', async ({ ctx, params, query }) => ({
    status: 200,
    body: await renderList(ctx, await listLinkInvites(ctx, params.organizationId, pageArgs(query), REST_MAX), (_, i) => presentLinkInvite(i)),
  }));

  r.post('/v1/orgs/:organizationId/link-invites', async ({ ctx, params, body }) => ({
    status: 201,
    body: presentLinkInvite(await createLinkInvite(ctx, params.organizationId, bodyAs<LinkInviteCreateInput>(body))),
  }));

  r.get('/v1/orgs/:organizationId/link-invites/:inviteId', async ({ ctx, params }) => ({
    status: 200,
    body: presentLinkInvite(await getLinkInvite(ctx, params.organizationId, params.inviteId)),
  }));

  r.patch('/v1/orgs/:organizationId/link-invites/:inviteId', async ({ ctx, params, body }) => ({
    status: 200,
    body: presentLinkInvite(await updateLinkInvite(ctx, params.organizationId, params.inviteId, bodyAs<LinkInviteUpdateInput>(body))),
  }));

  r.delete('/v1/orgs/:organizationId/link-invites/:inviteId', async ({ ctx, params }) => {
    await deleteLinkInvite(ctx, params.organizationId, params.inviteId);
    return { status: 204 };
  });

  r.post('/v1/orgs/:organizationId/invites/:inviteId', async ({ ctx, params }) => {
    await joinWithLinkInvite(ctx, params.organizationId, params.inviteId);
    return { status: 200, body: {} };
  });
}
