/**
 * The world of the existence-oracle sweep (test/security/node-oracles.test.ts): organization Acme
 * built broadly (test/support/tenant-sweep.ts), plus content closed to everyone but one team (a
 * collection and a space in it with pages, a file, a change request, comments and replies), and
 * the callers who may or may not see Acme's objects. One real object of every node type is found
 * by walking the graph as Acme's admin, so a node type added later is found the same way.
 */
import { randomInt } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { getNamedType, isAbstractType, isLeafType, isNonNullType, isObjectType, type GraphQLNamedType, type GraphQLObjectType } from 'graphql';
import { organizationMembers } from '../../src/db/schema/members';
import { issueToken } from '../../src/modules/integrations/tokens';
import { schema } from '../../src/app/schema';
import { contentBench } from './change-requests';
import { startTestApp, type TestApp } from './clients';
import { gid, send } from './doors';
import { buildMember, buildOrganization, buildTeam, type Actor, type OrgFixture } from './factories';
import { buildTenant } from './tenant-sweep';
import type { TranslateServer } from './translate-server';

type Json = Record<string, any>;

/** Who asks: nobody, people of Other, people of Acme, and integrations Other publishes. */
export const CALLERS = ['anonymous', 'outsider', 'outsiderGuest', 'guest', 'reader', 'disabled', 'foreignInstallation', 'foreignIntegration', 'insider', 'admin'] as const;
export type Caller = (typeof CALLERS)[number];

export interface OracleWorld {
  t: TestApp;
  acme: OrgFixture;
  other: OrgFixture;
  tokens: Record<Caller, string | null>;
  /** REST ids of Acme's objects, by the name a route's path parameter gives them. */
  ids: Record<string, string>;
  /** The same for the objects closed to everyone but the Insiders team, where there is one. */
  hiddenIds: Record<string, string>;
  /** Node type -> global ids of a few of Acme's objects of that type. */
  nodes: Map<string, string[]>;
  /** The same, of objects readers may not see, for the types that have some. */
  hiddenNodes: Map<string, string[]>;
  /** The user id of each caller that is a person. */
  userIds: Partial<Record<Caller, string>>;
}

export const nodeTypes = (): GraphQLObjectType[] =>
  Object.values(schema.getTypeMap()).filter((type): type is GraphQLObjectType => isObjectType(type) && type.getInterfaces().some((i) => i.name === 'Node'));

const isNode = (type: GraphQLNamedType) => (isObjectType(type) && type.getInterfaces().some((i) => i.name === 'Node')) || (isAbstractType(type) && schema.getPossibleTypes(type).some((m) => m.getInterfaces().some((i) => i.name === 'Node')));

/** Selects, under a type, every field leading to nodes (through lists, connections and plain objects), as `__typename id`. */
function nodeSelection(type: GraphQLNamedType, depth = 0): string {
  if (!isObjectType(type) || depth > 2) return '';
  const parts: string[] = [];
  for (const field of Object.values(type.getFields())) {
    if (field.args.some((a) => isNonNullType(a.type) && a.defaultValue === undefined)) continue;
    const inner = getNamedType(field.type);
    const page = field.args.some((a) => a.name === 'first') ? '(first: 3)' : '';
    if (isNode(inner)) parts.push(`${field.name}${page} { __typename ... on Node { id } }`);
    else if (!isLeafType(inner)) {
      const sub = nodeSelection(inner, depth + 1);
      if (sub) parts.push(`${field.name}${page} ${sub}`);
    }
  }
  return parts.length ? `{ ${parts.join(' ')} }` : '';
}

/**
 * A few nodes of every type reachable from `roots`, breadth first, in the order met. Nodes for
 * which `expand` says no are recorded but not walked into.
 */
const PER_TYPE = 4;

