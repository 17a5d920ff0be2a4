import type { Element, ElementContent, Properties } from 'hast';
import { isSafeUrl, WEB_URL } from '../../domain/urls';
import { integrationMarkdownToHast } from './html';

/*
 * An integration's ContentKit answer as HTML for a published page, built as hast nodes one
 * element at a time, never from strings the integration wrote: text stays text, markdown goes
 * through the page's sanitizer, URLs must be http(s), frames are sandboxed without
 * `allow-same-origin`, and what is interactive (buttons, inputs, selects) is left out: a
 * published page is read, not edited. The walk is bounded in elements and depth, so a hostile
 * tree costs little however large it is.
 */

const MAX_ELEMENTS = 500;
const MAX_DEPTH = 24;
const MAX_TEXT = 100_000;
/** The tallest a frame may ask to be, in CSS pixels. */
export const MAX_FRAME_HEIGHT = 4_000;

type Json = Record<string, unknown>;

/** A rendered block, and the frames it holds (for the page's frame-src). */
export interface BlockHtml {
  node: Element;
  frames: string[];
}

const el = (tagName: string, properties: Properties, children: ElementContent[] = []): Element => ({ type: 'element', tagName, properties, children });
const text = (value: string): ElementContent => ({ type: 'text', value: value.slice(0, MAX_TEXT) });

/*
 * A frame's URL goes into the page's policy as a CSP source (origin and path): characters that
 * end or split a source there are refused, as are schemes other than http(s).
 */
const CSP_SAFE_PATH = /^[A-Za-z0-9\-._~/%!$&()*+=:@]*$/;

/** The frame's URL, when it may be framed; null otherwise. */
export function frameUrl(raw: unknown): URL | null {
  if (typeof raw !== 'string' || raw.length > 2048 || !isSafeUrl(raw, WEB_URL)) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password || !CSP_SAFE_PATH.test(url.pathname)) return null;
  return url;
}

/** A value that may be bound to the element's state (`{ $state: key }`). */
function bound(value: unknown, state: Json): unknown {
  if (value && typeof value === 'object' && !Array.isArray(value) && typeof (value as Json).$state === 'string') return state[(value as Json).$state as string];
  return value;
}

const asText = (value: unknown): string => (typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : '');

const STYLE: Record<string, string> = { bold: 'strong', italic: 'em', code: 'code', strikethrough: 'del' };

class Walk {
  elements = 0;
  frames: string[] = [];
  markdown: { at: Element; content: string }[] = [];
  constructor(private state: Json) {}

  children(list: unknown, depth: number): ElementContent[] {
    if (!Array.isArray(list)) return [];
    const out: ElementContent[] = [];
    for (const child of list) {
      if (this.elements >= MAX_ELEMENTS) break;
      const node = this.node(child, depth + 1);
      if (node) out.push(node);
    }
    return out;
  }

  /** Inline text: strings, styled text and links. */
  inline(value: unknown, depth: number): ElementContent[] {
    if (typeof value === 'string') return [text(value)];
    if (!Array.isArray(value)) return [];
    const out: ElementContent[] = [];
    for (const item of value) {
      if (this.elements >= MAX_ELEMENTS) break;
      if (typeof item === 'string') out.push(text(item));
      else {
        const node = this.node(item, depth + 1);
        if (node) out.push(node);
      }
    }
    return out;
  }

