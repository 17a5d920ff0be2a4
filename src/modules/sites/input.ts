import { z } from 'zod';
import { AGENTS_CONTEXTS, SITE_TYPES, SITE_VISIBILITIES } from '../../domain/sites';
import { bodyObject } from '../../domain/validate';
import { conditionSchema } from '../../domain/conditions';

const title = z.string({ error: 'title must be a string' }).trim().min(2, 'title must be 2 to 128 characters').max(128, 'title must be 2 to 128 characters');
const visibility = z.enum(SITE_VISIBILITIES, { error: `visibility must be one of ${SITE_VISIBILITIES.join(', ')}` });
const siteType = z.enum(SITE_TYPES, { error: `type must be one of ${SITE_TYPES.join(', ')}` });
const id = (field: string) => z.string({ error: `${field} must be a string` }).min(1, `${field} must not be empty`).max(100, `${field} is not an id`);

export const siteCreateSchema = z
  .object(
    {
      type: siteType.optional(),
      title,
      visibility: visibility.optional(),
      spaces: z
        .union([z.array(id('spaces.*'), { error: 'spaces must be a list of space ids, "sample" or "empty"' }).max(100, 'spaces may hold at most 100 ids'), z.enum(['sample', 'empty'])], {
          error: 'spaces must be a list of space ids, "sample" or "empty"',
        })
        .optional(),
    },
    bodyObject,
  )
  .strict();
export type SiteCreateInput = z.input<typeof siteCreateSchema>;

/** A URL path segment the site is published under: letters, digits, dashes and underscores. */
const basename = z
  .string({ error: 'basename must be a string' })
  .min(1, 'basename must be 1 to 100 characters')
  .max(100, 'basename must be 1 to 100 characters')
  .regex(/^[a-zA-Z0-9][\w-]*$/, 'basename may hold letters, digits, "-" and "_", and must start with a letter or a digit');

/** The platform's SiteProxyOrigin: a host with at least one path segment, no scheme. */
const proxyOrigin = z
  .string({ error: 'proxy must be a URL like company.com/docs, or null' })
  .max(512, 'proxy must be at most 512 characters')
  .regex(/^([\w-]+\.)*[\w-]+\.[a-zA-Z]{2,}(\/[\w-]+)+$/, 'proxy must be a host and a path without a scheme, like company.com/docs');

export const siteUpdateSchema = z
  .object(
    {
      title: title.optional(),
      visibility: visibility.optional(),
      basename: basename.optional(),
      adaptiveContent: z.object({ enabled: z.boolean({ error: 'adaptiveContent.enabled must be a boolean' }) }, { error: 'adaptiveContent must be { enabled }' }).strict().optional(),
      agentsContext: z.enum(AGENTS_CONTEXTS, { error: `agentsContext must be one of ${AGENTS_CONTEXTS.join(', ')}` }).optional(),
      defaultSiteSpace: id('defaultSiteSpace').optional(),
      defaultSiteSection: id('defaultSiteSection').optional(),
      proxy: proxyOrigin.nullable().optional(),
    },
    bodyObject,
  )
  .strict();
export type SiteUpdateInput = z.input<typeof siteUpdateSchema>;

export const siteListSchema = z.object({
  space: z.string().optional(),
  title: z.string().max(128, 'title must be at most 128 characters').optional(),
  published: z.enum(['true', 'false'], { error: 'published must be true or false' }).optional(),
  type: z.array(siteType).optional(),
});
export type SiteListInput = z.input<typeof siteListSchema>;

const sitePath = z
  .string({ error: 'path must be a string' })
  .min(1, 'path must be 1 to 100 characters')
  .max(100, 'path must be 1 to 100 characters')
  .regex(/^[\w-]+$/, 'path may hold letters, digits, "-" and "_"');

export const siteSpaceAddSchema = z.object({ spaceId: id('spaceId'), sectionId: id('sectionId').optional() }, bodyObject).strict();
export type SiteSpaceAddInput = z.input<typeof siteSpaceAddSchema>;

export const siteSpaceUpdateSchema = z
  .object({ path: sitePath.optional(), condition: conditionSchema.nullable().optional(), spaceId: id('spaceId').optional() }, bodyObject)
  .strict();
export type SiteSpaceUpdateInput = z.input<typeof siteSpaceUpdateSchema>;

const shareLinkName = z.string({ error: 'name must be a string' }).max(50, 'name must be at most 50 characters');

export const shareLinkCreateSchema = z.object({ name: shareLinkName }, bodyObject).strict();
export type ShareLinkCreateInput = z.input<typeof shareLinkCreateSchema>;

export const shareLinkUpdateSchema = z
  .object({ name: shareLinkName.optional(), active: z.boolean({ error: 'active must be a boolean' }).optional() }, bodyObject)
  .strict()
  .refine((b) => b.name !== undefined || b.active !== undefined, { message: 'name or active must be given' });
export type ShareLinkUpdateInput = z.input<typeof shareLinkUpdateSchema>;

