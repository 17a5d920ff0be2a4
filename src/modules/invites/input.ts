import { bodyObject } from '../../domain/validate';
import { z } from 'zod';
import { roleOrGuestSchema } from '../../domain/roles';

export const linkInviteCreateSchema = z
  .object({ role: roleOrGuestSchema }, bodyObject)
  .strict();

export const linkInviteUpdateSchema = linkInviteCreateSchema;
