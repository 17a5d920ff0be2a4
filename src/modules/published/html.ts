import type { Root as HastRoot, Element, ElementContent } from 'hast';
import type { Root as MdRoot } from 'mdast';
import rehypeHighlight from 'rehype-highlight';
import rehypeSanitize, { defaultSchema } from 'rehype-sanitize';
import rehypeSlug from 'rehype-slug';
import rehypeStringify from 'rehype-stringify';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { toString } from 'mdast-util-to-string';
import { markdownNodes, parseMarkdownTree } from '../../lib/markdown-tree';
import { renderHints } from './hints';

/** A heading of the page, for its "on this page" outline. */
export interface Heading {
  depth: number;
  id: string;
  text: string;
}

/** Where a link or an image of the markdown points on the published site; null leaves it as written. */
export type Rewrite = (href: string, kind: 'link' | 'image') => string | null;

function rewriteUrls(tree: MdRoot, rewrite: Rewrite) {
  for (const [node] of markdownNodes(tree)) {
    if (node.type === 'link' || node.type === 'image') node.url = rewrite(node.url, node.type) ?? node.url;
  }
}

function collectHeadings(into: Heading[]) {
  return (tree: HastRoot) => {
    const text = (n: { type: string; value?: string; children?: unknown[] }): string => (n.type === 'text' ? (n.value ?? '') : (n.children ?? []).map((c) => text(c as never)).join(''));
    for (const node of tree.children) {
      const el = node as Element;
      if (el.type === 'element' && /^h[23]$/.test(el.tagName) && typeof el.properties?.id === 'string') into.push({ depth: Number(el.tagName[1]), id: el.properties.id, text: text(el as never) });
    }
  };
}

const sameTitle = (a: string, b: string) => a.replace(/\s+/g, ' ').trim().toLowerCase() === b.replace(/\s+/g, ' ').trim().toLowerCase();

/** A body that opens with the page's own title as its H1 (as exports write pages) loses that H1: the page shows its title already. */
function dropRepeatedTitle(tree: MdRoot, title: string) {
  const first = tree.children[0];
  if (first?.type === 'heading' && first.depth === 1 && sameTitle(toString(first), title)) tree.children.shift();
}

/** Marks the integration blocks of a tree (see blocks.ts) and renders them, as hast by slot number. */
export type Embed = (tree: MdRoot) => Promise<Map<number, ElementContent>>;

/** The element standing for an embedded block until its render replaces it; only `Embed` makes it. */
export const SLOT_TAG = 'quire-block';

const SCHEMA = { ...defaultSchema, clobberPrefix: '', tagNames: [...(defaultSchema.tagNames ?? []), SLOT_TAG], attributes: { ...defaultSchema.attributes, [SLOT_TAG]: ['dataSlot'] } };

/*
 * Rendered blocks go in after the sanitizer: they are built element by element from the
 * integration's answer (contentkit.ts), iframes included, which the sanitizer would remove. A slot
 * cannot come from the author: raw HTML never reaches the tree (remark-rehype drops it).
 */
function fillSlots(rendered: Map<number, ElementContent>) {
  return (tree: HastRoot) => {
    tree.children = tree.children.map((node) => (node.type === 'element' && node.tagName === SLOT_TAG ? (rendered.get(Number(node.properties.dataSlot)) ?? { type: 'text', value: '' }) : node));
  };
}

/**
 * A page's markdown as safe HTML: sanitized first (whatever the author wrote), then headings get
 * ids, code is highlighted and hint blocks become callouts. Links and images are rewritten to the
 * published site's URLs. `embed` puts integration blocks in, rendered. With `title` (the page shows
 * its title), an opening H1 that repeats it is left out.
 */
export async function markdownToHtml(markdown: string, rewrite: Rewrite, embed?: Embed, title?: string): Promise<{ html: string; headings: Heading[] }> {
  const headings: Heading[] = [];
  const tree = parseMarkdownTree(markdown);
  if (title !== undefined) dropRepeatedTitle(tree, title);
  rewriteUrls(tree, rewrite);
  const rendered = embed ? await embed(tree) : new Map<number, ElementContent>();
  const processor = unified()
    .use(remarkRehype)
    .use(rehypeSanitize, SCHEMA)
    .use(rehypeSlug)
    .use(() => collectHeadings(headings))
    .use(rehypeHighlight, { detect: false })
    .use(() => fillSlots(rendered))
    .use(renderHints)
    .use(rehypeStringify);
  const html = processor.stringify(await processor.run(tree));
  return { html, headings };
}

/**
 * Markdown an integration wrote (a ContentKit `markdown` element) as sanitized hast: the same
 * parser and sanitizer as page bodies, ids prefixed so they cannot clash with the page's.
 */
export async function integrationMarkdownToHast(markdown: string): Promise<ElementContent[]> {
  const processor = unified().use(remarkRehype).use(rehypeSanitize, defaultSchema);
  const tree = (await processor.run(parseMarkdownTree(markdown))) as HastRoot;
  return tree.children.filter((n): n is ElementContent => n.type !== 'doctype');
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text for HTML, attributes included. */
export const esc = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
