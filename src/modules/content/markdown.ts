import type { BlockContent, Content, ListItem, PhrasingContent, RootContent, Table, Text } from 'mdast';
import { toString } from 'mdast-util-to-string';
import { markdownNodes, parseMarkdownTree } from '../../lib/markdown-tree';
import { HINT_CLOSE, HINT_OPEN, hintStyle } from '../../lib/hint-tags';
import { blockOfFence, NO_BLOCK_LANGUAGES, parseBlockTag, type BlockLanguages, type IntegrationBlockData } from './block-syntax';
import { slugify } from './slugs';

/*
 * A page body is markdown, as people write it; the platform's JSON document is derived from it with
 * a real parser (markdown-it, with GitHub's tables, task lists and strikethrough; see lib/markdown-tree). Links
 * are resolved against the revision by the caller's `resolve`, so the same body points at pages and
 * files of whatever revision it sits in.
 */

export type ContentRef =
  | { kind: 'url'; url: string }
  | { kind: 'page'; page: string }
  | { kind: 'file'; file: string }
  | { kind: 'anchor'; anchor: string; page?: string };

/** What a link's target turned out to be, and whether it points at something that exists. */
export interface Resolved {
  ref: ContentRef;
  status: 'ok' | 'broken' | 'in-app' | 'external';
}

export type Resolver = (href: string) => Resolved;

type Json = Record<string, unknown>;
type Mark = 'bold' | 'italic' | 'code' | 'strikethrough';

const leaf = (text: string, marks: Mark[]) => ({ object: 'leaf', text, marks: marks.map((type) => ({ object: 'mark', type })) });
const text = (leaves: Json[]) => ({ object: 'text', leaves });

/** Inline content as the document's text and inline nodes, marks carried down to the leaves. */
function inlines(nodes: PhrasingContent[], resolve: Resolver, marks: Mark[] = []): Json[] {
  const out: Json[] = [];
  const push = (node: Json) => {
    const last = out[out.length - 1];
    // Adjacent texts merge into one text node of several leaves.
    if (node.object === 'text' && last?.object === 'text') (last.leaves as Json[]).push(...(node.leaves as Json[]));
    else out.push(node);
  };
  for (const node of nodes) {
    switch (node.type) {
      case 'text':
        push(text([leaf(node.value, marks)]));
        break;
      case 'inlineCode':
        push(text([leaf(node.value, [...marks, 'code'])]));
        break;
      case 'strong':
        for (const n of inlines(node.children, resolve, [...marks, 'bold'])) push(n);
        break;
      case 'emphasis':
        for (const n of inlines(node.children, resolve, [...marks, 'italic'])) push(n);
        break;
      case 'delete':
        for (const n of inlines(node.children, resolve, [...marks, 'strikethrough'])) push(n);
        break;
      case 'break':
        push(text([leaf('\n', marks)]));
        break;
      case 'link': {
        const children = inlines(node.children, resolve, marks).filter((n) => n.object === 'text' || n.type === 'inline-image');
        push({ object: 'inline', type: 'link', isVoid: false, data: { ref: resolve(node.url).ref }, nodes: children.length ? children : [text([leaf(node.url, marks)])] });
        break;
      }
      case 'image':
        push({ object: 'inline', type: 'inline-image', isVoid: true, data: { ref: imageRef(resolve(node.url).ref), ...(node.alt ? { caption: node.alt } : {}) } });
        break;
      case 'html':
        push(text([leaf(node.value, marks)]));
        break;
      default:
        // Footnote references and other extensions: their text, so nothing is lost.
        push(text([leaf(toString(node), marks)]));
    }
  }
  return out.length ? out : [text([leaf('', [])])];
}

/** Images point at a URL or a file; a page is no image. */
const imageRef = (ref: ContentRef) => (ref.kind === 'file' || ref.kind === 'url' ? ref : { kind: 'url' as const, url: 'page' in ref ? ref.page : '' });

const paragraph = (nodes: Json[]) => ({ object: 'block', type: 'paragraph', isVoid: false, nodes });

const integrationBlock = (data: IntegrationBlockData) => ({ object: 'block', type: 'integration', isVoid: true, data });

