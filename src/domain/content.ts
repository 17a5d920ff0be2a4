import { z } from 'zod';
import { acceptableMarkdown } from './markdown-input';

/*
 * Shapes of content that other modules borrow: how a read of a revision or a page is asked for
 * (change requests read their own revisions the same way), and the pages and files that imports,
 * templates, sample sites and translations hand to the content service.
 */

/** A page body; a megabyte of markdown is a book. */
export const MAX_MARKDOWN_BYTES = 1_000_000;

/** A page body as an editor sends it: within the size, and nothing the server would not keep. */
export const pageMarkdownSchema = z
  .string({ error: 'markdown must be a string' })
  .refine((text) => Buffer.byteLength(text) <= MAX_MARKDOWN_BYTES, { message: `markdown must be at most ${MAX_MARKDOWN_BYTES} bytes`, abort: true })
  .superRefine(acceptableMarkdown);

export const pageReadSchema = z.object({
  format: z.enum(['document', 'markdown'], { error: 'format must be document or markdown' }).default('document'),
  evaluated: z.enum(['true', 'false'], { error: 'evaluated must be true or false' }).optional(),
  metadata: z.enum(['true', 'false'], { error: 'metadata must be true or false' }).optional(),
  computed: z.enum(['true', 'false'], { error: 'computed must be true or false' }).optional(),
});
export type PageReadInput = z.input<typeof pageReadSchema>;

export const revisionReadSchema = pageReadSchema.omit({ format: true, evaluated: true });
export type RevisionReadInput = z.input<typeof revisionReadSchema>;

/**
 * How a page's JSON document is asked for (`/revisions/{id}/page/{id}/document`). Quire's documents
 * hold no expressions to evaluate and no reusable contents to expand, so every accepted value
 * answers the same document; the values are still checked, as the platform's spec lists them.
 */
export const pageDocumentReadSchema = z.object({
  evaluated: z.enum(['true', 'false', 'deterministic-only'], { error: 'evaluated must be true, false or deterministic-only' }).optional(),
  dereferenced: z.enum(['true', 'false', 'reusable-contents'], { error: 'dereferenced must be true, false or reusable-contents' }).optional(),
});
export type PageDocumentReadInput = z.input<typeof pageDocumentReadSchema>;

/** A page to add with its subpages, as imports and templates produce them. */
export interface NewPage {
  type?: 'document' | 'group' | 'link';
  title: string;
  /** The slug to keep (a translation keeps its source's paths, so relative links hold); made from the title when absent. */
  slug?: string;
  emoji?: string;
  description?: string;
  markdown?: string;
  href?: string;
  hidden?: boolean;
  children?: NewPage[];
}

/** A file to add, bytes and all. */
export interface NewFile {
  name: string;
  bytes: Buffer;
  contentType?: string;
}

