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

/**
 * The body of `POST /v1/urls/published`. Not strict: the platform's renderer sends more than the
 * spec lists (the visitor's `type`, a cache-busting field), and those change nothing here.
 */
export const urlLookupSchema = z.object(
  {
    url: z.string({ error: 'url is required: the URL of a published site to resolve' }).min(1, 'url is required').max(2048, 'url must be at most 2048 characters'),
    redirectOnError: z.boolean({ error: 'redirectOnError must be true or false' }).optional(),
    visitor: z
      .object(
        {
          jwtToken: z.string({ error: 'visitor.jwtToken must be a string' }).max(8192, 'visitor.jwtToken must be at most 8192 characters').optional(),
          unsignedClaims: z.record(z.string(), z.unknown(), { error: 'visitor.unsignedClaims must be an object' }).optional(),
        },
        { error: () => 'visitor must be an object' },
      )
      .optional(),
  },
  bodyObject,
);
export type UrlLookupInput = z.input<typeof urlLookupSchema>;
