import { z } from 'zod';
import { bodyObject } from '../../domain/validate';
import { defaultLevelSchema } from '../../domain/permissions';

export const collectionTitleSchema = z
  .string({ error: 'title must be a string' })
  .trim()
  .min(1, 'title must be 1 to 50 characters')
  .max(50, 'title must be 1 to 50 characters');

export const collectionCreateSchema = z
  .object({ title: collectionTitleSchema.optional(), parent: z.string({ error: 'parent must be a collection id' }).min(1).optional() }, bodyObject)
  .strict();
export type CollectionCreateInput = z.input<typeof collectionCreateSchema>;

export const collectionUpdateSchema = z
  .object(
    {
      title: collectionTitleSchema.optional(),
      description: z.string({ error: 'description must be a string' }).max(100, 'description must be at most 100 characters').optional(),
      defaultLevel: defaultLevelSchema.optional(),
    },
    bodyObject,
  )
  .strict();
export type CollectionUpdateInput = z.input<typeof collectionUpdateSchema>;

export const collectionListSchema = z.object({
  nested: z.enum(['true', 'false'], { error: 'nested must be true or false' }).optional().transform((v) => v !== 'false'),
});
export type CollectionListInput = z.input<typeof collectionListSchema>;
