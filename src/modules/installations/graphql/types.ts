import type { PageArgs } from '../../../domain/page';
import { builder } from '../../../graphql/builder';
import { orNull } from '../../../graphql/errors';
import { batchedConnection, GRAPHQL_MAX, totalCountField } from '../../../graphql/relay';
import { IntegrationRef } from '../../integrations/graphql/refs';
import { getIntegrationById } from '../../integrations/service';
import type { InstallationRow } from '../../../db/schema/installations';
import type { IntegrationEventLog } from '../../../db/schema/integration-events';
import type { IntegrationRow } from '../../../db/schema/integrations';
import { OrganizationRef } from '../../organizations/graphql/refs';
import { getOrganization } from '../../organizations/service';
import { SpaceConnection, SpaceRef } from '../../spaces/graphql/refs';
import { getSpace } from '../../spaces/service';
import { eventTrace, getEventById, getInstallationById, listEventsOf, listInstallationSpacesOf, listInstallationsOf, listOrganizationInstallations } from '../service';
import { InstallationRef, IntegrationEventRef, SelectionEnum } from './refs';

export const InstallationStatusEnum = builder.enumType('IntegrationInstallationStatus', {
  description: 'Whether an installation acts.',
  values: {
    ACTIVE: { value: 'active' as const, description: 'It receives events and its token works.' },
    PENDING: { value: 'pending' as const, description: 'Its setup is not finished.' },
    PAUSED: { value: 'paused' as const, description: 'It is stopped for now.' },
  },
});

const EventStatusEnum = builder.enumType('IntegrationEventStatus', {
  description: 'Where the delivery of an event to its integration stands.',
  values: {
    PENDING: { value: 'pending' as const, description: 'Not delivered yet, or being retried.' },
    SUCCESS: { value: 'success' as const, description: 'The integration handled it.' },
    FAILED: { value: 'failed' as const, description: 'Every try failed: see the trace.' },
    NOT_HANDLED: { value: 'not_handled' as const, description: 'Delivered once; the integration has no handler for its type (it answered 406). Not retried.' },
  },
});

const LogLevelEnum = builder.enumType('IntegrationEventLogLevel', {
  description: 'How much a line of a trace matters.',
  values: {
    DEBUG: { value: 'debug' as const, description: 'Detail.' },
    INFO: { value: 'info' as const, description: 'Ordinary output.' },
    WARN: { value: 'warn' as const, description: 'Something looked wrong.' },
    ERROR: { value: 'error' as const, description: 'Something failed.' },
  },
});

const LogRef = builder.objectRef<IntegrationEventLog>('IntegrationEventLog').implement({
  description: 'One line a run of the integration wrote, or the runtime wrote about it.',
  fields: (t) => ({
    message: t.exposeString('message', { description: 'The line.' }),
    level: t.field({ type: LogLevelEnum, description: 'How much it matters.', resolve: (l) => l.level }),
    timestamp: t.field({ type: 'DateTime', description: 'When it was recorded.', resolve: (l) => new Date(l.timestamp) }),
  }),
});

const TraceRef = builder.objectRef<{ logs: IntegrationEventLog[]; error: string | null }>('IntegrationEventTrace').implement({
  description: 'What the deliveries of an event left behind.',
  fields: (t) => ({
    logs: t.field({ type: [LogRef], description: 'Lines of every try, in order.', resolve: (tr) => tr.logs }),
    error: t.exposeString('error', { nullable: true, description: 'Why the last try failed; null when it did not.' }),
  }),
});

const spacesBatch = batchedConnection('IntegrationInstallation.spaces', (ctx, installations: readonly InstallationRow[], args: PageArgs) => listInstallationSpacesOf(ctx, installations, args, GRAPHQL_MAX));

