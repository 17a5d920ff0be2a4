import type { PageArgs } from '../../../domain/page';
import { builder } from '../../../graphql/builder';
import { enumValues } from '../../../graphql/enums';
import { orNull } from '../../../graphql/errors';
import { batchedConnection, GRAPHQL_MAX, totalCountField } from '../../../graphql/relay';
import { OrganizationRef } from '../../organizations/graphql/refs';
import { getOrganization } from '../../organizations/service';
import { SpaceRef } from '../../spaces/graphql/refs';
import { getSpace } from '../../spaces/service';
import { TRANSLATION_LANGUAGES } from '../input';
import { getTranslationById, listTranslationsOfOrganizations, listTranslationsOfSpaces } from '../service';
import type { TranslationStatus } from '../../../db/schema/translations';
import { TranslationRef } from './refs';

export const TranslationLanguageEnum = builder.enumType('TranslationLanguage', {
  description: 'A language content can be translated from and into (ISO 639-1 codes; PT_BR is Brazilian Portuguese, YUE Cantonese).',
  values: enumValues(TRANSLATION_LANGUAGES, (code) => `The language with code \`${code}\`.`),
});

const STATUS_DESCRIPTIONS: Record<TranslationStatus, string> = {
  pending: 'Never run yet, or a run is queued.',
  running: 'A run is translating the changed pages now.',
  completed: 'The latest run finished: the result space holds the translation.',
  failed: 'The latest run stopped; `failure` says why. The result space keeps what the run before it wrote.',
};

const TranslationStatusEnum = builder.enumType('TranslationStatus', {
  description: 'Where a translation stands.',
  values: enumValues(['pending', 'running', 'completed', 'failed'] as const, (s) => STATUS_DESCRIPTIONS[s]),
});

const TranslationStats = builder.objectRef<{ runs: number; totalWords: number; totalPages: number; totalDurationMs: number; latestRunDurationMs: number; latestPages: number; latestWords: number }>('TranslationStats').implement({
  description: 'What the runs of a translation measured.',
  fields: (t) => ({
    runs: t.exposeInt('runs', { description: 'Runs that completed.' }),
    totalWords: t.exposeInt('totalWords', { description: 'Words sent to the translator, over all runs.' }),
    totalPages: t.exposeInt('totalPages', { description: 'Source pages translated at least once.' }),
    totalDurationMs: t.exposeInt('totalDurationMs', { description: 'Time all completed runs took, in milliseconds.' }),
    latestRunDurationMs: t.exposeInt('latestRunDurationMs', { description: 'Time the latest completed run took, in milliseconds.' }),
    latestPages: t.exposeInt('latestPages', { description: 'Pages the latest completed run translated (the ones changed since the run before).' }),
    latestWords: t.exposeInt('latestWords', { description: 'Words the latest completed run sent to the translator.' }),
  }),
});

builder.node(TranslationRef, {
  description: 'A translated copy of a space, kept in step by runs: each run translates the pages changed since the last one into the result space.',
  id: { resolve: (row) => row.id },
  loadOne: (id, ctx) => orNull(getTranslationById(ctx, id)),
  fields: (t) => ({
    restId: t.exposeString('id', { description: 'The id of this translation in the REST API (`/v1/orgs/{organizationId}/translations/{translationId}`).' }),
    organization: t.field({ type: OrganizationRef, description: 'The organization the translation belongs to.', resolve: (row, _, ctx) => getOrganization(ctx, row.organizationId) }),
    sourceSpace: t.field({
      type: SpaceRef,
      nullable: true,
      description: 'The space translated; null when the viewer may not see it.',
      resolve: (row, _, ctx) => orNull(getSpace(ctx, row.sourceSpaceId)),
    }),
    sourceLanguage: t.field({ type: TranslationLanguageEnum, description: 'The language of the source space.', resolve: (row) => row.sourceLanguage as never }),
    language: t.field({ type: TranslationLanguageEnum, description: 'The language translated into.', resolve: (row) => row.language as never }),
    instructions: t.field({ type: 'JSON', description: 'Instructions for the translator, as a document (object `document` with `data` and `nodes`).', resolve: (row) => row.instructions }),
    status: t.field({ type: TranslationStatusEnum, description: 'Where the translation stands.', resolve: (row) => row.status }),
    failure: t.exposeString('failure', { nullable: true, description: 'Why the latest run failed, when status is FAILED.' }),
    resultSpace: t.field({
      type: SpaceRef,
      nullable: true,
      description: 'The space holding the translation, made by the first run; null before it, or when the viewer may not see it.',
      resolve: (row, _, ctx) => (row.resultSpaceId ? orNull(getSpace(ctx, row.resultSpaceId)) : null),
    }),
    resultRevision: t.exposeString('resultRevisionId', { nullable: true, description: 'The revision of the result space the latest completed run wrote.' }),
    stats: t.field({ type: TranslationStats, description: 'What the runs measured.', resolve: (row) => row }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the translation was created.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When the translation, or its status, last changed.' }),
    viewerCanEdit: t.boolean({ description: 'Whether the viewer may change, delete and run the translation.', resolve: (row, _, ctx) => ctx.authz.can('translation:manage', row) }),
  }),
});

/** One connection type for the translations of an organization and of a space. */
const TranslationConnection = builder.connectionObject(
  { type: TranslationRef, name: 'TranslationConnection', description: 'A page of translations.', fields: totalCountField },
  { name: 'TranslationEdge', description: 'A translation in a page, with its cursor.' },
);

builder.objectFields(OrganizationRef, (t) => ({
  translations: t.connection(
    {
      type: TranslationRef,
      description: "Translations of the organization's spaces, newest first; guests see none.",
      resolve: batchedConnection('Organization.translations', (ctx, orgs, window: PageArgs) => listTranslationsOfOrganizations(ctx, orgs, window, GRAPHQL_MAX)),
    },
    TranslationConnection,
  ),
}));

builder.objectFields(SpaceRef, (t) => ({
  translations: t.connection(
    {
      type: TranslationRef,
      description: 'Translations of this space into other languages, newest first; guests of its organization see none.',
      resolve: batchedConnection('Space.translations', (ctx, spaces, window: PageArgs) => listTranslationsOfSpaces(ctx, spaces, window, GRAPHQL_MAX)),
    },
    TranslationConnection,
  ),
}));
