import { z } from 'zod';
import { pageMarkdownSchema } from '../../domain/content';
import { isSafeUrl, LINK_URL, urlRuleText } from '../../domain/urls';
import { bodyObject } from '../../domain/validate';

/** What a page is: a document, a group of the table of contents, a link, or generated from a source. */
export const PAGE_TYPES = ['document', 'group', 'link', 'computed'] as const;
export type PageType = (typeof PAGE_TYPES)[number];

const pageId = (field: string) => z.string({ error: `${field} must be a page id` }).min(1, `${field} must be a page id`);

export const pagePositionSchema = z
  .object({ before: pageId('position.before').optional(), after: pageId('position.after').optional() }, { error: 'position must be an object' })
  .strict();
export type PagePositionInput = z.input<typeof pagePositionSchema>;

const title = z
  .string({ error: (issue) => (issue.input === undefined ? 'title is required' : 'title must be a string') })
  .trim()
  .min(1, 'title must be 1 to 200 characters')
  .max(200, 'title must be 1 to 200 characters');
const emoji = z.string({ error: 'emoji must be a string' }).min(1, 'emoji must not be empty').max(50, 'emoji must be at most 50 characters');
const icon = z.string({ error: 'icon must be a string' }).min(1, 'icon must not be empty').max(100, 'icon must be at most 100 characters');
const description = z.string({ error: 'description must be a string' }).max(1000, 'description must be at most 1000 characters');
const markdown = pageMarkdownSchema;
/** A link page's target: a URL, a path of the site, or the id of a page of the space. */
const href = z
  .string({ error: 'href must be a string' })
  .trim()
  .min(1, 'href must not be empty')
  .max(2048, 'href must be at most 2048 characters')
  .refine((value) => isSafeUrl(value, LINK_URL), `href must be ${urlRuleText(LINK_URL)}`);

const layout = z
  .object(
    {
      width: z.enum(['default', 'wide'], { error: 'layout.width must be default or wide' }),
      cover: z.boolean(),
      coverSize: z.enum(['hero', 'full'], { error: 'layout.coverSize must be hero or full' }),
      title: z.boolean(),
      description: z.boolean(),
      tableOfContents: z.boolean(),
      outline: z.boolean(),
      pagination: z.boolean(),
      metadata: z.boolean(),
    },
    { error: 'layout must be an object' },
  )
  .partial()
  .strict();

/** Where a computed page comes from: an OpenAPI specification of the organization, by slug. */
const computedSource = z
  .object(
    {
      openapiSpec: z.string({ error: 'computed.openapiSpec must be the slug of an OpenAPI specification' }).min(1, 'computed.openapiSpec must not be empty').max(100, 'computed.openapiSpec must be at most 100 characters'),
      models: z.boolean({ error: 'computed.models must be a boolean' }).optional(),
    },
    { error: 'computed must be an object' },
  )
  .strict();

export const pageCreateSchema = z
  .object(
    {
      type: z.enum(['document', 'group', 'link', 'computed'], { error: 'type must be document, group, link or computed' }).default('document'),
      parent: pageId('parent').nullable().optional(),
      position: pagePositionSchema.optional(),
      title,
      emoji: emoji.optional(),
      icon: icon.optional(),
      description: description.optional(),
      markdown: markdown.optional(),
      href: href.optional(),
      hidden: z.boolean({ error: 'hidden must be a boolean' }).optional(),
      computed: computedSource.optional(),
    },
    bodyObject,
  )
  .strict()
  .refine((p) => p.type !== 'computed' || p.computed !== undefined, { message: 'a computed page needs its source: computed.openapiSpec', path: ['computed'] })
  .refine((p) => p.type === 'computed' || p.computed === undefined, { message: 'only a computed page has a computed source', path: ['computed'] })
  .refine((p) => p.type !== 'link' || p.href !== undefined, { message: 'a link page needs an href', path: ['href'] })
  .refine((p) => p.type === 'link' || p.href === undefined, { message: 'only a link page has an href', path: ['href'] })
  .refine((p) => p.type === 'document' || (p.markdown === undefined && p.description === undefined), { message: 'only a document page has markdown or a description', path: ['markdown'] });
export type PageCreateInput = z.input<typeof pageCreateSchema>;

export const pageUpdateSchema = z
  .object(
    {
      title: title.optional(),
      emoji: emoji.nullable().optional(),
      icon: icon.nullable().optional(),
      description: description.nullable().optional(),
      markdown: markdown.optional(),
      href: href.optional(),
      hidden: z.boolean({ error: 'hidden must be a boolean' }).optional(),
      noIndex: z.boolean({ error: 'noIndex must be a boolean' }).optional(),
      noRobotsIndex: z.boolean({ error: 'noRobotsIndex must be a boolean' }).optional(),
      layout: layout.optional(),
    },
    bodyObject,
  )
  .strict();
export type PageUpdateInput = z.input<typeof pageUpdateSchema>;

export const pageMoveSchema = z
  .object({ parent: pageId('parent').nullable().optional(), position: pagePositionSchema.optional() }, bodyObject)
  .strict()
  .refine((m) => m.parent !== undefined || m.position !== undefined, { message: 'name a parent, a position or both' });
export type PageMoveInput = z.input<typeof pageMoveSchema>;

const fileName = z
  .string({ error: 'name must be a string' })
  .trim()
  .min(1, 'name must be 1 to 255 characters')
  .max(255, 'name must be 1 to 255 characters')
  .refine((n) => !/[/\\]/.test(n), 'name must not contain slashes');

/** Files go through GraphQL's multipart requests, whose whole body is capped by QUIRE_UPLOAD_LIMIT_BYTES. */
export const fileUploadSchema = z
  .object({
    name: fileName,
    contentType: z.string().max(255).optional(),
    bytes: z.instanceof(Buffer, { error: 'bytes must be the file content' }).refine((b) => b.length > 0, 'the file is empty'),
  })
  .strict();
export type FileUploadInput = z.input<typeof fileUploadSchema>;

export const fileRenameSchema = z.object({ name: fileName }).strict();
export type FileRenameInput = z.input<typeof fileRenameSchema>;

/** Which links to list: of every page or of one, of any status or of one. */
export const linkQuerySchema = z.object({
  pageId: z.string().optional(),
  status: z.enum(['ok', 'broken', 'in-app'], { error: 'status must be one of ok, broken, in-app' }).optional(),
});
export type LinkQueryInput = z.input<typeof linkQuerySchema>;

export const searchSchema = z.object({
  query: z
    .string({ error: 'query is required' })
    .trim()
    .min(1, 'query must not be empty')
    .max(512, 'query must be at most 512 characters')
    // PostgreSQL refuses a NUL in text: it would fail the statement instead of finding nothing.
    .refine((q) => !q.includes('\0'), 'query must not contain a NUL character'),
});
export type SearchInput = z.input<typeof searchSchema>;
