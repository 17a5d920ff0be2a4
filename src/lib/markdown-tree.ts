import MarkdownIt, { type Env, type Token } from 'markdown-it';
import type { AlignType, Blockquote, Heading, List, ListItem, Nodes, Paragraph, Parent, PhrasingContent, Root, RootContent, Table, TableCell, TableRow } from 'mdast';

/*
 * Markdown is parsed with markdown-it and handed on as an mdast tree, the shape the rest of the
 * server (documents, HTML, PDF, translations) works on. markdown-it, unlike micromark, keeps its
 * time linear on hostile input: measured on 1 MB bodies, micromark took 60 s for nested emphasis,
 * 140 s for quotes 32 deep and 104 s for one paragraph of bold words, where markdown-it takes
 * 0.3 to 2.3 s; micromark also overflowed the stack past a few thousand nested quotes or lists.
 * The tree is built with an explicit stack, never by recursion over the input.
 */

/**
 * How deep quotes, lists, emphasis and links may nest in a body that is accepted. The parser
 * itself stops nesting blocks and links a little further down (what is deeper stays text or is
 * left out), so stored trees stay shallow and the recursive walks over them far from the stack's limit.
 */
export const MARKDOWN_MAX_NESTING = 32;
const NESTING = new Set(['blockquote', 'list', 'emphasis', 'strong', 'delete', 'link']);

const parser = new MarkdownIt({ html: true, linkify: true, maxNesting: 2 * MARKDOWN_MAX_NESTING + 8 });
// Every link target reaches the tree: the server's own URL rules decide what is accepted and
// rendered, and a refused target must be seen to be refused, not silently left as text.
parser.validateLink = () => true;
// Bare addresses become links as on GitHub (http, https, e-mail); other schemes stay text.
parser.linkify.set({ fuzzyLink: false }).add('ftp:', null).add('//', null);

type Open = Parent & { type: string };

const TASK = /^\[([ xX])\](?=[ \t]|$)[ \t]?/;

function attr(token: Token, name: string): string | null {
  const value = token.attrGet(name);
  return value === null ? null : String(value);
}

function appendText(parent: Parent, value: string) {
  const last = parent.children[parent.children.length - 1];
  if (last?.type === 'text') last.value += value;
  else (parent.children as PhrasingContent[]).push({ type: 'text', value });
}

/** The plain text of inline tokens (an image's description). */
function plainText(tokens: Token[]): string {
  let out = '';
  for (const token of tokens) {
    if (token.type === 'text' || token.type === 'code_inline' || token.type === 'text_special') out += token.content;
    else if (token.type === 'softbreak' || token.type === 'hardbreak') out += '\n';
    else if (token.type === 'image') out += token.content;
  }
  return out;
}

/** Inline tokens into the children of `into`; emphasis and links nest through a stack. */
function inline(tokens: Token[], into: Parent) {
  const stack: Parent[] = [into];
  const top = () => stack[stack.length - 1]!;
  const open = (node: PhrasingContent & Parent) => {
    (top().children as PhrasingContent[]).push(node);
    stack.push(node);
  };
  const close = () => {
    if (stack.length > 1) stack.pop();
  };
  for (const token of tokens) {
    switch (token.type) {
      case 'text':
      case 'text_special':
        appendText(top(), token.content);
        break;
      case 'softbreak':
        appendText(top(), '\n');
        break;
      case 'hardbreak':
        (top().children as PhrasingContent[]).push({ type: 'break' });
        break;
      case 'code_inline':
        (top().children as PhrasingContent[]).push({ type: 'inlineCode', value: token.content });
        break;
      case 'html_inline':
        (top().children as PhrasingContent[]).push({ type: 'html', value: token.content });
        break;
      case 'image':
        (top().children as PhrasingContent[]).push({ type: 'image', url: attr(token, 'src') ?? '', title: attr(token, 'title'), alt: plainText(token.children ?? []) });
        break;
      case 'em_open':
        open({ type: 'emphasis', children: [] });
        break;
      case 'strong_open':
        open({ type: 'strong', children: [] });
        break;
      case 's_open':
        open({ type: 'delete', children: [] });
        break;
      case 'link_open':
        open({ type: 'link', url: attr(token, 'href') ?? '', title: attr(token, 'title'), children: [] });
        break;
      case 'em_close':
      case 'strong_close':
      case 's_close':
      case 'link_close':
        close();
        break;
      default:
        if (token.content) appendText(top(), token.content);
    }
  }
}

/** GitHub's task list items: `[ ]` or `[x]` opening the item's first paragraph. */
function markTask(item: ListItem) {
  const first = item.children[0];
  if (first?.type !== 'paragraph') return;
  const text = first.children[0];
  if (text?.type !== 'text') return;
  const match = TASK.exec(text.value);
  if (!match) return;
  item.checked = match[1] !== ' ';
  text.value = text.value.slice(match[0].length);
  if (!text.value) first.children.shift();
}

