import { encodeGlobalID } from '@pothos/plugin-relay';
import { defineMutation } from '../../../graphql/mutation';
import { OrganizationRef } from '../../organizations/graphql/refs';
import { SpaceRef } from '../../spaces/graphql/refs';
import { createTranslation, deleteTranslation, getTranslationById, runTranslation, updateTranslation } from '../service';
import { TranslationRef } from './refs';
import { TranslationLanguageEnum } from './types';

// Service input paths as this input names them.
const CREATE_FIELDS = { 'source.space': 'sourceSpaceId', 'source.language': 'sourceLanguage' };

defineMutation('translationCreate', {
  description:
    'Creates a translation of a space of the organization into another language. Nothing is translated until it is run. ' +
    'Organization admins and creators only; the source space must belong to the organization.',
  input: (t) => ({
    organizationId: t.globalID({ for: OrganizationRef, required: true, description: 'The organization the translation belongs to.' }),
    sourceSpaceId: t.globalID({ for: SpaceRef, required: true, description: 'The space to translate, in the same organization.' }),
    sourceLanguage: t.field({ type: TranslationLanguageEnum, required: true, description: 'The language the source space is written in.' }),
    language: t.field({ type: TranslationLanguageEnum, required: true, description: 'The language to translate into; not the source language.' }),
    instructions: t.field({ type: 'JSON', description: 'Instructions for the translator, as a document; an empty document when absent.' }),
  }),
  fields: CREATE_FIELDS,
  payload: { translation: { type: TranslationRef, description: 'The new translation.' } },
  resolve: async ({ organizationId, sourceSpaceId, sourceLanguage, language, instructions }, ctx) => ({
    translation: await createTranslation(ctx, organizationId.id, {
      language,
      source: { space: sourceSpaceId.id, language: sourceLanguage },
      ...(instructions != null ? { instructions: instructions as Record<string, unknown> } : {}),
    }),
  }),
});

defineMutation('translationUpdate', {
  description: 'Replaces the instructions of a translation; the next run uses them. Organization admins and creators only.',
  input: (t) => ({
    translationId: t.globalID({ for: TranslationRef, required: true, description: 'The translation to change.' }),
    instructions: t.field({ type: 'JSON', required: true, description: 'The new instructions, as a document.' }),
  }),
  payload: { translation: { type: TranslationRef, description: 'The translation after the change.' } },
  resolve: async ({ translationId, instructions }, ctx) => ({
    translation: await updateTranslation(ctx, await getTranslationById(ctx, translationId.id), { instructions: instructions as Record<string, unknown> }),
  }),
});

defineMutation('translationDelete', {
  description: 'Deletes a translation; the space it wrote stays. Organization admins and creators only.',
  input: (t) => ({ translationId: t.globalID({ for: TranslationRef, required: true, description: 'The translation to delete.' }) }),
  payload: { deletedTranslationId: { type: 'ID', description: 'Global ID of the translation that no longer exists.' } },
  gone: ({ translationId }) => ({ deletedTranslationId: encodeGlobalID('Translation', translationId.id) }),
  resolve: async ({ translationId }, ctx) => {
    await deleteTranslation(ctx, await getTranslationById(ctx, translationId.id));
    return { deletedTranslationId: encodeGlobalID('Translation', translationId.id) };
  },
});

defineMutation('translationRun', {
  description:
    'Queues a run: it translates the source pages changed since the last run (all of them the first time) into the result space, ' +
    'which the first run creates, and acts as the caller. Refused while a run is queued or running (CONFLICT), and when the server ' +
    'has no translation provider (PRECONDITION_FAILED, saying which settings to set). Organization admins and creators only.',
  input: (t) => ({ translationId: t.globalID({ for: TranslationRef, required: true, description: 'The translation to run.' }) }),
  payload: { translation: { type: TranslationRef, description: 'The translation, its run queued (status PENDING).' } },
  resolve: async ({ translationId }, ctx) => ({ translation: await runTranslation(ctx, await getTranslationById(ctx, translationId.id)) }),
});
