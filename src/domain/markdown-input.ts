import type { z } from 'zod';
import { MARKDOWN_MAX_NESTING, markdownNodes, parseMarkdownTree } from '../lib/markdown-tree';
import { isSafeUrl, LINK_URL, urlRuleText } from './urls';

/**
 * What is wrong with some markdown, or null: nesting deeper than the server keeps, or a link or
 * image target that is not a safe link (`[x](javascript:...)`, `![x](data:...)`, a reference to
 * `[x]: vbscript:...`, `<file:///etc>`). Raw HTML is not looked at: it is never rendered as markup.
 * One parse (linear in the text) and one walk without recursion. `links: false` looks at nesting
 * only (imported pages: what another site links to is kept, and never rendered if unsafe).
 */
export function markdownProblem(markdown: string, { links = true } = {}): string | null {
  for (const [node, nesting] of markdownNodes(parseMarkdownTree(markdown))) {
    if (nesting > MARKDOWN_MAX_NESTING) return `quotes, lists, emphasis and links may nest at most ${MARKDOWN_MAX_NESTING} levels deep`;
    if (links && (node.type === 'link' || node.type === 'image' || node.type === 'definition') && !isSafeUrl(node.url, LINK_URL)) {
      const shown = node.url.length > 80 ? `${node.url.slice(0, 80)}...` : node.url;
      return `the link or image target ${JSON.stringify(shown)} is not accepted; a link must be ${urlRuleText(LINK_URL)}`;
    }
  }
  return null;
}

/** For a zod schema's `superRefine`: refuses markdown the server would not keep, saying why (`parseInput` names the field). */
export const acceptableMarkdown = (markdown: string, ctx: z.RefinementCtx) => {
  const problem = markdownProblem(markdown);
  if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
};
