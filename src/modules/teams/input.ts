import { bodyObject } from '../../domain/validate';
import { z } from 'zod';
import { teamRoleSchema } from '../../domain/roles';

export const teamTitleSchema = z
  .string({ error: 'title must be a string' })
  .trim()
  .min(1, 'title must be 1 to 64 characters')
  .max(64, 'title must be 1 to 64 characters');

const identifiers = (field: string) =>
  z
    .array(z.string({ error: `${field} must hold strings` }).trim().min(1, `${field} must not hold empty strings`), {
      error: `${field} must be an array of strings`,
    })
    .max(500, `${field} may hold at most 500 entries`);

export const teamCreateSchema = z
  .object({ title: teamTitleSchema, members: identifiers('members').optional() }, bodyObject)
  .strict();
export type TeamCreateInput = z.input<typeof teamCreateSchema>;

export const teamUpdateSchema = z.object({ title: teamTitleSchema }, bodyObject).strict();
export type TeamUpdateInput = z.input<typeof teamUpdateSchema>;

export const teamMembersUpdateSchema = z
  .object(
    {
      add: identifiers('add').optional(),
      remove: identifiers('remove').optional(),
      memberships: z.record(z.string(), z.object({ role: teamRoleSchema }).strict()).optional(),
    },
    bodyObject,
  )
  .strict();
export type TeamMembersUpdateInput = z.input<typeof teamMembersUpdateSchema>;

export const teamMemberSetSchema = z.object({ role: teamRoleSchema.optional() }, bodyObject).strict();
export type TeamMemberSetInput = z.input<typeof teamMemberSetSchema>;

export const teamListFilterSchema = z.object({
  owner: z.string().trim().min(1).optional(),
  title: z.string().trim().max(64, 'title must be at most 64 characters').optional(),
});
export type TeamListFilter = z.input<typeof teamListFilterSchema>;
