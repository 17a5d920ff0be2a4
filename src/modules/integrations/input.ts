import { z } from 'zod';
import { acceptableMarkdown } from '../../domain/markdown-input';
import { webUrlSchema } from '../../domain/urls';
import { bodyObject, oneOf } from '../../domain/validate';

/** The v0.137 spec's enums (`IntegrationScope`, `IntegrationCategory`, `IntegrationTarget`, `IntegrationVisibility`). */
export const INTEGRATION_SCOPES = [
  'space:views:read', 'space:content:read', 'space:content:write', 'space:metadata:read', 'space:metadata:write',
  'space:script:inject', 'space:script:cookies', 'space:git:sync', 'space:visitor:auth', 'site:metadata:read',
  'site:views:read', 'site:script:inject', 'site:script:cookies', 'site:visitor:auth', 'site:adaptive:read',
  'site:adaptive:write', 'site:ai:ask', 'openapi:read', 'openapi:write', 'conversations:ingest',
] as const;
export const INTEGRATION_CATEGORIES = ['analytics', 'collaboration', 'content', 'gitsync', 'marketing', 'visitor-auth', 'other'] as const;
export const INTEGRATION_TARGETS = ['all', 'site', 'space', 'organization'] as const;
export const INTEGRATION_VISIBILITIES = ['public', 'private', 'unlisted'] as const;

export const INTEGRATION_NAME = /^[a-zA-Z0-9-_.]+$/;

const ICON_BYTES = 250 * 1024;
const PREVIEW_BYTES = 1024 * 1024;
const MAX_PREVIEWS = 3;
const SCRIPT_CHARACTERS = 10 * 1024 * 1024;
const base64Length = (bytes: number) => Math.ceil((bytes * 4) / 3) + 4;

/**
 * The largest body `POST /v1/integrations/{name}` can need with everything at its limit: the icon
 * and three previews in base64 and a 10 MB script, plus 1 MB for JSON escapes in the script and
 * the rest of the manifest: 16,069,992 bytes (15.3 MiB). Every other route keeps the server's body limit.
 */
export const PUBLISH_BODY_LIMIT_BYTES = base64Length(ICON_BYTES) + MAX_PREVIEWS * base64Length(PREVIEW_BYTES) + SCRIPT_CHARACTERS + 1024 * 1024;

const base64 = (noun: string, maxBytes: number) =>
  z
    .string({ error: `${noun} must be base64 text` })
    .regex(/^[A-Za-z0-9+/\s]*={0,2}$/, `${noun} must be base64 text`)
    .refine((s) => Buffer.byteLength(s) <= base64Length(maxBytes), `${noun} is larger than ${maxBytes / 1024} KB`);

const block = z
  .object({
    id: z.string().min(1),
    title: z.string().min(2).max(40),
    description: z.string().max(150).optional(),
    icon: z.string().optional(),
    urlUnfurl: z.array(z.string()).optional(),
    markdown: z.object({ codeblock: z.string(), body: z.string() }).optional(),
  })
  .loose();

const contentSource = z
  .object({ id: z.string().min(1), title: z.string().min(2).max(40), description: z.string().max(150).optional(), icon: z.string().optional(), configuration: z.object({ componentId: z.string() }).loose() })
  .loose();

const configuration = z.object({ properties: z.record(z.string(), z.record(z.string(), z.unknown())).optional(), required: z.array(z.string()).optional() }).loose();

export const publishSchema = z.object(
  {
    runtime: oneOf(['v1', 'v2'], 'runtime').optional(),
    icon: base64('icon', ICON_BYTES).optional(),
    title: z.string({ error: 'title is required' }).min(2, 'title must be 2 to 30 characters').max(30, 'title must be 2 to 30 characters'),
    description: z.string({ error: 'description is required' }).max(100, 'description must be at most 100 characters'),
    summary: z.string().max(2048, { message: 'summary must be at most 2048 characters', abort: true }).superRefine(acceptableMarkdown).optional(),
    previewImages: z.array(base64('previewImages', PREVIEW_BYTES)).max(MAX_PREVIEWS, `previewImages: at most ${MAX_PREVIEWS} images`).optional(),
    visibility: oneOf(INTEGRATION_VISIBILITIES, 'visibility').optional(),
    target: oneOf(INTEGRATION_TARGETS, 'target').optional(),
    scopes: z.array(oneOf(INTEGRATION_SCOPES, 'scope'), { error: 'scopes is required' }),
    categories: z.array(oneOf(INTEGRATION_CATEGORIES, 'category')).optional(),
    blocks: z.array(block).optional(),
    contentSources: z.array(contentSource).optional(),
    externalLinks: z.array(z.object({ url: webUrlSchema(null), label: z.string() })).max(5).optional(),
    configurations: z.object({ account: configuration.optional(), space: configuration.optional(), site: configuration.optional() }).optional(),
    script: z.string({ error: 'script is required' }).min(1, 'script is required').max(SCRIPT_CHARACTERS, 'script is larger than 10 MB'),
    organization: z.string({ error: 'organization is required' }).min(1, 'organization is required'),
    secrets: z
      .record(z.string(), z.string({ error: 'secrets: values must be strings' }))
      .refine((s) => Object.keys(s).length <= 20, 'secrets: at most 20')
      .optional(),
    contentSecurityPolicy: z.union([z.string(), z.record(z.string(), z.string())]).optional(),
  },
  bodyObject,
);
export type PublishInput = z.input<typeof publishSchema>;

export const integrationListSchema = z.object({
  search: z.string().max(200).optional(),
  category: oneOf(INTEGRATION_CATEGORIES, 'category').optional(),
  blockDomain: z.string().regex(INTEGRATION_NAME, 'blockDomain must be a domain name').optional(),
  blocks: z.boolean().optional(),
  contentSources: z.boolean().optional(),
  owner: z.string().min(1).optional(),
  scope: oneOf(INTEGRATION_SCOPES, 'scope').optional(),
  target: oneOf(INTEGRATION_TARGETS, 'target').optional(),
});
export type IntegrationListInput = z.input<typeof integrationListSchema>;

export const devModeSchema = z.object(
  { tunnelUrl: z.string({ error: 'tunnelUrl is required' }).min(1, 'tunnelUrl is required').max(256, 'tunnelUrl must be at most 256 characters'), all: z.boolean({ error: 'all must be a boolean' }).optional() },
  bodyObject,
);
export type DevModeInput = z.input<typeof devModeSchema>;
