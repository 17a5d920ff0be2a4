import { z } from 'zod';
import { webUrlSchema } from '../../domain/urls';
import { bodyObject } from '../../domain/validate';

export const publishingAuthUpdateSchema = z
  .object(
    {
      backend: z.enum(['custom', 'integration'], { error: 'backend must be custom or integration' }).optional(),
      fallbackURL: webUrlSchema('fallbackURL').nullable().optional(),
    },
    bodyObject,
  )
  .strict();
export type PublishingAuthUpdateInput = z.input<typeof publishingAuthUpdateSchema>;