function listItem(item: ListItem, resolve: Resolver, languages: BlockLanguages): Json {
  const nodes = item.children.flatMap((child) => blocks([child as RootContent], resolve, languages, true));
  return {
    object: 'block',
    type: 'list-item',
    isVoid: false,
    nodes: nodes.length ? nodes : [paragraph([text([leaf('', [])])])],
    ...(typeof item.checked === 'boolean' ? { data: { checked: item.checked } } : {}),
  };
}

function table(node: Table, resolve: Resolver): Json {
  const [header, ...rows] = node.children;
  const columns = (header?.children ?? []).map((cell, i) => ({ id: `c${i}`, title: toString(cell) }));
  const fragments: Json[] = [];
  const records: Record<string, Json> = {};
  rows.forEach((row, r) => {
    const values: Record<string, string> = {};
    row.children.forEach((cell, c) => {
      if (c >= columns.length) return;
      const key = `r${r}c${c}`;
      fragments.push({ object: 'fragment', fragment: key, nodes: [paragraph(inlines(cell.children, resolve))] });
      values[columns[c].id] = key;
    });
    records[`r${r}`] = { orderIndex: `a${String(r).padStart(6, '0')}`, values };
  });
  const align = (i: number) => (node.align?.[i] === 'center' ? 'center' : node.align?.[i] === 'right' ? 'right' : 'left');
  return {
    object: 'block',
    type: 'table',
    isVoid: true,
    data: {
      view: { type: 'grid', columns: columns.map((c) => c.id), hideHeader: false },
      records,
      definition: Object.fromEntries(columns.map((c, i) => [c.id, { id: c.id, title: c.title, type: 'text', textAlignment: align(i) }])),
    },
    fragments,
  };
}

/** The paragraph's text node at one end, when that end is text. */
function endText(node: RootContent | Content, end: 'first' | 'last'): Text | null {
  if (node.type !== 'paragraph') return null;
  const child = end === 'first' ? node.children[0] : node.children[node.children.length - 1];
  return child?.type === 'text' ? child : null;
}

/**
 * A hint (lib/hint-tags.ts) opening at `nodes[start]`: its style, the nodes from the opening tag to
 * the closing one with both tags cut off, and where the content after it starts. A hint never closed
 * runs to the end of the page, as the published reader draws it.
 */
function hintAt(nodes: (RootContent | Content)[], start: number): { style: string; inside: (RootContent | Content)[]; next: number } | null {
  const first = endText(nodes[start]!, 'first');
  const open = first && HINT_OPEN.exec(first.value);
  if (!first || !open) return null;
  first.value = first.value.slice(open[0].length);
  const inside: (RootContent | Content)[] = [];
  for (let i = start; i < nodes.length; i++) {
    const node = nodes[i]!;
    const last = endText(node, 'last');
    const closed = last !== null && HINT_CLOSE.test(last.value);
    if (closed) last.value = last.value.replace(HINT_CLOSE, '');
    // The tags' own paragraphs hold nothing else once cut: they are left out.
    const blank = node.type === 'paragraph' && node.children.every((c) => c.type === 'text' && !c.value.trim());
    if (!blank) inside.push(node);
    if (closed) return { style: hintStyle(open[1]), inside, next: i + 1 };
  }
  return { style: hintStyle(open[1]), inside, next: nodes.length };
}

/** A hint's content: the platform allows only the essential blocks in it, so others keep their text as a paragraph. */
function hintBlocks(inside: (RootContent | Content)[], resolve: Resolver, languages: BlockLanguages): Json[] {
  return inside.flatMap((node) => {
    const converted = blocks([node], resolve, languages, true);
    return converted.every((block) => ESSENTIAL.has(block.type as string)) ? converted : [paragraph([text([leaf(toString(node), [])])])];
  });
}