async function discover(t: TestApp, token: string, roots: string[], expand: (type: string, id: string) => Promise<boolean> = async () => true): Promise<Map<string, string[]>> {
  const found = new Map<string, string[]>();
  const record = (type: string, id: string) => found.set(type, [...(found.get(type) ?? []), id]);
  const walked = new Set<string>();
  const queue = [...roots];
  const collect = (value: unknown) => {
    if (Array.isArray(value)) return value.forEach(collect);
    if (!value || typeof value !== 'object') return;
    const { __typename: type, id } = value as Json;
    if (typeof id === 'string' && typeof type === 'string' && !walked.has(id) && (found.get(type)?.length ?? 0) < PER_TYPE) {
      record(type, id);
      walked.add(id);
      queue.push(id);
    }
    Object.values(value).forEach(collect);
  };
  for (const root of roots) walked.add(root);
  const typeOfRoot = await t.graphql('query ($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }', { ids: roots }, token);
  for (const node of typeOfRoot.body.data.nodes) record(node.__typename, node.id);
  for (let id = queue.shift(); id; id = queue.shift()) {
    const { body } = await t.graphql('query ($id: ID!) { node(id: $id) { __typename } }', { id }, token);
    const type = body.data?.node?.__typename as string | undefined;
    if (!type || !(await expand(type, id))) continue;
    const selection = nodeSelection(schema.getType(type)!);
    if (!selection) continue;
    const res = await t.graphql(`query ($id: ID!) { node(id: $id) { ... on ${type} ${selection} } }`, { id }, token);
    collect(res.body.data);
  }
  return found;
}

/** A made-up id shaped like `id`: each letter or digit replaced by a random one of its kind. */
export function madeUp(id: string): string {
  const pick = (set: string) => set[randomInt(set.length)];
  return id.replace(/[a-z]/g, () => pick('abcdefghijklmnopqrstuvwxyz')).replace(/[A-Z]/g, () => pick('ABCDEFGHIJKLMNOPQRSTUVWXYZ')).replace(/[0-9]/g, () => pick('0123456789'));
}

/** The REST id inside a global id. */
export const restIdOf = (globalId: string) => Buffer.from(globalId, 'base64').toString('utf8').replace(/^[^:]+:/, '');

const SCRIPT = 'export default { fetch() { return new Response("ok"); } };';

