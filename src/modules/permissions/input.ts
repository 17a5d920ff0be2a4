import { z } from 'zod';
import { roleSchema } from '../../domain/roles';
import { bodyObject } from '../../domain/validate';

/** Who to give access to and with which role; null as role takes their access away. */
export const grantInviteSchema = z
  .object(
    {
      role: roleSchema.nullable(),
      users: z.array(z.string().min(1), { error: 'users must be an array of user ids' }).min(1).max(500).optional(),
      teams: z.array(z.string().min(1), { error: 'teams must be an array of team ids' }).min(1).max(500).optional(),
    },
    bodyObject,
  )
  .strict()
  .refine((b) => b.users || b.teams, { message: 'name at least one user or team to give access to' });
export type GrantInviteInput = z.input<typeof grantInviteSchema>;

export const grantRoleSchema = z.object({ role: roleSchema.nullable() }, bodyObject).strict();
export type GrantRoleInput = z.input<typeof grantRoleSchema>;
