import { z } from 'zod';
import { bodyObject } from '../../domain/validate';

const CONTENT_KINDS = ['space', 'collection'] as const;

/** A space or a collection among the children of a parent. */
const contentRef = z
  .object({ kind: z.enum(CONTENT_KINDS), id: z.string().min(1) }, { error: 'must point at a space or a collection' })
  .strict();

export const positionSchema = z.object({ before: contentRef.optional(), after: contentRef.optional() }, { error: 'position must be an object' }).strict();
export type PositionInput = z.output<typeof positionSchema>;

/** Where a space or collection goes: a parent (null for the top level), a place among its children, or both. */
export const moveSchema = z
  .object({ parent: z.string({ error: 'parent must be a collection id or null' }).min(1).nullable().optional(), position: positionSchema.optional() }, bodyObject)
  .strict()
  .refine((body) => body.parent !== undefined || body.position !== undefined, { message: 'body must name a parent, a position or both' });
export type MoveInput = z.input<typeof moveSchema>;

export const transferSchema = z
  .object({ organization: z.string({ error: 'organization is required: the id of the target organization' }).min(1) }, bodyObject)
  .strict();
export type TransferInput = z.input<typeof transferSchema>;
