/**
 * A broad, real use of one organization through both doors, for test/app/tenant-scoping.test.ts:
 * an organization built through /v1 and GraphQL (collections, spaces with pages and files, change
 * requests, comments, teams, grants, invites, sites with their structure, share links and a
 * published page, translations run, OpenAPI specs processed, a SAML sign-in, an installed
 * integration), then every GET route of the route table with real ids, every field of every node
 * GraphQL can reach from the organization and the viewer, and every REST write and GraphQL mutation
 * probed once. What each step answered is kept, so the test can show the sweep really ran.
 */
import { expect } from 'vitest';
import { getNamedType, getNullableType, type GraphQLObjectType, isEnumType, isInputObjectType, isInterfaceType, isLeafType, isListType, isNonNullType, isObjectType, isUnionType, type GraphQLField, type GraphQLInputType, type GraphQLNamedType } from 'graphql';
import { schema } from '../../src/app/schema';
import { contentBench } from './change-requests';
import { TEST_ORIGIN, type TestApp } from './clients';
import { gid, send } from './doors';
import { buildMember, buildTeam, type Actor, type OrgFixture } from './factories';
import { graphqlMutations, restOperations } from './surface';
import { encodeResponse, makeIdp, readAuthnRequest, signedResponse } from './saml-idp';
import type { TranslateServer } from './translate-server';

type Json = Record<string, any>;

export interface SweepLog {
  /** `METHOD path -> status` of every REST GET of the sweep, as the admin. */
  gets: Map<string, number>;
  /** GraphQL node types whose fields were read, with the number of fields. */
  nodeFields: Map<string, number>;
  probes: number;
  /** Requests answered with an internal error (HTTP 5xx, GraphQL INTERNAL_SERVER_ERROR). */
  internalErrors: string[];
}

const OPENAPI = JSON.stringify({ openapi: '3.0.3', info: { title: 'Pets', version: '1.0.0' }, paths: { '/pets': { get: { summary: 'List pets', responses: { 200: { description: 'ok' } } } } } });