export async function buildOracleWorld(engine: TranslateServer): Promise<OracleWorld> {
  const t = await startTestApp({}, { jobs: true });
  const acme = await buildOrganization(t.db, 'Acme');
  const other = await buildOrganization(t.db, 'Other');
  const { ids, reader } = await buildTenant(t, acme, engine);
  const as = (method: string, path: string, body?: unknown) => send(t, acme.admin.token, method, path, body);

  // Closed content: a collection and a space in it that members get nothing of by default, opened to the Insiders team only.
  const insider = await buildMember(t.db, acme.organizationId, 'read', 'Ina Insider');
  const disabled = await buildMember(t.db, acme.organizationId, 'edit', 'Dirk Disabled');
  const insiders = await buildTeam(t.db, acme.organizationId, 'Insiders', [{ userId: insider.userId, role: 'member' }, { userId: disabled.userId, role: 'member' }]);
  const vault = await as('POST', `/v1/orgs/${acme.organizationId}/collections`, { title: 'Vault' });
  await as('PATCH', `/v1/collections/${vault.id}`, { defaultLevel: null });
  await as('POST', `/v1/collections/${vault.id}/permissions`, { role: 'read', teams: [insiders.id] });
  const bench = await contentBench(() => t, () => acme, [{ title: 'Secret', markdown: 'Hush.', children: [{ title: 'Deeper', markdown: 'More.' }] }], ['secret.txt']);
  const space = bench.spaceId;
  await as('POST', `/v1/spaces/${space}/move`, { parent: vault.id });
  await as('PATCH', `/v1/spaces/${space}`, { defaultLevel: null });
  await as('POST', `/v1/spaces/${space}/permissions`, { role: 'edit', teams: [insiders.id] });
  const cr = await bench.openChangeRequest('Hidden edits');
  await bench.editor(cr).create('Hidden draft', { markdown: 'Draft.' });
  await as('PATCH', `/v1/spaces/${space}/change-requests/${cr.id}`, { status: 'open' });
  const crComment = await as('POST', `/v1/spaces/${space}/change-requests/${cr.id}/comments`, { body: { markdown: 'Hidden review' } });
  const crReply = await as('POST', `/v1/spaces/${space}/change-requests/${cr.id}/comments/${crComment.id}/replies`, { body: { markdown: 'Hidden answer' } });
  const page = (await bench.pagesByTitle()).Secret;
  const comment = await as('POST', `/v1/spaces/${space}/comments`, { page: page.id, body: { markdown: 'Hidden question' } });
  const reply = await as('POST', `/v1/spaces/${space}/comments/${comment.id}/replies`, { body: { markdown: 'Hidden reply' } });
  const files = await as('GET', `/v1/spaces/${space}/content/files`);
  const hiddenIds = {
    collectionId: vault.id,
    spaceId: space,
    changeRequestId: cr.id,
    commentId: comment.id,
    replyId: reply.id,
    crCommentId: crComment.id,
    crReplyId: crReply.id,
    pageId: page.id,
    pagePath: page.path,
    fileId: files.items[0].id,
  };

  // Callers from elsewhere: an integration Other publishes, installed on Other, with both its tokens.
  await send(t, other.admin.token, 'POST', '/v1/integrations/other-notes', { organization: other.organizationId, title: 'Other notes', description: '', scopes: ['space:content:read', 'space:metadata:read'], script: SCRIPT, visibility: 'private' });
  const installation = await send(t, other.admin.token, 'POST', '/v1/integrations/other-notes/installations', { organization: other.organizationId });
  await send(t, other.admin.token, 'PATCH', `/v1/integrations/other-notes/installations/${installation.id}`, { space_selection: 'all' });
  const integrationId = (await send(t, other.admin.token, 'GET', '/v1/integrations/other-notes/events')).items[0].integrationId as string;
  const later = new Date(Date.now() + 3600_000);
  const guest: Actor = await buildMember(t.db, acme.organizationId, null, 'Gus Guest');
  const outsiderGuest = await buildMember(t.db, other.organizationId, null, 'Olga Otherguest');
  await t.db.update(organizationMembers).set({ disabled: true }).where(eq(organizationMembers.userId, disabled.userId));

  const tokens: Record<Caller, string | null> = {
    anonymous: null,
    outsider: other.admin.token,
    outsiderGuest: outsiderGuest.token,
    guest: guest.token,
    reader: reader.token,
    disabled: disabled.token,
    foreignInstallation: await issueToken(t.db, integrationId, installation.id, later),
    foreignIntegration: await issueToken(t.db, integrationId, null, later),
    insider: insider.token,
    admin: acme.admin.token,
  };

  const nodes = await discover(t, acme.admin.token, [gid('Organization', acme.organizationId)]);
  // Walk the closed content only as far as readers cannot see it: what they see belongs to the open part.
  const readerCannotSee = async (_: string, id: string) => !(await t.graphql('query ($id: ID!) { node(id: $id) { id } }', { id }, reader.token)).body.data?.node;
  const hiddenNodes = await discover(t, acme.admin.token, [gid('Space', space), gid('Collection', vault.id)], readerCannotSee);
  for (const [type, list] of hiddenNodes) {
    const hidden = [];
    for (const id of list) if (await readerCannotSee(type, id)) hidden.push(id);
    if (hidden.length) hiddenNodes.set(type, hidden);
    else hiddenNodes.delete(type);
  }
  const userIds = { outsider: other.admin.userId, outsiderGuest: outsiderGuest.userId, guest: guest.userId, reader: reader.userId, disabled: disabled.userId, insider: insider.userId, admin: acme.admin.userId };
  return { t, acme, other, tokens, ids, hiddenIds, nodes, hiddenNodes, userIds };
}