const icon = z.string({ error: 'icon must be a string' }).max(50, 'icon must be at most 50 characters');
const sectionTitle = z.string({ error: 'title must be a string' }).trim().min(2, 'title must be 2 to 128 characters').max(128, 'title must be 2 to 128 characters');

export const sectionCreateSchema = z.object({ spaceId: id('spaceId'), title: sectionTitle.nullable().optional().transform((t) => t ?? undefined), icon: icon.nullable().optional() }, bodyObject).strict();
export type SectionCreateInput = z.input<typeof sectionCreateSchema>;

export const sectionUpdateSchema = z
  .object(
    {
      title: sectionTitle.optional(),
      path: sitePath.optional(),
      description: z.string({ error: 'description must be a string' }).max(256, 'description must be at most 256 characters').optional(),
      defaultSiteSpace: id('defaultSiteSpace').optional(),
      condition: conditionSchema.nullable().optional(),
      icon: icon.nullable().optional(),
    },
    bodyObject,
  )
  .strict();
export type SectionUpdateInput = z.input<typeof sectionUpdateSchema>;

const groupTitle = z.string({ error: 'title must be a string' }).trim().min(1, 'title must be 1 to 100 characters').max(100, 'title must be 1 to 100 characters');

export const sectionGroupCreateSchema = z
  .object({ title: groupTitle, icon: icon.nullable().optional(), sections: z.array(id('sections.*'), { error: 'sections must be a list of section ids' }).max(100).optional() }, bodyObject)
  .strict();
export type SectionGroupCreateInput = z.input<typeof sectionGroupCreateSchema>;

export const sectionGroupUpdateSchema = z.object({ title: groupTitle.optional(), icon: icon.nullable().optional() }, bodyObject).strict();
export type SectionGroupUpdateInput = z.input<typeof sectionGroupUpdateSchema>;

const STRUCTURE_TYPES = ['site-space', 'site-section', 'site-section-group'] as const;
const pointer = z.object({ type: z.enum(STRUCTURE_TYPES, { error: `type must be one of ${STRUCTURE_TYPES.join(', ')}` }), id: id('id') }, { error: 'a pointer is { type, id }' }).strict();
export type StructurePointer = z.output<typeof pointer>;

export const structureSortSchema = z
  .object(
    {
      item: pointer,
      position: z
        .object({ before: pointer.optional(), after: pointer.optional() }, { error: 'position must be { before } or { after }' })
        .strict()
        .refine((p) => !(p.before && p.after), { message: 'position takes before or after, not both' })
        .optional(),
    },
    bodyObject,
  )
  .strict();
export type StructureSortInput = z.input<typeof structureSortSchema>;

/** The spec's SiteRedirectSourcePath: `/` then segments of unreserved characters and percent-escapes, at most 512 characters. */
const SOURCE_PATH = /^\/(?:[A-Za-z0-9\-._~]|%[0-9A-Fa-f]{2})+(?:\/(?:[A-Za-z0-9\-._~]|%[0-9A-Fa-f]{2})+)*$/;
export const redirectSource = (field: string) =>
  z
    .string({ error: `${field} must be a string` })
    .max(512, `${field} must be at most 512 characters`)
    .regex(SOURCE_PATH, `${field} must be a path like /old/page: "/" then segments of letters, digits, "-", ".", "_", "~" and percent-escapes, no trailing "/"`)
    // One spelling per path: `%2f` and `%2F` are the same escape.
    .transform((s) => s.replace(/%[0-9a-f]{2}/gi, (e) => e.toUpperCase()));

const destination = z.discriminatedUnion(
  'kind',
  [
    z.object({ kind: z.literal('site-section'), siteSectionId: id('destination.siteSectionId') }).strict(),
    z.object({ kind: z.literal('site-space'), siteSpaceId: id('destination.siteSpaceId') }).strict(),
    z.object({ kind: z.literal('site-page'), siteSpaceId: id('destination.siteSpaceId'), pageId: id('destination.pageId') }).strict(),
  ],
  { error: 'destination must be { kind: "site-section", siteSectionId }, { kind: "site-space", siteSpaceId } or { kind: "site-page", siteSpaceId, pageId }' },
);
export type SiteRedirectDestination = z.output<typeof destination>;

export const siteRedirectCreateSchema = z.object({ source: redirectSource('source'), destination }, bodyObject).strict();
export type SiteRedirectCreateInput = z.input<typeof siteRedirectCreateSchema>;

export const siteRedirectUpdateSchema = z
  .object({ source: redirectSource('source').optional(), destination: destination.optional() }, bodyObject)
  .strict()
  .refine((b) => b.source !== undefined || b.destination !== undefined, { message: 'source or destination must be given' });
export type SiteRedirectUpdateInput = z.input<typeof siteRedirectUpdateSchema>;

export const siteRedirectLookupSchema = z.object({ source: redirectSource('source'), shareKey: z.string().max(200, 'shareKey is not a share key').optional() }).strict();
export type SiteRedirectLookupInput = z.input<typeof siteRedirectLookupSchema>;