/** Builds the organization's content and answers the ids the route table's parameters name. */
export async function buildTenant(t: TestApp, acme: OrgFixture, engine: TranslateServer): Promise<{ ids: Record<string, string>; reader: Actor }> {
  const admin = acme.admin.token;
  const org = `/v1/orgs/${acme.organizationId}`;
  const as = (method: string, path: string, body?: unknown) => send(t, admin, method, path, body);
  const reader = await buildMember(t.db, acme.organizationId, 'read', 'Rita Reader');
  const editor = await buildMember(t.db, acme.organizationId, 'edit', 'Eddie Editor');
  const team = await buildTeam(t.db, acme.organizationId, 'Writers', [{ userId: editor.userId, role: 'member' }]);
  await as('PATCH', org, { title: 'Acme Docs' });
  await as('PUT', `${org}/teams`, { title: 'Reviewers', members: [reader.userId] });
  await as('PUT', `${org}/teams/${team.id}/members`, { add: [reader.userId] });
  await as('PATCH', `${org}/members/${editor.userId}`, { role: 'create' });
  await as('POST', `${org}/invites`, { emails: ['new.person@acme.test'], role: 'read' });
  const invite = await as('POST', `${org}/link-invites`, { role: 'comment' });
  await as('PATCH', `${org}/link-invites/${invite.id}`, { role: 'read' });

  const shelf = await as('POST', `${org}/collections`, { title: 'Shelf' });
  const inner = await as('POST', `${org}/collections`, { title: 'Inner', parent: shelf.id });
  await as('PATCH', `/v1/collections/${inner.id}`, { description: 'Nested' });
  await as('POST', `/v1/collections/${shelf.id}/permissions`, { role: 'edit', teams: [team.id] });
  await as('POST', `/v1/collections/${inner.id}/permissions`, { role: 'comment', users: [reader.userId] });

  // Pages, a file and a change request with its own edits, through GraphQL.
  const bench = await contentBench(() => t, () => acme, [{ title: 'Intro', markdown: '# Welcome\n\nRead the [guide](guide).' }, { title: 'Guide', markdown: 'First step.', children: [{ title: 'Details', markdown: 'More.' }] }], ['notes.txt']);
  const space = bench.spaceId;
  await as('PATCH', `/v1/spaces/${space}`, { title: 'Handbook' });
  await as('POST', `/v1/spaces/${space}/move`, { parent: shelf.id });
  await as('POST', `/v1/spaces/${space}/permissions`, { role: 'edit', users: [reader.userId] });
  const cr = await bench.openChangeRequest('Proposed edits');
  await bench.editor(cr).create('Added in review', { markdown: 'New page.' });
  await bench.editor(cr).update('Guide', { markdown: 'First step, revised.' });
  await as('PATCH', `/v1/spaces/${space}/change-requests/${cr.id}`, { status: 'open' });
  const crComment = await as('POST', `/v1/spaces/${space}/change-requests/${cr.id}/comments`, { body: { markdown: 'Looks good' } });
  const crReply = await as('POST', `/v1/spaces/${space}/change-requests/${cr.id}/comments/${crComment.id}/replies`, { body: { markdown: 'Thanks' } });
  await as('POST', `/v1/spaces/${space}/change-requests/${cr.id}/merge`);
  const second = await bench.openChangeRequest('Still open');
  await bench.editor(second).create('Draft page', { markdown: 'Draft.' });
  await as('PATCH', `/v1/spaces/${space}/change-requests/${second.id}`, { status: 'open' });

  const guide = (await bench.pagesByTitle()).Guide;
  const comment = await as('POST', `/v1/spaces/${space}/comments`, { page: guide.id, body: { markdown: 'Is **this** right?' } });
  const reply = await as('POST', `/v1/spaces/${space}/comments/${comment.id}/replies`, { body: { markdown: 'Yes' } });
  await as('PUT', `/v1/spaces/${space}/comments/${comment.id}`, { body: { markdown: 'Is this right?' } });
  await as('PUT', `/v1/spaces/${space}/comments/${comment.id}/replies/${reply.id}`, { body: { markdown: 'Yes, it is' } });

  const plain = await as('POST', `${org}/spaces`, { title: 'Scratch' });
  await as('POST', `/v1/spaces/${plain.id}/content/template`, { id: 'team-handbook' });
  const copy = await as('POST', `/v1/spaces/${plain.id}/duplicate`);
  await as('DELETE', `/v1/spaces/${copy.id}`);
  await as('POST', `/v1/spaces/${copy.id}/restore`);
  await as('DELETE', `/v1/spaces/${copy.id}`);

  const site = await as('POST', `${org}/sites`, { title: 'Docs site', spaces: [space] });
  const siteSpace = await as('POST', `${org}/sites/${site.id}/site-spaces`, { spaceId: plain.id });
  const section = await as('POST', `${org}/sites/${site.id}/sections`, { spaceId: space, title: 'Guides' });
  const group = await as('POST', `${org}/sites/${site.id}/section-groups`, { title: 'Group', sections: [section.id] });
  const share = await as('POST', `${org}/sites/${site.id}/share-links`, { name: 'Preview' });
  const redirect = await as('POST', `${org}/sites/${site.id}/redirects`, { source: '/old-guide', destination: { kind: 'site-space', siteSpaceId: siteSpace.id } });
  await as('PUT', `${org}/sites/${site.id}/customization`, (await as('GET', `${org}/sites/${site.id}/customization`)));
  await as('PATCH', `${org}/sites/${site.id}/publishing/auth`, { fallbackURL: 'https://login.example.com/start' });
  await as('POST', `${org}/sites/${site.id}/publish`);
  const published = (await as('GET', `${org}/sites/${site.id}`)).urls.published as string;
  for (const path of ['', '/guide']) expect((await t.app.fetch(new Request(`${published}${path}`))).status).toBe(200);
  // A path that is no page: the site's redirect from it.
  expect((await t.app.fetch(new Request(`${published}/old-guide`, { redirect: 'manual' }))).status).toBe(302);

  t.config.translate = { url: engine.url, key: 'secret-key' };
  t.config.fetchAllowHosts = [engine.host];
  const translation = await as('POST', `${org}/translations`, { language: 'fr', source: { space, language: 'en' } });
  await as('POST', `${org}/translations/${translation.id}/run`);
  await until(async () => ['completed'].includes((await as('GET', `${org}/translations/${translation.id}`)).status));

  await as('POST', `${org}/openapi`, { slug: 'pets', source: { text: OPENAPI } });
  await until(async () => (await as('GET', `${org}/openapi/pets`)).processingState === 'complete');

  const idp = await makeIdp();
  const provider = await as('POST', `${org}/saml`, { label: 'Okta', entityID: idp.entityId, ssoURL: idp.ssoUrl, certificate: idp.certificate, defaultRole: 'read', defaultTeam: team.id });
  const start = await t.app.fetch(new Request(`${provider.service.startURL}?next=/home`));
  const { id: requestId } = readAuthnRequest(start.headers.get('location')!);
  const saml = encodeResponse(signedResponse(idp, { acsUrl: provider.service.acsURL, audience: provider.service.entityID, email: 'sso.person@acme.test', inResponseTo: requestId }));
  const acs = await t.app.fetch(new Request(provider.service.acsURL, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ SAMLResponse: saml }).toString() }));
  expect(acs.status, await acs.text()).toBeLessThan(400);

  const script = 'export default { fetch() { return new Response("ok"); } };';
  await as('POST', '/v1/integrations/acme-notes', { organization: acme.organizationId, title: 'Notes', description: '', scopes: ['space:content:read'], script, visibility: 'private' });
  const installation = await as('POST', '/v1/integrations/acme-notes/installations', { organization: acme.organizationId });
  await as('POST', `/v1/integrations/acme-notes/installations/${installation.id}/spaces`, { space });
  await as('POST', `/v1/integrations/acme-notes/installations/${installation.id}/sites`, { siteId: site.id });
  const integrationToken = (await as('POST', `/v1/integrations/acme-notes/installations/${installation.id}/tokens`)).token;
  expect((await t.rest('GET', `/v1/spaces/${space}/content`, { token: integrationToken })).status).toBe(200);
  const events = await as('GET', '/v1/integrations/acme-notes/events');

  const files = await as('GET', `/v1/spaces/${space}/content/files`);
  const revision = await as('GET', `/v1/spaces/${space}/content`);
  return {
    reader,
    ids: {
      organizationId: acme.organizationId,
      collectionId: shelf.id,
      spaceId: space,
      teamId: team.id,
      userId: reader.userId,
      inviteId: invite.id,
      emailDomain: 'acme.test',
      changeRequestId: cr.id,
      commentId: comment.id,
      replyId: reply.id,
      crCommentId: crComment.id,
      crReplyId: crReply.id,
      pageId: guide.id,
      pagePath: guide.path,
      fileId: files.items[0].id,
      revisionId: revision.id,
      siteId: site.id,
      publishedUrl: published,
      siteSpaceId: siteSpace.id,
      siteSectionId: section.id,
      siteSectionGroupId: group.id,
      shareLinkId: share.id,
      siteRedirectId: redirect.id,
      translationId: translation.id,
      specSlug: 'pets',
      samlProviderId: provider.id,
      integrationName: 'acme-notes',
      installationId: installation.id,
      eventId: events.items[0].id,
    },
  };
}

