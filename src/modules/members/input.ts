import { bodyObject } from '../../domain/validate';
import { z } from 'zod';
import { ROLES, roleOrGuestSchema, roleSchema } from '../../domain/roles';
import { emailSchema } from '../../domain/email';

export const memberListFilterSchema = z.object({
  role: z.union([roleSchema, z.literal('guest')], { error: `role must be one of ${ROLES.join(', ')}, guest` }).optional(),
  search: z.string().trim().max(256, 'search must be at most 256 characters').optional(),
  sort: z.enum(['joinedAt', 'lastSeenAt'], { error: 'sort must be joinedAt or lastSeenAt' }).default('joinedAt'),
  order: z.enum(['asc', 'desc'], { error: 'order must be asc or desc' }).default('desc'),
});
export type MemberListFilter = z.input<typeof memberListFilterSchema>;

export const memberUpdateSchema = z.object({ role: roleOrGuestSchema }, bodyObject).strict();
export type MemberUpdateInput = z.input<typeof memberUpdateSchema>;

export const inviteUsersSchema = z
  .object({
    emails: z
      .array(z.union([emailSchema, z.object({ email: emailSchema, role: roleOrGuestSchema.optional() }).strict()]), {
        error: 'emails must be an array of e-mail addresses or { email, role } objects',
      })
      .min(1, 'emails must list at least one address')
      .max(100, 'at most 100 users can be invited at once'),
    role: roleOrGuestSchema.optional(),
    sso: z.boolean({ error: 'sso must be a boolean' }).optional(),
  }, bodyObject)
  .strict();
export type InviteUsersInput = z.input<typeof inviteUsersSchema>;
