import { webUrlSchema } from '../../domain/urls';
import { bodyObject } from '../../domain/validate';
import { z } from 'zod';
import { roleOrGuestSchema } from '../../domain/roles';

const domainSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(?=.{3,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, 'emailDomains must hold domain names such as example.com');

export const organizationTitleSchema = z
  .string({ error: 'title must be a string' })
  .trim()
  .min(2, 'title must be 2 to 255 characters')
  .max(255, 'title must be 2 to 255 characters');

export const organizationUpdateSchema = z
  .object(
    {
      title: organizationTitleSchema.optional(),
      emailDomains: z.array(domainSchema, { error: 'emailDomains must be an array of strings' }).max(50, 'at most 50 emailDomains').optional(),
      hostname: z
        .string({ error: 'hostname must be a string' })
        .trim()
        .toLowerCase()
        .min(3, 'hostname must be 3 to 32 characters')
        .max(32, 'hostname must be 3 to 32 characters')
        .regex(/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/, 'hostname may hold lowercase letters, digits and inner hyphens')
        .optional(),
      defaultRole: roleOrGuestSchema.optional(),
      defaultContent: z
        .object({ type: z.literal('site'), site: z.string().min(1) }, { error: 'defaultContent must be { type: "site", site } or null' })
        .strict()
        .nullable()
        .optional(),
      logo: webUrlSchema('logo').nullable().optional(),
      sso: z.boolean({ error: 'sso must be a boolean' }).optional(),
      ai: z.boolean({ error: 'ai must be a boolean' }).optional(),
      inviteLinks: z.boolean({ error: 'inviteLinks must be a boolean' }).optional(),
    },
    bodyObject,
  )
  .strict();
export type OrganizationUpdateInput = z.input<typeof organizationUpdateSchema>;

export const emailDomainSchema = domainSchema;