  node(value: unknown, depth: number): ElementContent | null {
    if (typeof value === 'string') return text(value);
    if (!value || typeof value !== 'object' || depth > MAX_DEPTH || this.elements >= MAX_ELEMENTS) return null;
    this.elements++;
    const e = value as Json;
    switch (e.type) {
      case 'block':
        return el('div', { className: ['ck-block'] }, this.children(e.children, depth));
      case 'vstack':
      case 'box':
        return el('div', { className: ['ck-vstack'] }, this.children(e.children, depth));
      case 'hstack':
        return el('div', { className: ['ck-hstack'] }, this.children(e.children, depth));
      case 'card': {
        const title = asText(e.title);
        return el('div', { className: ['ck-card'] }, [...(title ? [el('p', { className: ['ck-card-title'] }, [text(title)])] : []), ...this.children(e.children, depth)]);
      }
      case 'text': {
        const tag = STYLE[e.style as string] ?? 'span';
        return el(tag, {}, this.inline(e.children, depth));
      }
      case 'link': {
        const target = (e.target as Json | undefined)?.url;
        const url = typeof target === 'string' && isSafeUrl(target, WEB_URL) ? target : null;
        const children = this.inline(e.children, depth);
        return url ? el('a', { href: url, rel: ['noopener', 'noreferrer', 'nofollow'] }, children) : el('span', {}, children);
      }
      case 'heading':
        return el('h4', { className: ['ck-heading'] }, this.inline(e.children ?? e.content, depth));
      case 'markdown': {
        // Filled in afterwards: the sanitizer's pipeline is asynchronous.
        const at = el('div', { className: ['ck-markdown'] });
        this.markdown.push({ at, content: asText(bound(e.content, this.state)).slice(0, MAX_TEXT) });
        return at;
      }
      case 'image': {
        const source = (e.source as Json | undefined)?.url;
        if (typeof source !== 'string' || !isSafeUrl(source, WEB_URL)) return null;
        const ratio = typeof e.aspectRatio === 'number' && e.aspectRatio > 0.05 && e.aspectRatio < 20 ? e.aspectRatio : null;
        return el('img', { src: source, alt: '', loading: 'lazy', referrerPolicy: 'no-referrer', className: ['ck-image'], ...(ratio ? { style: `aspect-ratio:${ratio}` } : {}) });
      }
      case 'divider':
        return el('hr', { className: ['ck-divider'] });
      case 'codeblock':
        return el('pre', { className: ['ck-codeblock'] }, [el('code', {}, [text(asText(bound(e.content, this.state)))])]);
      case 'webframe':
        return this.webframe(e);
      default:
        // Buttons, inputs, selects, modals...: interactive, so not on a published page.
        return null;
    }
  }

  webframe(e: Json): Element | null {
    const url = frameUrl((e.source as Json | undefined)?.url);
    if (!url) return null;
    this.frames.push(`${url.origin}${url.pathname}`);
    const data: Json = {};
    if (e.data && typeof e.data === 'object' && !Array.isArray(e.data)) for (const [key, value] of Object.entries(e.data as Json).slice(0, 50)) data[key] = bound(value, this.state) ?? null;
    const ratio = typeof e.aspectRatio === 'number' && e.aspectRatio > 0.05 && e.aspectRatio < 20 ? e.aspectRatio : 16 / 9;
    return el('div', { className: ['ck-webframe'] }, [
      el('iframe', {
        src: url.href,
        sandbox: ['allow-scripts'],
        referrerPolicy: 'no-referrer',
        loading: 'lazy',
        title: 'Integration content',
        dataState: JSON.stringify(data),
        style: `width:100%;border:0;aspect-ratio:${ratio}`,
      }),
    ]);
  }
}

/** A ContentKit render output as a block of the page. Null when it has nothing to show. */
export async function contentKitToHast(output: Json): Promise<BlockHtml | null> {
  if (output.type !== 'element' || !output.element || typeof output.element !== 'object') return null;
  const state = output.state && typeof output.state === 'object' && !Array.isArray(output.state) ? (output.state as Json) : {};
  const walk = new Walk(state);
  const root = walk.node(output.element, 0);
  if (!root || root.type !== 'element') return null;
  await Promise.all(walk.markdown.map(async (m) => (m.at.children = await integrationMarkdownToHast(m.content))));
  return { node: el('div', { className: ['integration-block'] }, [root]), frames: walk.frames };
}