builder.node(InstallationRef, {
  description:
    'An integration installed on an organization. It acts through its own token, with the integration\'s scopes, on the spaces and sites it is given. ' +
    'Members with a role in the organization see it, and those who operate the integration.',
  id: { resolve: (i) => i.id },
  loadOne: async (id, ctx) => (await orNull(getInstallationById(ctx, id)))?.installation ?? null,
  fields: (t) => ({
    restId: t.exposeString('id', { description: 'Its id in the REST API (`/v1/integrations/{integrationName}/installations/{installationId}`).' }),
    status: t.field({ type: InstallationStatusEnum, description: 'Whether it acts.', resolve: (i) => i.status }),
    spaceSelection: t.field({ type: SelectionEnum, description: 'Whether it acts on every space of the organization or on those it was given.', resolve: (i) => i.spaceSelection }),
    siteSelection: t.field({ type: SelectionEnum, description: 'Whether it acts on every site of the organization or on those it was given.', resolve: (i) => i.siteSelection }),
    configuration: t.field({ type: 'JSON', description: "Its settings, in the shape of the integration's `account` configuration schema.", resolve: (i) => i.configuration }),
    externalIds: t.exposeStringList('externalIds', { description: 'Ids the integration gave it in other systems (at most 5).' }),
    integration: t.field({ type: IntegrationRef, description: 'The integration installed.', resolve: (i, _, ctx) => getIntegrationById(ctx, i.integrationId) }),
    organization: t.field({
      type: OrganizationRef,
      nullable: true,
      description: 'The organization it is installed on; null when you are not a member of it (those who operate an integration see its installations everywhere).',
      resolve: (i, _, ctx) => orNull(getOrganization(ctx, i.organizationId)),
    }),
    spaces: t.connection(
      { type: SpaceRef, description: 'The spaces it was given that you may see, oldest given first.', resolve: (i, args, ctx, info) => spacesBatch(i, args, ctx, info) },
      SpaceConnection,
    ),
    viewerCanManage: t.boolean({
      description: 'Whether you may configure it, choose its spaces and uninstall it: admins of its organization.',
      resolve: (i, _, ctx) => ctx.authz.can('installation:manage', i),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was installed.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When its settings last changed.' }),
  }),
});

builder.node(IntegrationEventRef, {
  description: 'Something that happened for an installation (installed, a space given, new content...), recorded and delivered to the integration.',
  id: { resolve: (e) => e.id },
  loadOne: (id, ctx) => orNull(getEventById(ctx, id)),
  fields: (t) => ({
    restId: t.exposeString('id', { description: 'Its id in the REST API (`/v1/integrations/{integrationName}/events/{eventId}`).' }),
    type: t.exposeString('type', { description: 'Its type, as the platform names events: `installation_setup`, `space_content_updated`, ...' }),
    payload: t.field({ type: 'JSON', description: 'The event as the integration receives it.', resolve: (e) => e.payload }),
    status: t.field({ type: EventStatusEnum, description: 'Where its delivery stands.', resolve: (e) => e.status }),
    attempts: t.exposeInt('attempts', { description: 'How many times delivery was tried.' }),
    integration: t.field({ type: IntegrationRef, description: 'The integration it is for.', resolve: (e, _, ctx) => getIntegrationById(ctx, e.integrationId) }),
    installation: t.field({
      type: InstallationRef,
      nullable: true,
      description: 'The installation it is for; null once uninstalled.',
      resolve: async (e, _, ctx) => (e.installationId ? ((await orNull(getInstallationById(ctx, e.installationId)))?.installation ?? null) : null),
    }),
    space: t.field({
      type: SpaceRef,
      nullable: true,
      description: 'The space it concerns, if any and if you may see it.',
      resolve: (e, _, ctx) => (e.spaceId ? orNull(getSpace(ctx, e.spaceId)) : null),
    }),
    trace: t.field({
      type: TraceRef,
      nullable: true,
      description: 'What its deliveries left behind; only for those who operate the integration (its own output may hold what only they should read), null for others.',
      resolve: (e, _, ctx) => eventTrace(ctx, e),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it happened.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When its delivery last moved on.' }),
  }),
});

const InstallationConnection = builder.connectionObject(
  { type: InstallationRef, name: 'IntegrationInstallationConnection', description: 'A page of installations.', fields: totalCountField },
  { name: 'IntegrationInstallationEdge', description: 'An installation in a page, with its cursor.' },
);

const EventConnection = builder.connectionObject(
  { type: IntegrationEventRef, name: 'IntegrationEventConnection', description: 'A page of integration events.', fields: totalCountField },
  { name: 'IntegrationEventEdge', description: 'An event in a page, with its cursor.' },
);

const installationsBatch = batchedConnection('Integration.installations', (ctx, integrations: readonly IntegrationRow[], args: PageArgs) => listInstallationsOf(ctx, integrations, args, GRAPHQL_MAX));
const eventsBatch = batchedConnection('Integration.events', (ctx, integrations: readonly IntegrationRow[], args: PageArgs) => listEventsOf(ctx, integrations, args, GRAPHQL_MAX));

builder.objectFields(IntegrationRef, (t) => ({
  installations: t.connection(
    {
      type: InstallationRef,
      description: 'Its installations you may see, newest first: all of them if you operate it (admins of its publisher, its own token), else those on your organizations.',
      resolve: (i, args, ctx, info) => installationsBatch(i, args, ctx, info),
    },
    InstallationConnection,
  ),
  events: t.connection(
    {
      type: IntegrationEventRef,
      description: 'Events of its installations you may see, newest first: all of them if you operate it, else those of installations on your organizations.',
      resolve: (i, args, ctx, info) => eventsBatch(i, args, ctx, info),
    },
    EventConnection,
  ),
}));

builder.objectFields(OrganizationRef, (t) => ({
  installations: t.connection(
    {
      type: InstallationRef,
      description: 'Integrations installed on the organization, newest first. Members with a role see them; guests see none.',
      resolve: batchedConnection('Organization.installations', (ctx, orgs, args: PageArgs) => listOrganizationInstallations(ctx, orgs, args, GRAPHQL_MAX)),
    },
    InstallationConnection,
  ),
}));
