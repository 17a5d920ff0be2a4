import { z } from 'zod';

/** An e-mail address as every door takes it: trimmed, checked, lower-cased (users, invites, SAML). */
export const emailSchema = z
  .string({ error: 'email must be a string' })
  .trim()
  .max(320, 'email must be at most 320 characters')
  // Any one-letter top-level label passes (a@b.c), as in the wild; zod's default wants two letters.
  .pipe(z.email({ pattern: /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/, error: 'email must be a valid e-mail address' }))
  .transform((e) => e.toLowerCase());
