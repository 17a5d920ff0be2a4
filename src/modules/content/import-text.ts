/**
 * What an import reads in the text it fetched: the title of an HTML page, the targets of its <a>
 * tags, the links and images of markdown. Each is one pass over the text. The regular
 * expressions these replace went back over the rest of the text from every `<a `, `<` or `[`
 * that nothing closed: 200 KB of `<a ` or of `[a](` held the server for 10 to 30 seconds. Each
 * function finds what its expression found (test/security/import-text.test.ts compares them).
 */

/** Whitespace as `\s` has it. */
function isSpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/** Whether `text` has `word` (lowercase letters, matched in any case) at `at`. */
function hasWordAt(text: string, at: number, word: string): boolean {
  for (let j = 0; j < word.length; j++) if ((text.charCodeAt(at + j) | 0x20) !== word.charCodeAt(j)) return false;
  return true;
}

/**
 * The first index of one of `chars` at or after a position. The positions asked for grow, or go
 * back no further than the previous one, so no part of the text is searched twice in a row.
 */
class Finder {
  private asked = Infinity;
  private answer = -1;
  constructor(
    private readonly text: string,
    private readonly chars: readonly number[],
  ) {}

  private scan(from: number, to: number): number {
    for (let k = from; k < to; k++) if (this.chars.includes(this.text.charCodeAt(k))) return k;
    return -1;
  }

  from(position: number): number {
    if (position <= this.asked) {
      const found = this.scan(position, Math.min(this.asked, this.text.length));
      if (found >= 0) this.answer = found;
    } else if (this.answer >= 0 && this.answer < position) {
      this.answer = this.scan(position, this.text.length);
    }
    this.asked = position;
    return this.answer;
  }
}

/** The text between the first `<name...>` (any case) and the `</name>` after it. */
function firstElementText(html: string, name: string): string | undefined {
  const open = new RegExp(`<${name}`, 'i').exec(html);
  if (!open) return undefined;
  const start = html.indexOf('>', open.index);
  if (start < 0) return undefined;
  const close = new RegExp(`</${name}>`, 'gi');
  close.lastIndex = start + 1;
  const end = close.exec(html);
  // A later `<name` reaches the same `>` or a later one, and looks for the same end tag.
  return end ? html.slice(start + 1, end.index) : undefined;
}

/** The text without its tags: each `<`, a character at least, and the next `>` (as `/<[^>]+>/g`). */
export function stripTags(text: string): string {
  let out = '';
  let i = 0;
  for (;;) {
    const lt = text.indexOf('<', i);
    if (lt < 0) return out + text.slice(i);
    const gt = text.indexOf('>', lt + 1);
    if (gt < 0) return out + text.slice(i); // no later `<` has a `>` after it either
    if (gt === lt + 1) {
      out += text.slice(i, lt + 1); // `<>` is not a tag
      i = lt + 1;
      continue;
    }
    out += text.slice(i, lt);
    i = gt + 1;
  }
}

/** The title of an HTML page: its <title>, else its first <h1>, as text. */
export function htmlTitle(html: string): string | undefined {
  const title = firstElementText(html, 'title') ?? firstElementText(html, 'h1');
  return title === undefined ? undefined : stripTags(title).replace(/\s+/g, ' ').trim() || undefined;
}

/**
 * The targets of the page's `<a ... href="...">`: in each <a> tag, the last `href` followed by `=`
 * and a quoted value (as `/<a\s[^>]*href\s*=\s*["']([^"']+)["']/gi`).
 */
export function anchorTargets(html: string): string[] {
  const targets: string[] = [];
  const quotes = new Finder(html, [0x22, 0x27]);
  let i = 0;
  for (;;) {
    const lt = html.indexOf('<', i);
    if (lt < 0) return targets;
    if ((html.charCodeAt(lt + 1) | 0x20) !== 0x61 || !isSpace(html.charCodeAt(lt + 2))) {
      i = lt + 1;
      continue;
    }
    const from = lt + 3;
    let end = html.indexOf('>', from);
    if (end < 0) end = html.length;
    let found = -1;
    let close = -1;
    for (let h = end - 4; h >= from && found < 0; h--) {
      if (!hasWordAt(html, h, 'href')) continue;
      let k = h + 4;
      while (isSpace(html.charCodeAt(k))) k++;
      if (html.charCodeAt(k) !== 0x3d) continue;
      k++;
      while (isSpace(html.charCodeAt(k))) k++;
      const quote = html.charCodeAt(k);
      if (quote !== 0x22 && quote !== 0x27) continue;
      close = quotes.from(k + 1);
      if (close > k + 1) found = k + 1; // a value of one character at least, then a quote
    }
    if (found >= 0) {
      targets.push(html.slice(found, close));
      i = close + 1;
    } else {
      // Any `<a ` before this `>` reaches the same `>`, with fewer places to look.
      i = end;
    }
  }
}

