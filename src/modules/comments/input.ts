import { z } from 'zod';
import { acceptableMarkdown } from '../../domain/markdown-input';
import { bodyObject } from '../../domain/validate';

/** Longest comment or reply body, in characters of markdown. */
export const MAX_BODY_LENGTH = 20_000;
/** Reactions one update may add or remove. */
const MAX_REACTIONS = 20;

// One emoji as people type them: a single RGI emoji sequence (flags, skin tones, ZWJ families).
const EMOJI = new RegExp("^\\p{RGI_Emoji}$", "v");

/** The platform's `Document` for a body: Quire takes markdown. */
const body = z
  .object(
    {
      markdown: z
        .string({ error: 'body.markdown must be a string' })
        .refine((s) => s.trim().length > 0, 'body.markdown must not be empty')
        .refine((s) => s.length <= MAX_BODY_LENGTH, { message: `body.markdown must be at most ${MAX_BODY_LENGTH} characters`, abort: true })
        .superRefine(acceptableMarkdown),
      document: z.unknown().optional(),
    },
    { error: (issue) => (issue.code === 'invalid_type' ? 'body must be an object: { "markdown": "..." }' : undefined) },
  )
  .refine((b) => b.document === undefined, { message: 'body: send the text as { "markdown": "..." }; JSON documents are not accepted here', path: ['document'] });

const emojiList = (field: string) =>
  z
    .array(
      z.string({ error: `${field} must be emoji` }).refine((s) => EMOJI.test(s), { message: `${field}: each reaction must be one emoji, such as 👍` }),
      { error: `${field} must be an array of emoji` },
    )
    .max(MAX_REACTIONS, `${field}: at most ${MAX_REACTIONS} at once`);

const id = (field: string) => z.string({ error: `${field} must be a string` }).min(1, `${field} must not be empty`).max(200, `${field} is too long`);

export const commentPostSchema = z
  .object(
    {
      body,
      page: id('page').optional(),
      node: id('node').optional(),
      tableCell: z
        .object({ record: id('tableCell.record'), definition: id('tableCell.definition') }, { error: 'tableCell must be { record, definition }' })
        .strict()
        .optional(),
    },
    bodyObject,
  )
  .strict()
  .refine((b) => (b.node === undefined && b.tableCell === undefined) || b.page !== undefined, {
    message: 'page is required with node or tableCell: the page they belong to',
    path: ['page'],
  });
export type CommentPostInput = z.input<typeof commentPostSchema>;

export const commentUpdateSchema = z
  .object(
    {
      resolved: z.boolean({ error: 'resolved must be true or false' }).optional(),
      body: body.optional(),
      addedReactions: emojiList('addedReactions').optional(),
      removedReactions: emojiList('removedReactions').optional(),
    },
    bodyObject,
  )
  .strict();
export type CommentUpdateInput = z.input<typeof commentUpdateSchema>;

export const replyPostSchema = z.object({ body }, bodyObject).strict();
export type ReplyPostInput = z.input<typeof replyPostSchema>;

export const replyUpdateSchema = z
  .object(
    {
      body: body.optional(),
      addedReactions: emojiList('addedReactions').optional(),
      removedReactions: emojiList('removedReactions').optional(),
      // The change-request variant of the platform's schema shows it; a reply has no status of its own.
      resolved: z.boolean({ error: 'resolved must be true or false' }).optional(),
    },
    bodyObject,
  )
  .strict()
  .refine((b) => b.resolved === undefined, { message: 'resolved: resolve the comment, not one of its replies', path: ['resolved'] });
export type ReplyUpdateInput = z.input<typeof replyUpdateSchema>;

export const FORMATS = ['markdown', 'document'] as const;
const format = z.enum(FORMATS, { error: 'format must be markdown or document' }).default('document');

export const commentListSchema = z.object({
  order: z.enum(['asc', 'desc'], { error: 'order must be asc or desc' }).default('desc'),
  status: z.enum(['all', 'open', 'resolved'], { error: 'status must be all, open or resolved' }).default('all'),
  format,
  targetPage: id('targetPage').optional(),
  authors: z.array(id('authors')).max(50, 'authors: at most 50').default([]),
});
export type CommentListInput = z.input<typeof commentListSchema>;

export const formatSchema = z.object({ format });
export type FormatInput = z.input<typeof formatSchema>;
