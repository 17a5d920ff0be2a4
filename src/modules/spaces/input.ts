import { z } from 'zod';
import { webUrlSchema } from '../../domain/urls';
import { bodyObject } from '../../domain/validate';
import { defaultLevelSchema } from '../../domain/permissions';
import { EDIT_MODES } from '../../domain/spaces';

/** The languages the platform translates into; a space's `language` is one of them. */
export const LANGUAGES = [
  'en', 'fr', 'de', 'es', 'it', 'pt', 'pt-br', 'ru', 'ja', 'zh', 'yue', 'ko', 'ar', 'hi', 'nl', 'pl', 'tr', 'sv', 'no',
  'da', 'fi', 'el', 'cs', 'hu', 'ro', 'th', 'vi', 'id', 'ms', 'he', 'uk', 'sk', 'bg', 'hr', 'lt', 'lv', 'et', 'sl',
] as const;

export const spaceTitleSchema = z.string({ error: 'title must be a string' }).trim().max(50, 'title must be at most 50 characters');
const emoji = z.string({ error: 'emoji must be a string' }).min(1, 'emoji must not be empty').max(50, 'emoji must be at most 50 characters');
const language = z.enum(LANGUAGES, { error: 'language must be a supported language code such as en, fr or pt-br' });
const editMode = z.enum(EDIT_MODES, { error: `editMode must be one of ${EDIT_MODES.join(', ')}` });

export const spaceCreateSchema = z
  .object(
    {
      title: spaceTitleSchema.optional(),
      emoji: emoji.optional(),
      parent: z.string({ error: 'parent must be a collection id' }).min(1).optional(),
      language: language.optional(),
      editMode: editMode.optional(),
      template: z.unknown().optional(),
      computedSource: z.unknown().optional(),
    },
    bodyObject,
  )
  .strict()
  .refine((b) => b.template === undefined && b.computedSource === undefined, {
    message: 'Creating a space from a template or a computed source is not available: create it empty, then import content',
  });
export type SpaceCreateInput = z.input<typeof spaceCreateSchema>;

export const spaceUpdateSchema = z
  .object(
    {
      title: spaceTitleSchema.min(1, 'title must be 1 to 50 characters').optional(),
      emoji: emoji.nullable().optional(),
      icon: webUrlSchema('icon').nullable().optional(),
      editMode: editMode.optional(),
      defaultLevel: defaultLevelSchema.optional(),
      language: language.optional(),
    },
    bodyObject,
  )
  .strict()
  .refine((b) => !(b.emoji && b.icon), { message: 'set either emoji or icon, not both' });
export type SpaceUpdateInput = z.input<typeof spaceUpdateSchema>;