export interface MarkdownLink {
  /** Where the link starts (at its `!` for an image) and ends. */
  index: number;
  end: number;
  image: boolean;
  text: string;
  target: string;
  /** ` "title"` as written, its leading space included. */
  title: string | undefined;
}

/**
 * The links and images of markdown, `[text](target "title")`, as
 * `/(!?)\[([^\]]*)\]\(\s*<?([^)\s>]+)>?(\s+"[^"]*")?\s*\)/g` found them. What follows a `]` does
 * not depend on where the link started, nor what follows a target on where the target started:
 * both are kept for the next `[` reaching the same `]` or the same end of target.
 */
export function markdownLinks(markdown: string): MarkdownLink[] {
  const length = markdown.length;
  const brackets = new Finder(markdown, [0x5d]);
  const titleEnds = new Finder(markdown, [0x22]);
  const links: MarkdownLink[] = [];

  let runStart = -1;
  let runEnd = -1;
  /** The end of a target run from `from`: the first `)`, `>` or whitespace. */
  const targetRunEnd = (from: number): number => {
    if (from >= runStart && from <= runEnd) return runEnd; // a part of the last run ends where it did
    let e = from;
    while (e < length) {
      const c = markdown.charCodeAt(e);
      if (c === 0x29 || c === 0x3e || isSpace(c)) break;
      e++;
    }
    runStart = from;
    runEnd = e;
    return e;
  };

  let afterQuoteAt = -1;
  let afterQuote = -1;
  /** Past the whitespace after a title's closing quote (several targets can share that quote). */
  const pastQuote = (quote: number): number => {
    if (quote !== afterQuoteAt) {
      let t = quote + 1;
      while (t < length && isSpace(markdown.charCodeAt(t))) t++;
      afterQuoteAt = quote;
      afterQuote = t;
    }
    return afterQuote;
  };

  let afterTargetAt = -1;
  let afterTarget: { end: number; title: string | undefined } | null = null;
  /** From the end of a target: `>?`, then ` "title"` or not, then `)`. */
  const closing = (e: number): { end: number; title: string | undefined } | null => {
    if (e === afterTargetAt) return afterTarget;
    let p = e;
    if (markdown.charCodeAt(p) === 0x3e) p++;
    let s = p;
    while (s < length && isSpace(markdown.charCodeAt(s))) s++;
    let result: { end: number; title: string | undefined } | null = null;
    if (s > p && markdown.charCodeAt(s) === 0x22) {
      const quote = titleEnds.from(s + 1);
      if (quote >= 0) {
        const t = pastQuote(quote);
        if (markdown.charCodeAt(t) === 0x29) result = { end: t + 1, title: markdown.slice(p, quote + 1) };
      }
    }
    if (!result && markdown.charCodeAt(s) === 0x29) result = { end: s + 1, title: undefined };
    afterTargetAt = e;
    afterTarget = result;
    return result;
  };

  let afterBracketAt = -1;
  let afterBracket: { start: number; end: number; title: string | undefined; targetEnd: number } | null = null;
  /** From a `]`: `(`, whitespace, the target and what closes the link. */
  const rest = (bracket: number) => {
    if (bracket === afterBracketAt) return afterBracket;
    let result: typeof afterBracket = null;
    if (markdown.charCodeAt(bracket + 1) === 0x28) {
      let k = bracket + 2;
      while (k < length && isSpace(markdown.charCodeAt(k))) k++;
      const angle = markdown.charCodeAt(k) === 0x3c;
      let start = angle ? k + 1 : k;
      const targetEnd = targetRunEnd(start);
      if (targetEnd === start && angle) start = k; // then `<` is the target
      if (targetEnd > start) {
        const closed = closing(targetEnd);
        if (closed) result = { start, end: closed.end, title: closed.title, targetEnd };
      }
    }
    afterBracketAt = bracket;
    afterBracket = result;
    return result;
  };

  let i = 0;
  while (i < length) {
    const open = markdown.indexOf('[', i);
    if (open < 0) break;
    const bracket = brackets.from(open + 1);
    if (bracket < 0) break; // no `]` after any later `[` either
    const found = rest(bracket);
    if (!found) {
      i = open + 1;
      continue;
    }
    const image = open > i && markdown.charCodeAt(open - 1) === 0x21;
    links.push({ index: image ? open - 1 : open, end: found.end, image, text: markdown.slice(open + 1, bracket), target: markdown.slice(found.start, found.targetEnd), title: found.title });
    i = found.end;
  }
  return links;
}

/** Rewrites the targets of markdown links and images; `map` returns the new target or undefined to keep it. */
export function rewriteMarkdownLinks(markdown: string, map: (target: string, image: boolean) => string | undefined): string {
  let out = '';
  let at = 0;
  for (const link of markdownLinks(markdown)) {
    const next = map(link.target, link.image);
    if (next === undefined) continue;
    out += `${markdown.slice(at, link.index)}${link.image ? '!' : ''}[${link.text}](${next}${link.title ?? ''})`;
    at = link.end;
  }
  return out + markdown.slice(at);
}
