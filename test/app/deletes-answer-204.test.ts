/**
 * The API document's rule 5: a delete answers 204, also when its target does not exist. Walks every
 * DELETE route of the route table (the document's and the spec's deletes the server has), so one
 * added later without a factory here fails. For each: the target is built, deleted (204), deleted again (204); a never-existing id and
 * a missing parent answer 204; and callers who cannot see it (another organization's admin, a guest
 * of its own organization for content closed to them) get the same 204 while nothing is deleted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/clients';
import { gid, memberGid, mutation, send } from '../support/doors';
import { buildMember, buildOrganization, type Actor, type OrgFixture } from '../support/factories';
import { makeIdp } from '../support/saml-idp';
import { restOperations } from '../support/surface';

const deleteRoutes = restOperations().filter((op) => op.method === 'DELETE');

/** What a factory built: the ids the operation's path names, and a way to see whether the target is still there. */
interface Built {
  ids: Record<string, string>;
  present(): Promise<boolean>;
  /** True when a guest of the organization may not see the target: they must get the missing answer. */
  hiddenFromGuest?: boolean;
}

let t: TestApp;
let acme: OrgFixture;
let other: OrgFixture;
let guest: Actor;
let serial = 0;

const org = () => `/v1/orgs/${acme.organizationId}`;
const as = (method: string, path: string, body?: unknown) => send(t, acme.admin.token, method, path, body);
const ok = async (path: string) => (await t.rest('GET', path, { token: acme.admin.token })).status === 200;
const listed = async (path: string, id: string) => ((await as('GET', path)).items as { id: string }[]).some((item) => item.id === id);
const name = (prefix: string) => `${prefix}-${++serial}`;

