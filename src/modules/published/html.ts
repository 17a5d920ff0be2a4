import type { Root as HastRoot, Element } from 'hast';
import type { Root as MdRoot } from 'mdast';
import rehypeHighlight from 'rehype-highlight';
import rehypeSanitize, { defaultSchema } from 'rehype-sanitize';
import rehypeSlug from 'rehype-slug';
import rehypeStringify from 'rehype-stringify';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { markdownNodes, parseMarkdownTree } from '../../lib/markdown-tree';

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

/**
 * A page's markdown as safe HTML: sanitized first (whatever the author wrote), then headings get
 * ids and code is highlighted. Links and images are rewritten to the published site's URLs.
 */
export async function markdownToHtml(markdown: string, rewrite: Rewrite): Promise<{ html: string; headings: Heading[] }> {
  const headings: Heading[] = [];
  const tree = parseMarkdownTree(markdown);
  rewriteUrls(tree, rewrite);
  const processor = unified()
    .use(remarkRehype)
    .use(rehypeSanitize, { ...defaultSchema, clobberPrefix: '' })
    .use(rehypeSlug)
    .use(() => collectHeadings(headings))
    .use(rehypeHighlight, { detect: false })
    .use(rehypeStringify);
  const html = processor.stringify(await processor.run(tree));
  return { html, headings };
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text for HTML, attributes included. */
export const esc = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
