import { z } from 'zod';
import { bodyObject } from '../../domain/validate';

export const publishingAuthUpdateSchema = z
  .object(
    {
      backend: z.enum(['custom', 'integration'], { error: 'backend must be custom or integration' }).optional(),
      fallbackURL: z.url({ protocol: /^https?$/, error: 'fallbackURL must be an http(s) URL, or null' }).max(2048, 'fallbackURL must be at most 2048 characters').nullable().optional(),
    },
    bodyObject,
  )
  .strict();
export type PublishingAuthUpdateInput = z.input<typeof publishingAuthUpdateSchema>;
