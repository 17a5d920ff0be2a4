import { z } from 'zod';
import { isSafeUrl, WEB_URL } from '../../domain/urls';
import { bodyObject } from '../../domain/validate';

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const slug = z
  .string({ error: 'slug must be a string' })
  .min(1, 'slug must not be empty')
  .max(100, 'slug must be at most 100 characters')
  .regex(SLUG_PATTERN, 'slug must be lowercase letters and digits, in words joined by single dashes (e.g. "billing-api")');

/** Largest document taken as text, in characters. */
export const MAX_SPEC_TEXT = 5_000_000;

/** The platform's OpenAPISpecSource: a URL to fetch, or the document itself. */
const source = z
  .object(
    {
      url: z.string({ error: 'source.url must be a string' }).max(2048, 'source.url must be at most 2048 characters').url('source.url must be an absolute URL')
        .refine((value) => isSafeUrl(value, WEB_URL), 'source.url must be an http(s) URL')
        .optional(),
      text: z.string({ error: 'source.text must be a string' }).min(1, 'source.text must not be empty').max(MAX_SPEC_TEXT, `source.text must be at most ${MAX_SPEC_TEXT} characters`).optional(),
    },
    { error: (issue) => (issue.code === 'invalid_type' ? 'source must be { "url": ... } or { "text": ... }' : undefined) },
  )
  .strict()
  .refine((s) => (s.url === undefined) !== (s.text === undefined), { message: 'source must have either url or text, not both' });

export const specCreateSchema = z.object({ slug, source }, bodyObject).strict();
export type SpecCreateInput = z.input<typeof specCreateSchema>;

export const specPutSchema = z.object({ source }, bodyObject).strict();
export type SpecPutInput = z.input<typeof specPutSchema>;

export const specPatchSchema = z.object({ visibility: z.enum(['private', 'public'], { error: 'visibility must be private or public' }) }, bodyObject).strict();
export type SpecPatchInput = z.input<typeof specPatchSchema>;

export const slugSchema = slug;