/** Block content as document blocks. Inside lists and quotes only the essential kinds may appear. */
function blocks(nodes: (RootContent | Content)[], resolve: Resolver, languages: BlockLanguages, nested = false): Json[] {
  const out: Json[] = [];
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i]!;
    const hint = nested ? null : hintAt(nodes, i);
    if (hint) {
      out.push({ object: 'block', type: 'hint', isVoid: false, data: { style: hint.style }, nodes: hintBlocks(hint.inside, resolve, languages) });
      i = hint.next - 1;
      continue;
    }
    switch (node.type) {
      case 'heading': {
        const level = Math.min(node.depth, 3);
        const id = slugify(toString(node));
        out.push({ object: 'block', type: `heading-${level}`, isVoid: false, data: { id }, meta: { id }, nodes: inlines(node.children, resolve) });
        break;
      }
      case 'paragraph': {
        const tag = !nested && node.children[0]?.type === 'text' && node.children[0].value.trimStart().startsWith('{%') ? parseBlockTag(toString(node)) : null;
        if (tag) {
          out.push(integrationBlock(tag));
          break;
        }
        const images = node.children.filter((c) => c.type === 'image');
        const onlyImages = images.length > 0 && node.children.every((c) => c.type === 'image' || (c.type === 'text' && !c.value.trim()));
        if (onlyImages && !nested) {
          out.push({
            object: 'block',
            type: 'images',
            isVoid: false,
            data: {},
            nodes: images.map((image) => ({
              object: 'block',
              type: 'image',
              isVoid: true,
              data: { ref: imageRef(resolve(image.url).ref), ...(image.alt ? { alt: image.alt } : {}) },
              fragments: [],
            })),
          });
        } else out.push(paragraph(inlines(node.children, resolve)));
        break;
      }
      case 'list': {
        const tasks = node.children.some((item) => typeof item.checked === 'boolean');
        const type = tasks ? 'list-tasks' : node.ordered ? 'list-ordered' : 'list-unordered';
        const data = node.ordered && !tasks ? { start: node.start ?? 1 } : {};
        out.push({ object: 'block', type, isVoid: false, data, nodes: node.children.map((item) => listItem(item, resolve, languages)) });
        break;
      }
      case 'code': {
        // Integration blocks stand at the top level of a document only, as the platform's editor places them.
        const block = nested ? null : blockOfFence(languages, node.lang, node.value);
        if (block) {
          out.push(integrationBlock(block));
          break;
        }
        const lines = node.value.split('\n');
        out.push({
          object: 'block',
          type: 'code',
          isVoid: false,
          data: node.lang ? { syntax: node.lang } : {},
          nodes: lines.map((line) => ({ object: 'block', type: 'code-line', isVoid: false, data: {}, nodes: [text([leaf(line, [])])] })),
        });
        break;
      }
      case 'blockquote':
        out.push({ object: 'block', type: 'blockquote', isVoid: false, data: {}, nodes: blocks(node.children, resolve, languages, true).filter(isEssential) });
        break;
      case 'thematicBreak':
        out.push({ object: 'block', type: 'divider', isVoid: true, data: {} });
        break;
      case 'table':
        if (!nested) out.push(table(node, resolve));
        else out.push(paragraph([text([leaf(toString(node), [])])]));
        break;
      case 'html':
        if (node.value.trim()) out.push(paragraph([text([leaf(node.value, [])])]));
        break;
      default:
        // Definitions, footnotes and the like: their text, as a paragraph, when they have any.
        if ('children' in node || 'value' in node) {
          const value = toString(node as unknown as BlockContent).trim();
          if (value) out.push(paragraph([text([leaf(value, [])])]));
        }
    }
  }
  return out;
}

const ESSENTIAL = new Set(['paragraph', 'heading-1', 'heading-2', 'heading-3', 'list-ordered', 'list-unordered', 'list-tasks', 'divider']);
const isEssential = (block: Json) => ESSENTIAL.has(block.type as string) || block.type === 'blockquote';

/** The platform's JSON document of a markdown body; fences in `languages` become integration blocks. */
export function markdownToDocument(markdown: string, resolve: Resolver, languages: BlockLanguages = NO_BLOCK_LANGUAGES): Json {
  return { object: 'document', data: { schemaVersion: 1 }, nodes: blocks(parseMarkdownTree(markdown).children, resolve, languages) };
}

/** Every link and image of a body, in order, with what it resolves to. */
export function markdownReferences(markdown: string, resolve: Resolver): (Resolved & { href: string; kind: 'link' | 'image' })[] {
  const found: (Resolved & { href: string; kind: 'link' | 'image' })[] = [];
  for (const [node] of markdownNodes(parseMarkdownTree(markdown))) {
    if (node.type === 'link' || node.type === 'image') found.push({ href: node.url, kind: node.type, ...resolve(node.url) });
  }
  return found;
}
