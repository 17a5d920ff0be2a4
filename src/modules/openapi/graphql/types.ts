import { builder } from '../../../graphql/builder';
import { orNull } from '../../../graphql/errors';
import { GRAPHQL_MAX, pageToConnection, totalCountField } from '../../../graphql/relay';
import { OrganizationRef } from '../../organizations/graphql/refs';
import { getSpec, getSpecById, latestVersion, listSpecs, specPermissions } from '../service';
import type { OpenApiSpecVersionRow, SpecOperation } from '../../../db/schema/openapi';
import { OpenApiSpecRef } from './refs';

export const OpenApiVisibilityEnum = builder.enumType('OpenAPISpecVisibility', {
  description: 'Who may read a specification outside the organization.',
  values: { PRIVATE: { value: 'private' as const, description: 'Members only.' }, PUBLIC: { value: 'public' as const, description: 'Anyone with its published URL.' } },
});

const ProcessingStateEnum = builder.enumType('OpenAPISpecProcessingState', {
  description: 'Where the processing of the latest source stands.',
  values: {
    PENDING: { value: 'pending' as const, description: 'Queued.' },
    PROGRESS: { value: 'progress' as const, description: 'Being fetched and parsed.' },
    COMPLETE: { value: 'complete' as const, description: 'Done: see `lastProcessErrorCode` for a failure.' },
  },
});

const OperationRef = builder.objectRef<SpecOperation>('OpenAPIOperation').implement({
  description: 'One operation of a specification version.',
  fields: (t) => ({
    method: t.exposeString('method', { description: 'HTTP method, upper case.' }),
    path: t.exposeString('path', { description: 'Path template.' }),
    operationId: t.string({ nullable: true, description: 'Its operationId, if it has one.', resolve: (o) => o.operationId ?? null }),
    summary: t.string({ nullable: true, description: 'Its summary, if it has one.', resolve: (o) => o.summary ?? null }),
    tags: t.stringList({ description: 'Its tags.', resolve: (o) => o.tags }),
  }),
});

const VersionRef = builder.objectRef<OpenApiSpecVersionRow>('OpenAPISpecVersion').implement({
  description: 'A specification as one processing read it.',
  fields: (t) => ({
    restId: t.exposeString('id', { description: 'The id in the REST API (`lastVersion`).' }),
    title: t.exposeString('title', { description: 'Its `info.title`.' }),
    apiVersion: t.exposeString('apiVersion', { description: 'Its `info.version`.' }),
    createdAt: t.field({ type: 'DateTime', description: 'When it was processed.', resolve: (v) => v.createdAt }),
    operations: t.field({ type: [OperationRef], description: 'Its operations, in document order.', resolve: (v) => v.operations }),
  }),
});

builder.node(OpenApiSpecRef, {
  description: "An OpenAPI specification of an organization, processed from a URL or from its text.",
  id: { resolve: (s) => s.row.id },
  loadOne: (id, ctx) => orNull(getSpecById(ctx, id)),
  fields: (t) => ({
    restId: t.string({ description: 'The id in the REST API.', resolve: (s) => s.row.id }),
    slug: t.string({ description: 'Its name in the organization, used in paths.', resolve: (s) => s.row.slug }),
    sourceUrl: t.string({ nullable: true, description: 'The URL it is fetched from; null when it was sent as text.', resolve: (s) => s.row.sourceUrl }),
    visibility: t.field({ type: OpenApiVisibilityEnum, description: 'Who may read it.', resolve: (s) => s.row.visibility }),
    processingState: t.field({ type: ProcessingStateEnum, description: 'Where the processing of its source stands.', resolve: (s) => s.row.processingState }),
    lastProcessedAt: t.field({ type: 'DateTime', nullable: true, description: 'When a processing last finished.', resolve: (s) => s.row.lastProcessedAt }),
    lastProcessErrorCode: t.string({ nullable: true, description: 'FETCH_TIMEOUT, FETCH_ERROR or PARSE_ERROR when the last processing failed.', resolve: (s) => s.row.lastProcessErrorCode }),
    lastProcessError: t.string({ nullable: true, description: 'Why the last processing failed, in words.', resolve: (s) => s.row.lastProcessError }),
    lastVersion: t.field({ type: VersionRef, nullable: true, description: 'The newest version a processing stored.', resolve: (s, _, ctx) => latestVersion(ctx, s) }),
    viewerCanEdit: t.boolean({ description: 'Whether you may publish, change or delete it.', resolve: async (s, _, ctx) => (await specPermissions(ctx, s.organization)).edit }),
    createdAt: t.field({ type: 'DateTime', description: 'When it was created.', resolve: (s) => s.row.createdAt }),
    updatedAt: t.field({ type: 'DateTime', description: 'When it last changed.', resolve: (s) => s.row.updatedAt }),
  }),
});

const OpenApiSpecConnection = builder.connectionObject(
  { type: OpenApiSpecRef, name: 'OpenAPISpecConnection', description: 'A page of OpenAPI specifications.', fields: totalCountField },
  { name: 'OpenAPISpecEdge', description: 'A specification in a page, with its cursor.' },
);

builder.objectFields(OrganizationRef, (t) => ({
  openApiSpecs: t.connection(
    { type: OpenApiSpecRef, description: 'OpenAPI specifications of the organization, oldest first. Members with a role only.', resolve: async (org, args, ctx) => pageToConnection(await listSpecs(ctx, org.id, args, GRAPHQL_MAX)) },
    OpenApiSpecConnection,
  ),
  openApiSpec: t.field({
    type: OpenApiSpecRef,
    nullable: true,
    description: 'The OpenAPI specification with this slug, as `GET /v1/orgs/{organizationId}/openapi/{slug}` answers it; null when there is none. Members with a role only.',
    args: { slug: t.arg.string({ required: true, description: 'Its slug.' }) },
    resolve: (org, { slug }, ctx) => orNull(getSpec(ctx, org.id, slug)),
  }),
}));