const ALIGN: Record<string, AlignType> = { 'text-align:left': 'left', 'text-align:center': 'center', 'text-align:right': 'right' };

/** A markdown body as an mdast tree (CommonMark with GitHub's tables, strikethrough, task lists and autolinks). */
export function parseMarkdownTree(markdown: string): Root {
  const root: Root = { type: 'root', children: [] };
  const stack: Open[] = [root];
  const top = () => stack[stack.length - 1]!;
  const push = (node: RootContent) => (top().children as RootContent[]).push(node);
  const open = (node: RootContent & Parent) => {
    push(node);
    stack.push(node as Open);
  };
  const close = () => {
    if (stack.length > 1) stack.pop();
  };
  let table: Table | null = null;
  const env: Env = {};
  for (const token of parser.parse(markdown, env)) {
    switch (token.type) {
      case 'paragraph_open': {
        const parent = top();
        if (!token.hidden && parent.type === 'listItem') {
          (parent as ListItem).spread = true;
          const list = stack[stack.length - 2] as List | undefined;
          if (list?.type === 'list') list.spread = true;
        }
        open({ type: 'paragraph', children: [] } satisfies Paragraph);
        break;
      }
      case 'heading_open':
        open({ type: 'heading', depth: Number(token.tag.slice(1)) as Heading['depth'], children: [] });
        break;
      case 'blockquote_open':
        open({ type: 'blockquote', children: [] } satisfies Blockquote);
        break;
      case 'bullet_list_open':
        open({ type: 'list', ordered: false, start: null, spread: false, children: [] });
        break;
      case 'ordered_list_open':
        open({ type: 'list', ordered: true, start: Number(attr(token, 'start') ?? 1), spread: false, children: [] });
        break;
      case 'list_item_open':
        open({ type: 'listItem', spread: false, checked: null, children: [] });
        break;
      case 'list_item_close':
        if (top().type === 'listItem') markTask(top() as ListItem);
        close();
        break;
      case 'table_open':
        table = { type: 'table', align: [], children: [] };
        open(table);
        break;
      case 'table_close':
        table = null;
        close();
        break;
      case 'tr_open':
        open({ type: 'tableRow', children: [] } satisfies TableRow as unknown as RootContent & Parent);
        break;
      case 'th_open':
      case 'td_open': {
        if (token.type === 'th_open' && table) table.align!.push(ALIGN[attr(token, 'style') ?? ''] ?? null);
        open({ type: 'tableCell', children: [] } satisfies TableCell as unknown as RootContent & Parent);
        break;
      }
      case 'paragraph_close':
      case 'heading_close':
      case 'blockquote_close':
      case 'bullet_list_close':
      case 'ordered_list_close':
      case 'tr_close':
      case 'th_close':
      case 'td_close':
        close();
        break;
      case 'inline':
        inline(token.children ?? [], top());
        break;
      case 'fence': {
        const info = token.info.trim();
        const space = info.search(/\s/);
        push({ type: 'code', lang: (space < 0 ? info : info.slice(0, space)) || null, meta: space < 0 ? null : info.slice(space + 1).trim() || null, value: token.content.replace(/\n$/, '') });
        break;
      }
      case 'code_block':
        push({ type: 'code', lang: null, meta: null, value: token.content.replace(/\n$/, '') });
        break;
      case 'hr':
        push({ type: 'thematicBreak' });
        break;
      case 'html_block':
        push({ type: 'html', value: token.content.replace(/\n$/, '') });
        break;
      // thead, tbody and anything unknown: structure the tree does not keep.
    }
  }
  // Links through references arrive resolved; the definitions themselves are kept at the end, so
  // that markdown written back from the tree (translations) still has them.
  for (const [label, { href, title }] of Object.entries(env.references ?? {})) {
    root.children.push({ type: 'definition', identifier: label.toLowerCase(), label: label.toLowerCase(), url: href, title: title || null });
  }
  return root;
}

/**
 * Every node of a tree in document order, parents first, without recursion, with its nesting: how
 * many quotes, lists, emphasis and links hold it, itself included.
 */
export function* markdownNodes(tree: Root): Generator<[Nodes, number]> {
  const stack: [Nodes, number][] = [[tree, 0]];
  while (stack.length) {
    const [node, outer] = stack.pop()!;
    const nesting = NESTING.has(node.type) ? outer + 1 : outer;
    yield [node, nesting];
    if ('children' in node) for (let i = node.children.length - 1; i >= 0; i--) stack.push([node.children[i] as Nodes, nesting]);
  }
}
