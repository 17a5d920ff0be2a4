import type { Nodes, Root } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkStringify from 'remark-stringify';
import { unified } from 'unified';
import { parseMarkdownTree } from '../../lib/markdown-tree';

/*
 * Only prose is sent to the engine: the markdown is parsed into its syntax tree, the text nodes
 * (and image descriptions) become segments, and everything else (code blocks, inline code, link
 * and image URLs, HTML, the structure itself) stays as it was. The translations are put back into
 * the same tree, which is serialized to markdown again.
 */

const processor = unified().use(remarkGfm).use(remarkStringify, { bullet: '-', fences: true, rule: '-', listItemIndent: 'one' });

/** A piece of prose to translate, and where its translation goes. */
export interface Segment {
  text: string;
  words: number;
  put(translated: string): void;
}

/** Node kinds whose content is never translated. */
const KEPT = new Set(['code', 'inlineCode', 'html', 'definition', 'math', 'inlineMath', 'yaml', 'toml']);

const HAS_LETTER = /\p{L}/u;

export const countWords = (text: string) => text.split(/\s+/).filter((w) => HAS_LETTER.test(w)).length;

/** A segment of a string: only its core goes out, the whitespace around it is kept as is. */
function segmentOf(value: string, set: (value: string) => void): Segment | null {
  const [, lead, core, trail] = /^(\s*)([\s\S]*?)(\s*)$/.exec(value)!;
  if (!HAS_LETTER.test(core!)) return null;
  return { text: core!, words: countWords(core!), put: (translated) => set(`${lead}${translated}${trail}`) };
}

/** A plain string (a title, a description) as one segment; null when it holds no words. */
export function plainSegment(value: string, set: (value: string) => void): Segment | null {
  return segmentOf(value, set);
}

/** A markdown body's segments, and how to write the body once they are all put. */
export function markdownSegments(markdown: string): { segments: Segment[]; render(): string } {
  const tree: Root = parseMarkdownTree(markdown);
  const segments: Segment[] = [];
  const visit = (node: Nodes) => {
    if (KEPT.has(node.type)) return;
    if (node.type === 'text') {
      const segment = segmentOf(node.value, (v) => (node.value = v));
      if (segment) segments.push(segment);
      return;
    }
    if ((node.type === 'image' || node.type === 'imageReference') && node.alt) {
      const segment = segmentOf(node.alt, (v) => (node.alt = v));
      if (segment) segments.push(segment);
    }
    if ('children' in node) for (const child of node.children) visit(child as Nodes);
  };
  visit(tree);
  return { segments, render: () => processor.stringify(tree).replace(/\n$/, '') };
}
