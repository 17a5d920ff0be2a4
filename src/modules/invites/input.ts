import { bodyObject } from '../../domain/validate';
import { z } from 'zod';
import { roleOrGuestSchema } from '../../domain/roles';

export const linkInviteCreateSchema = z
  .object({ role: roleOrGuestSchema }, bodyObject)
  .strict();

export type LinkInviteCreateInput = z.input<typeof linkInviteCreateSchema>;

export const linkInviteUpdateSchema = linkInviteCreateSchema;
export type LinkInviteUpdateInput = z.input<typeof linkInviteUpdateSchema>;