const newSpace = async () => (await as('POST', `${org()}/spaces`, { title: name('Space') })).id as string;
const newSite = async () => (await as('POST', `${org()}/sites`, { title: name('Site') })).id as string;
const newChangeRequest = async (spaceId: string) => (await as('POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'Edits' })).number as number;

async function comment(base: string) {
  return (await as('POST', `${base}/comments`, { body: { markdown: 'A remark' } })).id as string;
}

async function commentIds(withChangeRequest: boolean) {
  const spaceId = await newSpace();
  const changeRequestId = withChangeRequest ? String(await newChangeRequest(spaceId)) : '';
  const base = withChangeRequest ? `/v1/spaces/${spaceId}/change-requests/${changeRequestId}` : `/v1/spaces/${spaceId}`;
  const commentId = await comment(base);
  return { base, ids: { spaceId, ...(withChangeRequest ? { changeRequestId } : {}), commentId } };
}

async function integration(): Promise<string> {
  const integrationName = name('gone-notes');
  await as('POST', `/v1/integrations/${integrationName}`, {
    organization: acme.organizationId,
    title: 'Notes',
    description: 'Notes',
    scopes: ['space:content:read'],
    script: 'export default { fetch() { return new Response("ok"); } };',
    visibility: 'private',
  });
  return integrationName;
}

async function installation() {
  const integrationName = await integration();
  const { id } = await as('POST', `/v1/integrations/${integrationName}/installations`, { organization: acme.organizationId });
  return { integrationName, installationId: id as string };
}

async function granted(path: string, match: (grant: { user?: { id: string }; team?: { id: string } }) => boolean): Promise<boolean> {
  return ((await as('GET', path)).items as { user?: { id: string }; team?: { id: string } }[]).some(match);
}

async function devModeOn(integrationName: string): Promise<boolean> {
  const res = await t.graphql('query($n: String!) { integration(name: $n) { devMode { tunnelUrl } } }', { n: integrationName }, acme.admin.token);
  return res.body.data.integration?.devMode != null;
}

/** One factory per DELETE route. */
const FACTORIES: Record<string, () => Promise<Built>> = {
  '/v1/collections/:collectionId': async () => {
    const { id } = await as('POST', `${org()}/collections`, { title: name('Shelf') });
    return { ids: { collectionId: id }, present: () => ok(`/v1/collections/${id}`) };
  },
  '/v1/spaces/:spaceId': async () => {
    const spaceId = await newSpace();
    return { ids: { spaceId }, hiddenFromGuest: true, present: async () => {
        const res = await t.rest('GET', `/v1/spaces/${spaceId}`, { token: acme.admin.token });
        return res.status === 200 && res.body.deletedAt === undefined;
      },
    };
  },
  '/v1/spaces/:spaceId/comments/:commentId': async () => {
    const { base, ids } = await commentIds(false);
    return { ids, hiddenFromGuest: true, present: () => ok(`${base}/comments/${ids.commentId}`) };
  },
  '/v1/spaces/:spaceId/comments/:commentId/replies/:replyId': async () => {
    const { base, ids } = await commentIds(false);
    const { id } = await as('POST', `${base}/comments/${ids.commentId}/replies`, { body: { markdown: 'A reply' } });
    return { ids: { ...ids, replyId: id }, hiddenFromGuest: true, present: () => ok(`${base}/comments/${ids.commentId}/replies/${id}`) };
  },
  '/v1/spaces/:spaceId/change-requests/:changeRequestId/comments/:commentId': async () => {
    const { base, ids } = await commentIds(true);
    return { ids, hiddenFromGuest: true, present: () => ok(`${base}/comments/${ids.commentId}`) };
  },
  '/v1/spaces/:spaceId/change-requests/:changeRequestId/comments/:commentId/replies/:replyId': async () => {
    const { base, ids } = await commentIds(true);
    const { id } = await as('POST', `${base}/comments/${ids.commentId}/replies`, { body: { markdown: 'A reply' } });
    return { ids: { ...ids, replyId: id }, hiddenFromGuest: true, present: () => ok(`${base}/comments/${ids.commentId}/replies/${id}`) };
  },
  '/v1/orgs/:organizationId/sites/:siteId': async () => {
    const siteId = await newSite();
    return { ids: { siteId }, present: () => ok(`${org()}/sites/${siteId}`) };
  },
  '/v1/orgs/:organizationId/sites/:siteId/sections/:siteSectionId': async () => {
    const siteId = await newSite();
    const { id } = await as('POST', `${org()}/sites/${siteId}/sections`, { spaceId: await newSpace(), title: 'Guides' });
    return { ids: { siteId, siteSectionId: id }, present: () => listed(`${org()}/sites/${siteId}/sections`, id) };
  },
  '/v1/orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId': async () => {
    const siteId = await newSite();
    const { id } = await as('POST', `${org()}/sites/${siteId}/site-spaces`, { spaceId: await newSpace() });
    return { ids: { siteId, siteSpaceId: id }, present: () => listed(`${org()}/sites/${siteId}/site-spaces`, id) };
  },
  '/v1/orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId': async () => {
    const siteId = await newSite();
    const section = await as('POST', `${org()}/sites/${siteId}/sections`, { spaceId: await newSpace(), title: 'Guides' });
    const { id } = await as('POST', `${org()}/sites/${siteId}/section-groups`, { title: 'Group', sections: [section.id] });
    return { ids: { siteId, siteSectionGroupId: id }, present: () => listed(`${org()}/sites/${siteId}/section-groups`, id) };
  },
  '/v1/orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId/sections/:siteSectionId': async () => {
    const siteId = await newSite();
    const section = await as('POST', `${org()}/sites/${siteId}/sections`, { spaceId: await newSpace(), title: 'Guides' });
    const group = await as('POST', `${org()}/sites/${siteId}/section-groups`, { title: 'Group', sections: [section.id] });
    const inGroup = async () => ((await as('GET', `${org()}/sites/${siteId}/section-groups`)).items as { id: string; sections: { id: string }[] }[]).some((g) => g.id === group.id && g.sections.some((s) => s.id === section.id));
    return { ids: { siteId, siteSectionGroupId: group.id, siteSectionId: section.id }, present: inGroup };
  },
  '/v1/orgs/:organizationId/sites/:siteId/share-links/:shareLinkId': async () => {
    const siteId = await newSite();
    const { id } = await as('POST', `${org()}/sites/${siteId}/share-links`, { name: 'Preview' });
    return { ids: { siteId, shareLinkId: id }, present: () => listed(`${org()}/sites/${siteId}/share-links`, id) };
  },
  '/v1/orgs/:organizationId/sites/:siteId/redirects/:siteRedirectId': async () => {
    const siteId = await newSite();
    const { id: siteSpaceId } = await as('POST', `${org()}/sites/${siteId}/site-spaces`, { spaceId: await newSpace() });
    const { id } = await as('POST', `${org()}/sites/${siteId}/redirects`, { source: '/old', destination: { kind: 'site-space', siteSpaceId } });
    return { ids: { siteId, siteRedirectId: id }, present: () => listed(`${org()}/sites/${siteId}/redirects`, id) };
  },
  '/v1/orgs/:organizationId/link-invites/:inviteId': async () => {
    const { id } = await as('POST', `${org()}/link-invites`, { role: 'comment' });
    return { ids: { inviteId: id }, present: () => ok(`${org()}/link-invites/${id}`) };
  },
  '/v1/orgs/:organizationId/members/:userId': async () => {
    const { userId } = await buildMember(t.db, acme.organizationId, 'read');
    return { ids: { userId }, present: () => ok(`${org()}/members/${userId}`) };
  },
  '/v1/orgs/:organizationId/teams/:teamId': async () => {
    const { id } = await as('PUT', `${org()}/teams`, { title: name('Team') });
    return { ids: { teamId: id }, present: () => ok(`${org()}/teams/${id}`) };
  },
  '/v1/orgs/:organizationId/teams/:teamId/members/:userId': async () => {
    const { userId } = await buildMember(t.db, acme.organizationId, 'read');
    const { id } = await as('PUT', `${org()}/teams`, { title: name('Team'), members: [userId] });
    const inTeam = async () => ((await as('GET', `${org()}/teams/${id}/members`)).items as { organization: { user: { id: string } } }[]).some((m) => m.organization.user.id === userId);
    return { ids: { teamId: id, userId }, present: inTeam };
  },
  '/v1/orgs/:organizationId/saml/:samlProviderId': async () => {
    const idp = await makeIdp();
    const { id } = await as('POST', `${org()}/saml`, { label: 'Okta', entityID: idp.entityId, ssoURL: idp.ssoUrl, certificate: idp.certificate });
    return { ids: { samlProviderId: id }, present: () => ok(`${org()}/saml/${id}`) };
  },
  '/v1/orgs/:organizationId/translations/:translationId': async () => {
    const { id } = await as('POST', `${org()}/translations`, { language: 'fr', source: { space: await newSpace(), language: 'en' } });
    return { ids: { translationId: id }, present: () => ok(`${org()}/translations/${id}`) };
  },
  '/v1/orgs/:organizationId/openapi/:specSlug': async () => {
    const specSlug = name('pets');
    const text = JSON.stringify({ openapi: '3.0.3', info: { title: 'Pets', version: '1.0.0' }, paths: {} });
    await as('POST', `${org()}/openapi`, { slug: specSlug, source: { text } });
    return { ids: { specSlug }, present: () => ok(`${org()}/openapi/${specSlug}`) };
  },
  '/v1/integrations/:integrationName': async () => {
    const integrationName = await integration();
    return { ids: { integrationName }, present: () => ok(`/v1/integrations/${integrationName}`) };
  },
  '/v1/integrations/:integrationName/dev': async () => {
    const integrationName = await integration();
    await as('PUT', `/v1/integrations/${integrationName}/dev`, { tunnelUrl: `http://${TUNNEL}/events` });
    return { ids: { integrationName }, present: () => devModeOn(integrationName) };
  },
  '/v1/spaces/:spaceId/permissions/users/:userId': async () => {
    const spaceId = await newSpace();
    const { userId } = await buildMember(t.db, acme.organizationId, null);
    await as('POST', `/v1/spaces/${spaceId}/permissions`, { role: 'edit', users: [userId] });
    return { ids: { spaceId, userId }, hiddenFromGuest: true, present: () => granted(`/v1/spaces/${spaceId}/permissions/users`, (g) => g.user?.id === userId) };
  },
  '/v1/spaces/:spaceId/permissions/teams/:teamId': async () => {
    const spaceId = await newSpace();
    const { id } = await as('PUT', `${org()}/teams`, { title: name('Team') });
    await as('POST', `/v1/spaces/${spaceId}/permissions`, { role: 'edit', teams: [id] });
    return { ids: { spaceId, teamId: id }, hiddenFromGuest: true, present: () => granted(`/v1/spaces/${spaceId}/permissions/teams`, (g) => g.team?.id === id) };
  },
  '/v1/collections/:collectionId/permissions/users/:userId': async () => {
    const { id: collectionId } = await as('POST', `${org()}/collections`, { title: name('Shelf') });
    const { userId } = await buildMember(t.db, acme.organizationId, null);
    await as('POST', `/v1/collections/${collectionId}/permissions`, { role: 'edit', users: [userId] });
    return { ids: { collectionId, userId }, hiddenFromGuest: true, present: () => granted(`/v1/collections/${collectionId}/permissions/users`, (g) => g.user?.id === userId) };
  },
  '/v1/collections/:collectionId/permissions/teams/:teamId': async () => {
    const { id: collectionId } = await as('POST', `${org()}/collections`, { title: name('Shelf') });
    const { id } = await as('PUT', `${org()}/teams`, { title: name('Team') });
    await as('POST', `/v1/collections/${collectionId}/permissions`, { role: 'edit', teams: [id] });
    return { ids: { collectionId, teamId: id }, hiddenFromGuest: true, present: () => granted(`/v1/collections/${collectionId}/permissions/teams`, (g) => g.team?.id === id) };
  },
  '/v1/integrations/:integrationName/installations/:installationId': async () => {
    const { integrationName, installationId } = await installation();
    return { ids: { integrationName, installationId }, present: () => ok(`/v1/integrations/${integrationName}/installations/${installationId}`) };
  },
  '/v1/integrations/:integrationName/installations/:installationId/sites/:siteId': async () => {
    const { integrationName, installationId } = await installation();
    const siteId = await newSite();
    await as('POST', `/v1/integrations/${integrationName}/installations/${installationId}/sites`, { siteId });
    return { ids: { integrationName, installationId, siteId }, present: () => ok(`/v1/integrations/${integrationName}/installations/${installationId}/sites/${siteId}`) };
  },
  '/v1/integrations/:integrationName/installations/:installationId/spaces/:spaceId': async () => {
    const { integrationName, installationId } = await installation();
    const spaceId = await newSpace();
    await as('POST', `/v1/integrations/${integrationName}/installations/${installationId}/spaces`, { space: spaceId });
    return { ids: { integrationName, installationId, spaceId }, present: () => ok(`/v1/integrations/${integrationName}/installations/${installationId}/spaces/${spaceId}`) };
  },
};

/** A never-existing value for a path parameter, in the shape its kind of id takes. */
const missingValue = (param: string) => (param === 'specSlug' || param === 'integrationName' ? 'no-such-thing' : param === 'changeRequestId' ? '999999' : 'doesNotExist00000000');

const MISSING_ID = 'doesNotExist00000000';

const paramsOf = (template: string) => [...template.matchAll(/:(\w+)/g)].map((m) => m[1]);
const fill = (template: string, ids: Record<string, string>) => template.replace(/:(\w+)/g, (_, p: string) => ids[p]);

// A dev-mode tunnel is checked before it is stored; nothing is sent to it here.
const TUNNEL = '127.0.0.1:9';

beforeAll(async () => {
  // The job queue runs: an OpenAPI spec is only accepted when its processing can be queued.
  t = await startTestApp({}, { jobs: true });
  acme = await buildOrganization(t.db, 'Acme');
  other = await buildOrganization(t.db, 'Other');
  guest = await buildMember(t.db, acme.organizationId, null, 'Gus Guest');
  t.config.fetchAllowHosts = [TUNNEL];
});
afterAll(() => t?.close());

describe('DELETE answers 204 when the target does not exist (API document, rule 5)', () => {
  it('has a factory for every DELETE route', () => {
    expect(deleteRoutes.length).toBeGreaterThan(20);
    expect(deleteRoutes.map((op) => op.path).filter((path) => !FACTORIES[path])).toEqual([]);
  });

  for (const { path: template } of deleteRoutes) {
    describe(template, () => {
      const params = paramsOf(template);
      const remove = (ids: Record<string, string>, token = acme.admin.token) => t.rest('DELETE', fill(template, ids), { token });

      it('deletes the target (204), then answers 204 again, and 204 for an id that never existed', async () => {
        const built = await FACTORIES[template]();
        const ids = { organizationId: acme.organizationId, ...built.ids };
        expect(await built.present()).toBe(true);
        expect((await remove(ids)).status).toBe(204);
        expect(await built.present()).toBe(false);
        const again = await remove(ids);
        expect(again.status).toBe(204);
        expect(again.body).toBeUndefined();
        expect((await remove({ ...ids, [params.at(-1)!]: missingValue(params.at(-1)!) })).status).toBe(204);
      });

      if (params.length > 1) {
        it('answers 204 when a parent of the target does not exist', async () => {
          const built = await FACTORIES[template]();
          const ids = { organizationId: acme.organizationId, ...built.ids };
          const parent = params.at(-2)!;
          expect((await remove({ ...ids, [parent]: missingValue(parent) })).status).toBe(204);
          expect(await built.present()).toBe(true);
        });
      }

      it('answers a caller who cannot see the target exactly like a missing one, and deletes nothing', async () => {
        const built = await FACTORIES[template]();
        const ids = { organizationId: acme.organizationId, ...built.ids };
        expect((await remove(ids, other.admin.token)).status).toBe(204);
        if (params.includes('organizationId')) expect((await remove({ ...ids, organizationId: other.organizationId }, other.admin.token)).status).toBe(204);
        const byGuest = await remove(ids, guest.token);
        if (built.hiddenFromGuest) expect(byGuest.status).toBe(204);
        else expect([204, 403]).toContain(byGuest.status);
        expect(await built.present()).toBe(true);
      });
    });
  }
});

/** The GraphQL twins of the deletes, each with an input naming a target that never existed. */
const GRAPHQL_DELETES: [string, () => Record<string, unknown>][] = [
  ['collectionDelete', () => ({ collectionId: gid('Collection', MISSING_ID) })],
  ['spaceDelete', () => ({ spaceId: gid('Space', MISSING_ID) })],
  ['commentDelete', () => ({ commentId: gid('Comment', MISSING_ID) })],
  ['commentReplyDelete', () => ({ replyId: gid('CommentReply', MISSING_ID) })],
  ['siteDelete', () => ({ siteId: gid('Site', MISSING_ID) })],
  ['siteSectionRemove', () => ({ sectionId: gid('SiteSection', MISSING_ID) })],
  ['siteSpaceRemove', () => ({ siteSpaceId: gid('SiteSpace', MISSING_ID) })],
  ['siteSectionGroupRemove', () => ({ groupId: gid('SiteSectionGroup', MISSING_ID) })],
  ['shareLinkDelete', () => ({ shareLinkId: gid('ShareLink', MISSING_ID) })],
  ['siteRedirectDelete', () => ({ redirectId: gid('SiteRedirect', MISSING_ID) })],
  ['organizationLinkInviteDelete', () => ({ organizationId: gid('Organization', acme.organizationId), inviteId: MISSING_ID })],
  ['memberRemove', () => ({ memberId: memberGid(acme.organizationId, MISSING_ID) })],
  ['teamDelete', () => ({ teamId: gid('Team', MISSING_ID) })],
  ['samlProviderDelete', () => ({ samlProviderId: gid('SamlProvider', MISSING_ID) })],
  ['translationDelete', () => ({ translationId: gid('Translation', MISSING_ID) })],
  ['openApiSpecDelete', () => ({ specId: gid('OpenAPISpec', MISSING_ID) })],
  ['integrationUnpublish', () => ({ integrationId: gid('Integration', MISSING_ID) })],
  ['integrationUninstall', () => ({ installationId: gid('IntegrationInstallation', MISSING_ID) })],
  ['integrationSiteUninstall', () => ({ installationId: gid('IntegrationInstallation', MISSING_ID), siteId: gid('Site', MISSING_ID) })],
  ['integrationDevModeDisable', () => ({ integrationId: gid('Integration', MISSING_ID) })],
];

describe('the GraphQL twins of the deletes agree: a target that never existed is a success', () => {
  it.each(GRAPHQL_DELETES.map(([name, input]) => [name, input] as const))('%s', async (name, input) => {
    const call = mutation(name, input());
    const res = await t.graphql(call.query, call.variables, acme.admin.token);
    expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
    expect(res.body.data[name].userErrors).toEqual([]);
  });
});