async function until(done: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error('the background work did not finish in time');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

const fill = (path: string, ids: Record<string, string>) => path.replace(/[:*]([A-Za-z]+)/g, (_, name: string) => ids[name] ?? `no-${name}`);

/** Every GET route, with the tenant's own ids, as each caller. */
export async function sweepGets(t: TestApp, ids: Record<string, string>, callers: Actor[], log: SweepLog): Promise<void> {
  for (const route of restOperations().filter((r) => r.method === 'GET')) {
    for (const [index, caller] of callers.entries()) {
      // A change request's routes name its own comments.
      const own = route.path.includes('/change-requests/') ? { ...ids, commentId: ids.crCommentId, replyId: ids.crReplyId } : ids;
      // The URL lookup needs a URL to look up: the site's own.
      const query = route.path.endsWith('/search') ? '?query=guide' : route.path.endsWith('/redirect') ? '?source=/old-guide' : route.path === '/v1/urls/published' ? `?url=${encodeURIComponent(ids.publishedUrl)}` : route.path.endsWith('/embed') ? '?url=https%3A%2F%2Fexample.com' : '';
      const path = fill(route.path, own) + query;
      const res = await t.app.fetch(new Request(`${TEST_ORIGIN}${path}`, { headers: { authorization: `Bearer ${caller.token}` } }));
      await res.arrayBuffer();
      if (index === 0) log.gets.set(`GET ${route.path}`, res.status);
      if (res.status >= 500) log.internalErrors.push(`GET ${path}`);
    }
  }
}

/**
 * Every field (without required arguments) of every node reachable from the organization and the
 * viewer, one request per field, each nested object with its own scalars; nodes met on the way
 * are read in turn, up to `perType` of each type. Answers the global ids met, by type.
 */
export async function sweepGraph(t: TestApp, organizationId: string, token: string, log: SweepLog, perType = 2): Promise<Map<string, string[]>> {
  const seen = new Map<string, Set<string>>();
  const queue: { type: string; id: string }[] = [];
  const enqueue = (type: string, id: string) => {
    const ids = seen.get(type) ?? new Set<string>();
    if (!ids.has(id) && ids.size < perType) {
      ids.add(id);
      queue.push({ type, id });
    }
    seen.set(type, ids);
  };
  const collect = (value: unknown) => {
    if (Array.isArray(value)) return value.forEach(collect);
    if (!value || typeof value !== 'object') return;
    const { __typename: type, id } = value as Json;
    const isNode = typeof type === 'string' && (schema.getType(type) as GraphQLObjectType)?.getInterfaces?.().some((i) => i.name === 'Node');
    if (isNode && typeof id === 'string') enqueue(type, id);
    Object.values(value).forEach(collect);
  };
  const ask = async (query: string, variables: Json) => {
    const res = await t.graphql(query, variables, token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    if (res.body.errors?.some((e: Json) => e.extensions?.code === 'INTERNAL_SERVER_ERROR')) log.internalErrors.push(query);
    collect(res.body.data);
  };
  enqueue('Organization', gid('Organization', organizationId));
  for (const field of Object.values((schema.getType('Viewer') as GraphQLObjectType).getFields())) {
    if (!hasRequiredArgs(field)) await ask(`{ viewer { ${fieldSelection(field)} } }`, {});
  }
  for (let next = queue.shift(); next; next = queue.shift()) {
    const type = schema.getType(next.type) as GraphQLObjectType;
    const fields = Object.values(type.getFields()).filter((f) => !hasRequiredArgs(f));
    for (const field of fields) await ask(`query ($id: ID!) { node(id: $id) { ... on ${type.name} { __typename id ${fieldSelection(field)} } } }`, { id: next.id });
    log.nodeFields.set(type.name, fields.length);
  }
  return new Map([...seen].map(([type, ids]) => [type, [...ids]]));
}

/** Small pages, so that a field with nested lists stays within the query cost limit. */
const pageOf = (field: GraphQLField<unknown, unknown>) => (field.args.some((a) => a.name === 'first') ? '(first: 3)' : '');

const hasRequiredArgs = (field: GraphQLField<unknown, unknown>) => field.args.some((a) => isNonNullType(a.type) && a.defaultValue === undefined);

/**
 * A selection of a type: its scalar fields, and one level more of objects inside it (a connection
 * and its edges are wrappers: the nodes inside them are that next level). Nested plain lists are
 * left out, and connections ask for small pages, to stay within the query cost limit: a field
 * that is itself a plain list gets its items' scalars only (`fieldSelection`).
 */
function fieldSelection(field: GraphQLField<unknown, unknown>): string {
  const plainList = isListType(getNullableType(field.type));
  return `${field.name}${pageOf(field)} ${selection(getNamedType(field.type), plainList ? 1 : 0)}`;
}

function selection(type: GraphQLNamedType, depth: number): string {
  const named = getNamedType(type);
  if (isLeafType(named)) return '';
  if (isUnionType(named) || isInterfaceType(named)) {
    const members = isUnionType(named) ? named.getTypes() : schema.getPossibleTypes(named);
    return `{ __typename ${members.map((m) => `... on ${m.name} ${selection(m, depth)}`).join(' ')} }`;
  }
  if (!isObjectType(named)) return '';
  const parts = ['__typename'];
  const wrapper = /(Connection|Edge)$/.test(named.name);
  for (const field of Object.values(named.getFields())) {
    if (hasRequiredArgs(field)) continue;
    const inner = getNamedType(field.type);
    const plainList = isListType(getNullableType(field.type)) && !wrapper;
    if (isLeafType(inner)) parts.push(field.name);
    else if (wrapper) parts.push(`${field.name} ${selection(inner, depth)}`);
    else if (depth < 1 && !plainList) parts.push(`${field.name}${pageOf(field)} ${selection(inner, depth + 1)}`);
  }
  return `{ ${parts.join(' ')} }`;
}

/** The node type an input field names by its id (`siteSpaceId` -> SiteSpace), where the name alone does not say. */
const ID_TYPES: Record<string, string> = { member: 'OrganizationMember', reply: 'CommentReply', spec: 'OpenAPISpec', provider: 'SamlProvider', section: 'SiteSection', group: 'SiteSectionGroup', parent: 'Collection' };

/** The smallest input of a type, its id fields filled with nodes of the tenant. */
function probeInput(type: GraphQLInputType, nodes: Map<string, string[]>): unknown {
  if (isNonNullType(type)) return probeInput(type.ofType, nodes);
  if (isListType(type)) return [];
  if (isEnumType(type)) return type.getValues()[0].name;
  if (isInputObjectType(type)) {
    const out: Json = {};
    for (const field of Object.values(type.getFields())) {
      const kind = /^(.+)Id$/.exec(field.name)?.[1];
      const node = kind && nodes.get(ID_TYPES[kind] ?? kind[0].toUpperCase() + kind.slice(1))?.[0];
      if (node) out[field.name] = node;
      else if (isNonNullType(field.type)) out[field.name] = probeInput(field.type, nodes);
    }
    return out;
  }
  return ({ String: 'Probe', Int: 1, Float: 1, Boolean: false, ID: 'Probe' } as Json)[String(type)] ?? 'Probe';
}

/**
 * Every REST write and every GraphQL mutation, once, with the tenant's ids and a small input:
 * answers vary, the statements are the point. Deletes last, so earlier probes find what they name.
 */
export async function sweepWrites(t: TestApp, ids: Record<string, string>, nodes: Map<string, string[]>, token: string, log: SweepLog): Promise<void> {
  const isDelete = (name: string) => /Delete$|Remove$|^DELETE$/.test(name);
  const mutations = graphqlMutations().filter((m) => m.input);
  const routes = restOperations().filter((r) => r.method !== 'GET' && r.method !== 'HEAD');
  for (const deletes of [false, true]) {
    for (const mutation of mutations.filter((m) => isDelete(m.name) === deletes)) {
      const input = probeInput(mutation.input!, nodes);
      const res = await t.graphql(`mutation ($input: ${mutation.inputTypeName}) { ${mutation.name}(input: $input) { __typename } }`, { input }, token);
      if (res.status >= 500 || res.body.errors?.some((e: Json) => e.extensions?.code === 'INTERNAL_SERVER_ERROR')) log.internalErrors.push(mutation.name);
      log.probes++;
    }
    for (const route of routes.filter((r) => isDelete(r.method) === deletes)) {
      const body = route.method === 'DELETE' ? undefined : JSON.stringify({ title: 'Probe' });
      const res = await t.app.fetch(new Request(`${TEST_ORIGIN}${fill(route.path, ids)}`, { method: route.method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body }));
      await res.arrayBuffer();
      if (res.status >= 500) log.internalErrors.push(`${route.method} ${route.path}`);
      log.probes++;
    }
  }
}
