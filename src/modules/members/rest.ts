import { pageArgs, renderList, REST_MAX } from '../../rest/pagination';
import { bodyAs, optionalParam, type RestRouter } from '../../rest/router';
import type { InviteUsersInput, MemberListFilter, MemberUpdateInput } from './input';
import { presentMember } from './present';
import { getMember, inviteUsers, listMembers, pingOrganization, removeMember, setMemberSso, updateMemberRole } from './service';

export function memberRoutes(r: RestRouter): void {
  r.get('/v1/orgs/:organizationId/members', async ({ ctx, params, query }) => {
    const filter = {
      role: optionalParam(query, 'role'),
      search: optionalParam(query, 'search'),
      sort: optionalParam(query, 'sort'),
      order: optionalParam(query, 'order'),
    } as MemberListFilter;
    const page = await listMembers(ctx, params.organizationId, filter, pageArgs(query), REST_MAX);
    return { status: 200, body: await renderList(ctx, page, presentMember) };
  });

  r.get('/v1/orgs/:organizationId/members/:userId', async ({ ctx, params }) => ({
    status: 200,
    body: await presentMember(ctx, await getMember(ctx, params.organizationId, params.userId)),
  }));

  r.patch('/v1/orgs/:organizationId/members/:userId', async ({ ctx, params, body }) => ({
    status: 200,
    body: await presentMember(ctx, await updateMemberRole(ctx, params.organizationId, params.userId, bodyAs<MemberUpdateInput>(body))),
  }));

  r.delete('/v1/orgs/:organizationId/members/:userId', async ({ ctx, params }) => {
    await removeMember(ctx, params.organizationId, params.userId);
    return { status: 204 };
  });

  r.post('/v1/orgs/:organizationId/members/:userId/sso', async ({ ctx, params }) => ({
    status: 200,
    body: await presentMember(ctx, await setMemberSso(ctx, params.organizationId, params.userId)),
  }));

  r.post('/v1/orgs/:organizationId/ping', async ({ ctx, params }) => {
    const { visitorClaims } = await pingOrganization(ctx, params.organizationId);
    // The document names the claim `serviceVisitorClaims`; the official client reads `gitbookVisitorClaims`.
    return { status: 200, body: { serviceVisitorClaims: visitorClaims, gitbookVisitorClaims: visitorClaims } };
  });

  r.post('/v1/orgs/:organizationId/invites', async ({ ctx, params, body }) => ({
    status: 200,
    body: await inviteUsers(ctx, params.organizationId, bodyAs<InviteUsersInput>(body)),
  }));
}
