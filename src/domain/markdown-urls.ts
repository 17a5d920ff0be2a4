import type { Nodes } from 'mdast';
import type { z } from 'zod';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { isSafeUrl, LINK_URL, urlRuleText } from './urls';

const parser = unified().use(remarkParse).use(remarkGfm);

/**
 * The first link or image target of some markdown that is not a safe link (`[x](javascript:...)`,
 * `![x](data:...)`, `[x]: vbscript:...`, `<file:///etc>`), or null. Raw HTML is not looked at:
 * it is never rendered as markup. Markdown without `](`, `]:` or `<` has no such target (bare
 * autolinks are http(s) or e-mail only), so most bodies are not parsed at all.
 */
export function unsafeMarkdownUrl(markdown: string): string | null {
  if (!markdown.includes('](') && !markdown.includes(']:') && !markdown.includes('<')) return null;
  const stack: Nodes[] = [parser.parse(markdown)];
  while (stack.length) {
    const node = stack.pop()!;
    if ((node.type === 'link' || node.type === 'image' || node.type === 'definition') && !isSafeUrl(node.url, LINK_URL)) return node.url;
    if ('children' in node) for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
  }
  return null;
}

/** For a zod schema's `superRefine`: refuses markdown with an unsafe link or image, naming the target (`parseInput` names the field). */
export const safeMarkdownLinks = (markdown: string, ctx: z.RefinementCtx) => {
  const url = unsafeMarkdownUrl(markdown);
  if (url === null) return;
  const shown = url.length > 80 ? `${url.slice(0, 80)}...` : url;
  ctx.addIssue({ code: 'custom', message: `the link or image target ${JSON.stringify(shown)} is not accepted; a link must be ${urlRuleText(LINK_URL)}` });
};
