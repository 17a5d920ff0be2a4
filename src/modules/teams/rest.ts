import { pageArgs, renderList, REST_MAX } from '../../rest/pagination';
import { bodyAs, optionalParam, type RestRouter } from '../../rest/router';
import type { TeamCreateInput, TeamMemberSetInput, TeamMembersUpdateInput, TeamUpdateInput } from './input';
import { presentTeam, presentTeamMembership } from './present';
import {
  createTeam,
  deleteTeam,
  getTeam,
  listMemberTeams,
  listTeamMembers,
  listTeams,
  removeTeamMember,
  setTeamMember,
  updateTeam,
  updateTeamMembers,
} from './service';

export function teamRoutes(r: RestRouter): void {
  r.get('/v1/orgs/:organizationId/teams', async ({ ctx, params, query }) => {
    const filter = { owner: optionalParam(query, 'owner'), title: optionalParam(query, 'title') };
    const page = await listTeams(ctx, params.organizationId, filter, pageArgs(query), REST_MAX);
    return { status: 200, body: await renderList(ctx, page, presentTeam) };
  });

  r.put('/v1/orgs/:organizationId/teams', async ({ ctx, params, body }) => ({
    status: 201,
    body: await presentTeam(ctx, await createTeam(ctx, params.organizationId, bodyAs<TeamCreateInput>(body))),
  }));

  r.get('/v1/orgs/:organizationId/teams/:teamId', async ({ ctx, params }) => ({
    status: 200,
    body: await presentTeam(ctx, await getTeam(ctx, params.organizationId, params.teamId)),
  }));

  r.patch('/v1/orgs/:organizationId/teams/:teamId', async ({ ctx, params, body }) => ({
    status: 200,
    body: await presentTeam(ctx, await updateTeam(ctx, await getTeam(ctx, params.organizationId, params.teamId), bodyAs<TeamUpdateInput>(body))),
  }));

  r.delete('/v1/orgs/:organizationId/teams/:teamId', async ({ ctx, params }) => {
    await deleteTeam(ctx, await getTeam(ctx, params.organizationId, params.teamId));
    return { status: 204 };
  });

  r.get('/v1/orgs/:organizationId/teams/:teamId/members', async ({ ctx, params, query }) => {
    const page = await listTeamMembers(ctx, params.organizationId, params.teamId, pageArgs(query), REST_MAX);
    return { status: 200, body: await renderList(ctx, page, presentTeamMembership) };
  });

  r.put('/v1/orgs/:organizationId/teams/:teamId/members', async ({ ctx, params, body }) => {
    await updateTeamMembers(ctx, await getTeam(ctx, params.organizationId, params.teamId), bodyAs<TeamMembersUpdateInput>(body));
    return { status: 204 };
  });

  r.put('/v1/orgs/:organizationId/teams/:teamId/members/:userId', async ({ ctx, params, body }) => {
    await setTeamMember(ctx, await getTeam(ctx, params.organizationId, params.teamId), params.userId, bodyAs<TeamMemberSetInput>(body));
    return { status: 204 };
  });

  r.delete('/v1/orgs/:organizationId/teams/:teamId/members/:userId', async ({ ctx, params }) => {
    await removeTeamMember(ctx, await getTeam(ctx, params.organizationId, params.teamId), params.userId);
    return { status: 204 };
  });

  r.get('/v1/orgs/:organizationId/members/:userId/teams', async ({ ctx, params, query }) => {
    const page = await listMemberTeams(ctx, params.organizationId, params.userId, { title: optionalParam(query, 'title') }, pageArgs(query), REST_MAX);
    return {
      status: 200,
      body: await renderList(ctx, page, async (c, item) => ({ team: await presentTeam(c, item.team), member: { role: item.role } })),
    };
  });
}
