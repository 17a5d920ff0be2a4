import { z } from 'zod';
import { ROLES, roleSchema } from '../../domain/roles';
import { bodyObject } from '../../domain/validate';

/** A role, null for "no access by default", or 'inherit' to follow the parent collection. */
export const defaultLevelSchema = z.union([z.enum([...ROLES, 'inherit']), z.null()], {
  error: `defaultLevel must be one of ${ROLES.join(', ')}, inherit or null`,
});

const pointer = z.union(
  [
    z.object({ type: z.literal('space'), space: z.string().min(1) }).strict().transform((p) => ({ type: 'space' as const, id: p.space })),
    z
      .object({ type: z.literal('collection'), collection: z.string().min(1) })
      .strict()
      .transform((p) => ({ type: 'collection' as const, id: p.collection })),
  ],
  { error: 'must be { "type": "space", "space": <id> } or { "type": "collection", "collection": <id> }' },
);

export const contentPositionSchema = z
  .object({ before: pointer.optional(), after: pointer.optional() }, { error: 'position must be an object' })
  .strict();

export const moveSchema = z
  .object({ parent: z.string({ error: 'parent must be a collection id or null' }).min(1).nullable().optional(), position: contentPositionSchema.optional() }, bodyObject)
  .strict()
  .refine((body) => body.parent !== undefined || body.position !== undefined, { message: 'body must name a parent, a position or both' });

export const transferSchema = z
  .object({ organization: z.string({ error: 'organization is required: the id of the target organization' }).min(1) }, bodyObject)
  .strict();

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
  .refine((b) => b.users || b.teams, { message: 'name at least one of users or teams' });

export const grantRoleSchema = z.object({ role: roleSchema.nullable() }, bodyObject).strict();
