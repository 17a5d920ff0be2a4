import { z } from 'zod';
import { bodyObject } from '../../domain/validate';

/** The platform's TranslationLanguage enum (v0.137). */
export const TRANSLATION_LANGUAGES = [
  'en', 'fr', 'de', 'es', 'it', 'pt', 'pt-br', 'ru', 'ja', 'zh', 'yue', 'ko', 'ar', 'hi', 'nl', 'pl', 'tr', 'sv', 'no',
  'da', 'fi', 'el', 'cs', 'hu', 'ro', 'th', 'vi', 'id', 'ms', 'he', 'uk', 'sk', 'bg', 'hr', 'lt', 'lv', 'et', 'sl',
] as const;
export type TranslationLanguage = (typeof TRANSLATION_LANGUAGES)[number];

/** `noun` names the value in messages; the field's path is put before them. */
const language = (noun: string) =>
  z.enum(TRANSLATION_LANGUAGES, {
    error: (issue) => (issue.input === undefined ? `${noun} is required` : `${noun} must be one of ${TRANSLATION_LANGUAGES.join(', ')}`),
  });

/** Instructions are a platform JSON document; its shape is checked against the spec by the service. */
const instructions = z.record(z.string(), z.unknown(), { error: 'instructions must be a document object' });

export const translationCreateSchema = z
  .object(
    {
      language: language('language'),
      source: z
        .object({ space: z.string({ error: 'source.space must be a space id' }).min(1, 'source.space must be a space id'), language: language('the source language') }, { error: 'source must be an object with space and language' })
        .strict(),
      instructions: instructions.optional(),
    },
    bodyObject,
  )
  .strict()
  .refine((t) => t.language !== t.source.language, { message: 'language must differ from source.language', path: ['language'] });
export type TranslationCreateInput = z.input<typeof translationCreateSchema>;

export const translationUpdateSchema = z.object({ instructions }, bodyObject).strict();
export type TranslationUpdateInput = z.input<typeof translationUpdateSchema>;
