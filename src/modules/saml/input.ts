import { X509Certificate } from 'node:crypto';
import { z } from 'zod';
import { roleOrGuestSchema } from '../../domain/roles';
import { isSafeUrl, WEB_URL } from '../../domain/urls';
import { bodyObject } from '../../domain/validate';

/** Limits of the platform's document: label 1 to 30, entity id up to 1024, URL up to 2048, certificate up to 10000. */
const label = z
  .string({ error: 'label must be a string' })
  .trim()
  .min(1, 'label must be 1 to 30 characters')
  .max(30, 'label must be 1 to 30 characters');

const entityID = z
  .string({ error: 'entityID must be a string' })
  .trim()
  .min(1, "entityID must be the identity provider's entity id")
  .max(1024, 'entityID must be at most 1024 characters');

const ssoURL = z
  .string({ error: 'ssoURL must be a string' })
  .trim()
  .max(2048, 'ssoURL must be at most 2048 characters')
  .refine((value) => isSafeUrl(value, WEB_URL) && URL.canParse(value), 'ssoURL must be an http(s) URL');

const PEM = /^-----BEGIN CERTIFICATE-----\r?\n[A-Za-z0-9+/=\r\n]+-----END CERTIFICATE-----\s*$/;

/** Whether the text is one X.509 certificate in PEM, as node:crypto reads it. */
export function isPemCertificate(text: string): boolean {
  if (!PEM.test(text.trim())) return false;
  try {
    new X509Certificate(text);
    return true;
  } catch {
    return false;
  }
}

const certificate = z
  .string({ error: 'certificate must be a string' })
  .trim()
  .max(10000, 'certificate must be at most 10000 characters')
  .refine(isPemCertificate, 'certificate must be one X.509 certificate in PEM form (-----BEGIN CERTIFICATE----- ...)');

const defaultTeam = z.string({ error: 'defaultTeam must be a team id' }).trim().min(1, 'defaultTeam must be a team id');

export const samlProviderCreateSchema = z
  .object(
    {
      label,
      // The document lists these as optional, but a provider without them could sign no one in.
      entityID,
      ssoURL,
      certificate,
      defaultTeam: defaultTeam.nullable().optional(),
      defaultRole: roleOrGuestSchema.optional(),
    },
    bodyObject,
  )
  .strict();
export type SamlProviderCreateInput = z.input<typeof samlProviderCreateSchema>;

export const samlProviderUpdateSchema = z
  .object(
    {
      label: label.optional(),
      entityID: entityID.optional(),
      ssoURL: ssoURL.optional(),
      certificate: certificate.optional(),
      defaultTeam: defaultTeam.nullable().optional(),
      defaultRole: roleOrGuestSchema.optional(),
    },
    bodyObject,
  )
  .strict();
export type SamlProviderUpdateInput = z.input<typeof samlProviderUpdateSchema>;

/** What an identity provider posts to the assertion consumer service (HTTP-POST binding). */
export const samlPostSchema = z.object({
  SAMLResponse: z
    .string({ error: 'SAMLResponse is required' })
    .min(1, 'SAMLResponse is required')
    .max(1_000_000, 'SAMLResponse is too large')
    .regex(/^[A-Za-z0-9+/=\s]+$/, 'SAMLResponse must be base64'),
  RelayState: z.string().max(1024, 'RelayState is too long').optional(),
});
export type SamlPost = z.input<typeof samlPostSchema>;
