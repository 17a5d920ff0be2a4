/*
 * How an integration block is written in markdown. Two forms, as the platform exports them:
 *
 * - a fenced code block whose language is a `markdown.codeblock` of a block of an integration
 *   installed on the space (mermaid's "```mermaid"): its code becomes the block's prop named by
 *   `markdown.body`;
 * - GitBook's explicit tag, alone in its paragraph: `{% @integration/block key="value" n=3 %}`,
 *   values JSON strings, numbers or booleans.
 *
 * The tag is read in one pass over its text, with bounded length and prop count.
 */

/** A block of an integration that a fenced code block's language stands for. */
export interface BlockKind {
  integration: string;
  block: string;
  /** The prop the fence's code goes into. */
  body: string;
}

/** Code-block languages of the integrations installed on a space, each to its block. */
export type BlockLanguages = ReadonlyMap<string, BlockKind>;

export const NO_BLOCK_LANGUAGES: BlockLanguages = new Map();

export interface IntegrationBlockData {
  integration: string;
  block: string;
  props: Record<string, string | number | boolean>;
}

const MAX_TAG_LENGTH = 64 * 1024;
const MAX_PROPS = 32;
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;
const KEY_CHAR = /[A-Za-z0-9_-]/;
const SPACE = /\s/;

/** The block a code fence's language stands for, with its code as the body prop. */
export function blockOfFence(languages: BlockLanguages, lang: string | null | undefined, code: string): IntegrationBlockData | null {
  const kind = lang ? languages.get(lang.trim()) : undefined;
  return kind ? { integration: kind.integration, block: kind.block, props: { [kind.body]: code } } : null;
}

/** The explicit tag `{% @integration/block key=value ... %}`, or null when the text is anything else. */
export function parseBlockTag(text: string): IntegrationBlockData | null {
  const tag = text.trim();
  if (tag.length > MAX_TAG_LENGTH || !tag.startsWith('{%') || !tag.endsWith('%}')) return null;
  const inner = tag.slice(2, -2);
  let at = 0;
  const skipSpace = () => {
    while (at < inner.length && SPACE.test(inner[at]!)) at++;
  };
  skipSpace();
  if (inner[at] !== '@') return null;
  let end = at + 1;
  while (end < inner.length && !SPACE.test(inner[end]!)) end++;
  const [integration, block, ...extra] = inner.slice(at + 1, end).split('/');
  if (!integration || !block || extra.length || !NAME.test(integration) || !NAME.test(block)) return null;
  at = end;
  const props: Record<string, string | number | boolean> = {};
  for (let count = 0; ; count++) {
    skipSpace();
    if (at >= inner.length) break;
    if (count >= MAX_PROPS) return null;
    const keyStart = at;
    while (at < inner.length && KEY_CHAR.test(inner[at]!)) at++;
    const key = inner.slice(keyStart, at);
    if (!key || inner[at] !== '=') return null;
    at++;
    const valueStart = at;
    if (inner[at] === '"') {
      at++;
      while (at < inner.length && inner[at] !== '"') at += inner[at] === '\\' ? 2 : 1;
      if (at >= inner.length) return null;
      at++;
    } else {
      while (at < inner.length && !SPACE.test(inner[at]!)) at++;
    }
    let value: unknown;
    try {
      value = JSON.parse(inner.slice(valueStart, at));
    } catch {
      return null;
    }
    if (typeof value !== 'string' && typeof value !== 'boolean' && !(typeof value === 'number' && Number.isFinite(value))) return null;
    // Own keys only: `__proto__` would otherwise set the object's prototype.
    Object.defineProperty(props, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return { integration, block, props };
}
