/**
 * How deep an HTML document nests, and how many elements it builds, measured in one pass over its
 * text before any parser builds it. Parsers and converters walk the tree recursively, and the
 * parser's own work grows with the square of the depth (it looks through the open elements at most
 * tags): 10,000 nested <div>s take seconds and then overflow the stack, 100,000 take a minute.
 *
 * Counting `<x>` as +1 and `</x>` as -1 is not enough: a browser's parser ignores an end tag that
 * closes nothing (`<div></span>` nests as deep as `<div>`), has no self-closing `<div/>`, and opens
 * again the formatting elements (`<b>`, `<i>`, `<a>` ...) an end tag closed implicitly, inside
 * every later block: 200 of them left open in a <div> are built again in each later `<p>x</p>`, so
 * 40 KB of HTML builds a million elements. So this keeps, as the parser does (WHATWG tree
 * construction, simplified), the stack of open elements and the list of formatting elements to
 * reopen. Where the simplification is unsure it keeps an element open rather than closing it, so
 * it counts deeper than the parser builds rather than shallower: on 12,000 real pages it was
 * exact or one level deeper; on generated tag soup it can be one level shallower (rare tangles of
 * templates, selects and tables), a gap that repeating the tangle does not widen.
 * test/security/html-depth.test.ts compares it with the parser turndown uses (domino).
 *
 * Each character is read once. Looking through the open elements (at most `maxDepth` of them) is
 * counted as work, bounded by a number of steps per character that real pages stay far below.
 */

/** Elements inside one another, the document's own: <html> and <body>, always there, not counted. */
export const MAX_HTML_DEPTH = 256;

/**
 * Attributes of one element. The parser looks through an element's attributes for each new one
 * (40,000 on one element took 3.5 s); pages use a few dozen at most.
 */
export const MAX_HTML_ATTRIBUTES = 256;

/** Steps through the open elements allowed per character: among 12,000 real pages, the most took 0.3. */
const WORK_PER_CHARACTER = 4;

export interface HtmlMeasure {
  /** The most elements open at once (void ones included). When the pass stopped, what it had then. */
  depth: number;
  /** Elements built, those the parser adds or reopens by itself included. */
  elements: number;
  /** Steps taken through the open elements and the formatting elements to reopen. */
  work: number;
  /** The most attributes one tag has. */
  attributes: number;
  /** Set when a limit stopped the pass. */
  stopped?: 'depth' | 'elements' | 'work' | 'attributes';
}

export type HtmlCheck = { ok: true } | { ok: false; problem: 'too deep' | 'too many elements' | 'too tangled' | 'too many attributes' };

/**
 * Refuses a document nested deeper than `maxDepth`, one that would build more elements than it
 * has characters (only reopened formatting elements do that), or one whose tags are so misnested
 * that following them takes more than a few steps per character.
 */
export function checkHtml(html: string, maxDepth: number = MAX_HTML_DEPTH): HtmlCheck {
  const budget = html.length + 1024;
  const measured = measureHtml(html, { maxDepth, maxElements: budget, maxWork: WORK_PER_CHARACTER * budget, maxAttributes: MAX_HTML_ATTRIBUTES });
  if (measured.stopped === 'depth') return { ok: false, problem: 'too deep' };
  if (measured.stopped === 'attributes') return { ok: false, problem: 'too many attributes' };
  if (measured.stopped === 'elements') return { ok: false, problem: 'too many elements' };
  if (measured.stopped === 'work') return { ok: false, problem: 'too tangled' };
  return { ok: true };
}

const HTML = 0;
const SVG = 1;
const MATH = 2;

const set = (words: string) => new Set(words.split(' '));
const HEADINGS = set('h1 h2 h3 h4 h5 h6');
const VOID = set('area base basefont bgsound br col embed frame hr image img input keygen link meta param source track wbr');
/** Their content is text up to their end tag. */
const RAW_TEXT = set('iframe noembed noframes script style textarea title xmp');
/** In a <select> the parser takes only these start tags, and ends the select at those that follow. */
const IN_SELECT = set('option optgroup script template');
const END_SELECT = set('input keygen textarea');
const TABLE_IN_SELECT = set('caption table tbody tfoot thead tr td th');
/** Start tags read as in <head>: in a template, they do not decide what its content is. */
const HEADISH = set('base basefont bgsound link meta noframes script style template title');
const FORMATTING = set('a b big code em font i nobr s small strike strong tt u');
const SPECIAL = set(
  'address applet area article aside base basefont bgsound blockquote body br button caption center col colgroup dd details dialog dir div dl dt embed fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header hgroup hr html iframe img input keygen li link listing main marquee menu meta nav noembed noframes noscript object ol p param plaintext pre script search section select source style summary table tbody td template textarea tfoot th thead title tr track ul wbr xmp',
);
/** End tags that close their element, and what is inside it, when it is in scope. */
const BLOCKS = set('address article aside blockquote button center details dialog dir div dl fieldset figcaption figure footer header hgroup listing main menu nav ol pre search section summary ul');
/** Start tags that first close an open <p> (in quirks mode, as turndown parses, <table> does not). */
const CLOSES_P = set('address article aside blockquote center details dialog dir div dl fieldset figcaption figure footer header hgroup main menu nav ol p search section summary ul h1 h2 h3 h4 h5 h6 pre listing form li dd dt');
const SCOPE = set('applet caption html table td th marquee object template');
const MARKERS = set('applet marquee object');
const MATH_TEXT = set('mi mo mn ms mtext');
const SVG_HTML = set('foreignobject desc title');
const IMPLIED_END = set('dd dt li optgroup option p rb rp rt rtc');
const TABLE_PARTS = set('caption col colgroup tbody td tfoot th thead tr');
/** End tags of table parts; also where a <select> opened is one that table parts end. */
const TABLE_ENDS = set('caption colgroup table tbody td tfoot th thead tr');
/** The open elements that decide how the parser reads table parts (its insertion mode). */
const MODES = set('caption colgroup select table tbody td template tfoot th thead tr');
const SECTIONS = set('tbody thead tfoot');
/** Where whitespace is inserted as it is, without reopening formatting elements. */
const TABLE_TEXT = set('table tbody thead tfoot tr');
const WHITESPACE_AS_IS = set('table tbody thead tfoot tr colgroup');
/**
 * Start tags that leave the formatting elements closed until later content; all others reopen
 * them. Reopening one the parser does not would make it a target for a later end tag, so this
 * follows the parser exactly.
 */
const NO_REOPEN = set(
  'address article aside blockquote center details dialog dir div dl fieldset figcaption figure footer header hgroup main menu nav ol p search section summary ul h1 h2 h3 h4 h5 h6 pre listing form li dd dt plaintext table hr html head body frameset frame template base basefont bgsound link meta noframes script style title param source track col caption colgroup tbody td tfoot th thead tr rb rtc rp rt textarea iframe noembed',
);
/** In SVG or MathML, these start tags end the foreign content. */
const BREAKOUT = set('b big blockquote body br center code dd div dl dt em embed h1 h2 h3 h4 h5 h6 head hr i img li listing menu meta nobr ol p pre ruby s small span strong strike sub sup table tt u ul var');

interface Open {
  name: string;
  ns: number;
  /** For formatting elements: the attributes as written, to tell equal elements apart. */
  key: string;
  /** An annotation-xml holding HTML. */
  htmlPoint: boolean;
  open: boolean;
  /**
   * A template's content, as its first start tag decides: the parts of a table (as in a table),
   * rows (as in a tbody), cells (as in a row), columns (as in a colgroup), or anything else.
   */
  content?: 'table' | 'section' | 'row' | 'colgroup' | 'body';
  /** A select opened where table parts were expected: they end it. */
  inTable?: boolean;
}

interface Tag {
  name: string;
  selfClosing: boolean;
  attributes: string;
  /** font with color, face or size (it ends foreign content); annotation-xml with an HTML encoding. */
  flag: boolean;
  /** How many attributes it has (each name counted). */
  count: number;
}

/** Why the pass stopped early. */
class Stop extends Error {
  constructor(readonly reason: 'depth' | 'elements' | 'work' | 'attributes' | 'text') {
    super(reason);
  }
}

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;
const isAlpha = (c: number) => (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a;

/** What a template holds, by its first start tag. */
function templateContent(name: string): NonNullable<Open['content']> {
  if (name === 'col') return 'colgroup';
  if (name === 'tr') return 'section';
  if (name === 'td' || name === 'th') return 'row';
  return TABLE_PARTS.has(name) ? 'table' : 'body';
}

/** The tree the parser would build, as far as depth and element count go. */
class Shape {
  readonly stack: Open[] = [];
  /** The formatting elements to reopen; null is a marker (a cell, caption, template, object...). */
  readonly active: (Open | null)[] = [];
  depth = 0;
  elements = 0;
  /** Steps through the open elements and the formatting list, bounded by `maxWork`. */
  work = 0;
  private form: Open | null = null;
  /** How many HTML elements of each name are open, to skip looking for one that is not. */
  private readonly names = new Map<string, { open: number }>();
  private modes = 0;

  constructor(
    private readonly maxDepth: number,
    private readonly maxElements: number,
    private readonly maxWork: number,
  ) {}

  private step(): void {
    if (++this.work > this.maxWork) throw new Stop('work');
  }

  private opened(name: string): number {
    return this.names.get(name)?.open ?? 0;
  }

  private tally(e: Open, by: number): void {
    if (e.ns !== HTML || e.name === '') return;
    let count = this.names.get(e.name);
    if (!count) this.names.set(e.name, (count = { open: 0 }));
    count.open += by;
    if (MODES.has(e.name)) this.modes += by;
  }

  private get top(): Open | undefined {
    return this.stack[this.stack.length - 1];
  }

  count(n = 1): void {
    this.elements += n;
    if (this.elements > this.maxElements) throw new Stop('elements');
  }

  push(name: string, ns = HTML, key = '', htmlPoint = false): Open {
    const element: Open = { name, ns, key, htmlPoint, open: true };
    this.stack.push(element);
    this.tally(element, 1);
    this.count();
    if (this.stack.length > this.depth) {
      this.depth = this.stack.length;
      if (this.depth > this.maxDepth) throw new Stop('depth');
    }
    return element;
  }

  /** The end of an element holding text (script, style, textarea...): it is the current one. */
  endText(): void {
    this.pop();
  }

  /** An element with nothing inside: a void one, or one opened and closed at once. */
  leaf(name: string): void {
    this.push(name);
    this.pop();
  }

  private pop(): void {
    const element = this.stack.pop()!;
    element.open = false;
    this.tally(element, -1);
    // A gap left by an element taken out from under others goes when they do.
    while (this.stack.length > 0 && this.top!.name === '') this.stack.pop();
  }

  /**
   * Takes out an element from under others (a <form> or an <a> the parser closes there): what is
   * inside it stays as deep, so a gap takes its place.
   */
  private remove(element: Open): void {
    if (!element.open) return;
    const i = this.indexOf(element);
    if (i === this.stack.length - 1) return this.pop();
    element.open = false;
    this.tally(element, -1);
    this.stack[i] = { name: '', ns: HTML, key: '', htmlPoint: false, open: false };
  }

  /** Where an open element is on the stack. */
  private indexOf(element: Open): number {
    for (let i = this.stack.length - 1; i >= 0; i--) {
      this.step();
      if (this.stack[i] === element) return i;
    }
    return -1;
  }

  /** Pops the element at `index` and everything above it. */
  private popTo(index: number): void {
    while (this.stack.length > index) this.pop();
  }

  private special(e: Open): boolean {
    if (e.ns === HTML) return SPECIAL.has(e.name);
    return e.ns === MATH ? MATH_TEXT.has(e.name) || e.name === 'annotation-xml' : SVG_HTML.has(e.name);
  }

  private boundary(e: Open, scope: 'default' | 'list' | 'button' | 'table'): boolean {
    if (e.ns !== HTML) return scope !== 'table' && (e.ns === MATH ? MATH_TEXT.has(e.name) || e.name === 'annotation-xml' : SVG_HTML.has(e.name));
    if (scope === 'table') return e.name === 'html' || e.name === 'table' || e.name === 'template';
    if (SCOPE.has(e.name)) return true;
    return scope === 'list' ? e.name === 'ol' || e.name === 'ul' : scope === 'button' && e.name === 'button';
  }

  /** The index of the HTML element `name` open in `scope`, or -1. */
  private inScope(name: string, scope: 'default' | 'list' | 'button' | 'table' = 'default'): number {
    if (this.opened(name) === 0) return -1;
    for (let i = this.stack.length - 1; i >= 0; i--) {
      this.step();
      const e = this.stack[i]!;
      if (e.ns === HTML && e.name === name) return i;
      if (this.boundary(e, scope)) return -1;
    }
    return -1;
  }

  /** The nearest open element deciding how table parts are read, or -1 (then they are ignored). */
  private modeIndex(): number {
    if (this.modes === 0) return -1;
    for (let i = this.stack.length - 1; i >= 0; i--) {
      this.step();
      const e = this.stack[i]!;
      if (e.ns === HTML && MODES.has(e.name)) return i;
    }
    return -1;
  }

  private impliedEnds(except?: string): void {
    for (let top = this.top; top && top.ns === HTML && IMPLIED_END.has(top.name) && top.name !== except; top = this.top) this.pop();
  }

  private closeP(): void {
    const i = this.inScope('p', 'button');
    if (i < 0) return;
    this.impliedEnds('p');
    this.popTo(i);
  }

  private clearToMarker(): void {
    while (this.active.length > 0 && this.active.pop() !== null);
  }

  /** Opens again, inside the current element, the formatting elements closed implicitly. */
  reopen(): void {
    const last = this.active.length - 1;
    if (last < 0 || this.active[last] === null || this.active[last]!.open) return;
    let first = last;
    while (first > 0 && this.active[first - 1] !== null && !this.active[first - 1]!.open) {
      this.step();
      first--;
    }
    for (let j = first; j <= last; j++) {
      const e = this.active[j]!;
      this.active[j] = this.push(e.name, HTML, e.key);
    }
  }

  private pushFormatting(name: string, key: string): void {
    // At most three equal elements since the last marker are kept to reopen.
    let equal = 0;
    let earliest = -1;
    for (let j = this.active.length - 1; j >= 0; j--) {
      this.step();
      const e = this.active[j];
      if (e === null) break;
      if (e!.name === name && e!.key === key) {
        equal++;
        earliest = j;
      }
    }
    if (equal >= 3) this.active.splice(earliest, 1);
    this.active.push(this.push(name, HTML, key));
  }

  private lastActive(name: string): number {
    for (let j = this.active.length - 1; j >= 0; j--) {
      this.step();
      const e = this.active[j];
      if (e === null) return -1;
      if (e!.name === name) return j;
    }
    return -1;
  }

  /**
   * The end tag of a formatting element (the adoption agency algorithm, simplified). When a block
   * opened inside it is still open, the parser moves the element into that block rather than
   * closing anything: so does this, without the parser's removal of elements in between.
   */
  private adopt(name: string): void {
    const top = this.top;
    if (top && top.ns === HTML && top.name === name && this.lastActive(name) < 0) {
      this.pop();
      return;
    }
    for (let round = 0; round < 8; round++) {
      const j = this.lastActive(name);
      if (j < 0) {
        if (round === 0) this.anyOtherEnd(name);
        return;
      }
      const element = this.active[j]!;
      if (!element.open) {
        this.active.splice(j, 1);
        return;
      }
      const i = this.indexOf(element);
      for (let k = this.stack.length - 1; k > i; k--) {
        this.step();
        if (this.boundary(this.stack[k]!, 'default')) return;
      }
      let block = -1;
      for (let k = i + 1; k < this.stack.length; k++) {
        this.step();
        if (this.special(this.stack[k]!)) {
          block = k;
          break;
        }
      }
      if (block < 0) {
        this.popTo(i);
        this.active.splice(j, 1);
        return;
      }
      // Between the element and that block: the three formatting elements nearest the block are
      // cloned in place, the others leave the stack (and the list), as the parser does.
      let counter = 0;
      for (let k = block - 1; k > i; k--) {
        this.step();
        counter++;
        const node = this.stack[k]!;
        let listed = this.activeIndex(node);
        if (counter > 3 && listed >= 0) {
          this.active.splice(listed, 1);
          listed = -1;
        }
        node.open = false;
        if (listed < 0) {
          this.tally(node, -1);
          this.stack.splice(k, 1);
          block--;
          continue;
        }
        const copy: Open = { name: node.name, ns: HTML, key: node.key, htmlPoint: false, open: true };
        this.count();
        this.stack[k] = copy;
        this.active[listed] = copy;
      }
      // The element itself: a clone of it goes inside the block, holding what the block held.
      const clone: Open = { name, ns: HTML, key: element.key, htmlPoint: false, open: true };
      this.count();
      element.open = false;
      this.stack.splice(i, 1);
      this.stack.splice(block, 0, clone);
      this.active[this.activeIndex(element)] = clone;
    }
  }

  private activeIndex(element: Open): number {
    for (let j = this.active.length - 1; j >= 0; j--) {
      this.step();
      if (this.active[j] === element) return j;
    }
    return -1;
  }

  private anyOtherEnd(name: string): void {
    if (this.opened(name) === 0) return;
    for (let i = this.stack.length - 1; i >= 0; i--) {
      this.step();
      const e = this.stack[i]!;
      if (e.ns === HTML && e.name === name) {
        this.impliedEnds(name);
        this.popTo(i);
        return;
      }
      if (this.special(e)) return;
    }
  }

  private mathText(e: Open | undefined): boolean {
    return e !== undefined && e.ns === MATH && MATH_TEXT.has(e.name);
  }

  private htmlPoint(e: Open | undefined): boolean {
    return e !== undefined && (e.htmlPoint || (e.ns === SVG && SVG_HTML.has(e.name)));
  }

  /** Whether the current element reads what follows as HTML, rather than as SVG or MathML. */
  private htmlContent(): boolean {
    const top = this.top;
    return top === undefined || top.ns === HTML || this.mathText(top) || this.htmlPoint(top);
  }

  text(whitespaceOnly: boolean): void {
    if (!this.htmlContent() || this.selectIndex() >= 0) return;
    if (!whitespaceOnly && this.top?.ns === HTML && this.top.name === 'colgroup') this.pop(); // text ends a colgroup
    const last = this.active[this.active.length - 1];
    if (last === undefined || last === null || last.open) return;
    if (whitespaceOnly) {
      const m = this.modeIndex();
      if (m >= 0 && WHITESPACE_AS_IS.has(this.stack[m]!.name)) return;
    }
    this.reopen();
  }

  /** A start tag; answers whether its content is raw text (up to its end tag). */
  start(tag: Tag): boolean {
    const top = this.top;
    const html =
      top === undefined ||
      top.ns === HTML ||
      (this.mathText(top) && tag.name !== 'mglyph' && tag.name !== 'malignmark') ||
      (top.ns === MATH && top.name === 'annotation-xml' && tag.name === 'svg') ||
      this.htmlPoint(top);
    if (html) return this.htmlStart(tag);
    if (BREAKOUT.has(tag.name) || (tag.name === 'font' && tag.flag)) {
      for (let e = this.top; e && e.ns !== HTML && !this.mathText(e) && !this.htmlPoint(e); e = this.top) this.pop();
      return this.htmlStart(tag);
    }
    const ns = top!.ns;
    this.push(tag.name, ns, '', ns === MATH && tag.name === 'annotation-xml' && tag.flag);
    if (tag.selfClosing) this.pop();
    return false;
  }

  private htmlStart(tag: Tag): boolean {
    const name = tag.name === 'image' ? 'img' : tag.name;
    if (name === 'html' || name === 'body' || name === 'head' || name === 'frameset' || name === 'frame') return false;
    let m = this.modeIndex();
    // In a colgroup the parser takes columns only: another start tag ends the colgroup first.
    if (m >= 0 && this.stack[m]!.name === 'colgroup' && name !== 'col' && !HEADISH.has(name)) {
      this.popTo(m);
      m = this.modeIndex();
    }
    const template = m >= 0 && this.stack[m]!.name === 'template' ? this.stack[m]! : null;
    if (template && !template.content && !HEADISH.has(name)) template.content = templateContent(name);
    const tableTemplate = template !== null && template.content !== 'body';
    // In a template of columns the parser takes columns only.
    if (template?.content === 'colgroup' && name !== 'col' && !HEADISH.has(name)) return false;
    const select = this.selectIndex();
    if (select >= 0) {
      if (END_SELECT.has(name) || name === 'select' || (TABLE_IN_SELECT.has(name) && this.inTable(select))) {
        this.popTo(select);
        return name === 'select' ? false : this.htmlStart(tag);
      }
      if (!IN_SELECT.has(name)) return false;
    }
    if (TABLE_PARTS.has(name)) {
      this.tablePart(name);
      return false;
    }
    if (name === 'table') {
      // A table where a table part is expected ends the current table (and is ignored without one).
      if (tableTemplate || (m >= 0 && TABLE_TEXT.has(this.stack[m]!.name))) {
        const i = this.inScope('table', 'table');
        if (i < 0) return false;
        this.popTo(i);
      }
      this.push(name);
      return false;
    }
    if (name === 'form' && m >= 0 && (TABLE_TEXT.has(this.stack[m]!.name) || tableTemplate)) {
      // In a table a form holds nothing: it is closed at once (with a template open, not made).
      if (this.form || this.opened('template') > 0) return false;
      this.form = this.push(name);
      this.pop();
      return false;
    }
    if (CLOSES_P.has(name)) {
      if (name === 'form' && this.form && this.opened('template') === 0) return false;
      if (name === 'li' ? this.opened('li') > 0 : (name === 'dd' || name === 'dt') && this.opened('dd') + this.opened('dt') > 0) {
        for (let i = this.stack.length - 1; i >= 0; i--) {
          this.step();
          const e = this.stack[i]!;
          if (e.ns === HTML && (name === 'li' ? e.name === 'li' : e.name === 'dd' || e.name === 'dt')) {
            this.impliedEnds(e.name);
            this.popTo(i);
            break;
          }
          if (this.special(e) && !(e.ns === HTML && (e.name === 'address' || e.name === 'div' || e.name === 'p'))) break;
        }
      }
      this.closeP();
      const top = this.top;
      if (HEADINGS.has(name) && top && top.ns === HTML && HEADINGS.has(top.name)) this.pop();
      const element = this.push(name);
      if (name === 'form') this.form = element;
      return false;
    }
    if (name === 'plaintext') {
      this.closeP();
      this.push(name);
      throw new Stop('text'); // the rest of the document is text
    }
    if (name === 'hr') this.closeP();
    if (VOID.has(name)) {
      if (!NO_REOPEN.has(name)) this.reopen();
      this.leaf(name);
      return false;
    }
    if (name === 'button') {
      const i = this.inScope('button');
      if (i >= 0) {
        this.impliedEnds();
        this.popTo(i);
      }
    }
    if (name === 'a' && this.lastActive('a') >= 0) {
      const j = this.lastActive('a');
      const element = this.active[j]!;
      this.adopt('a');
      const still = this.active.lastIndexOf(element);
      this.work += this.active.length;
      if (still >= 0) this.active.splice(still, 1);
      this.remove(element);
    }
    if (name === 'nobr') {
      this.reopen();
      if (this.inScope('nobr') >= 0) this.adopt('nobr');
    }
    if (FORMATTING.has(name)) {
      this.reopen();
      this.pushFormatting(name, tag.attributes);
      return false;
    }
    if (name === 'option' || name === 'optgroup') {
      if (this.top?.ns === HTML && this.top.name === 'option') this.pop();
      if (name === 'optgroup' && select >= 0 && this.top?.ns === HTML && this.top.name === 'optgroup') this.pop();
    }
    if (name === 'rb' || name === 'rtc' || name === 'rp' || name === 'rt') {
      if (this.inScope('ruby') >= 0) this.impliedEnds(name === 'rp' || name === 'rt' ? 'rtc' : undefined);
    }
    if (name === 'xmp') this.closeP();
    if (!NO_REOPEN.has(name) && select < 0) this.reopen(); // not in a select
    if (name === 'svg' || name === 'math') {
      this.push(name, name === 'svg' ? SVG : MATH);
      if (tag.selfClosing) this.pop();
      return false;
    }
    const element = this.push(name);
    if (MARKERS.has(name) || name === 'template') this.active.push(null);
    if (name === 'select') element.inTable = m >= 0 && (TABLE_ENDS.has(this.stack[m]!.name) || tableTemplate);
    return RAW_TEXT.has(name);
  }

  /** The <select> the parser is in (the open element deciding the mode), or -1. */
  private selectIndex(): number {
    const m = this.modeIndex();
    return m >= 0 && this.stack[m]!.name === 'select' ? m : -1;
  }

  /** Whether table parts end the <select> at `select`. */
  private inTable(select: number): boolean {
    return this.stack[select]!.inTable === true;
  }

  /** caption, col, colgroup, tbody, td, tfoot, th, thead, tr: by the table part open nearest. */
  private tablePart(name: string): void {
    for (;;) {
      const m = this.modeIndex();
      if (m < 0) return; // outside a table the parser ignores them
      const mode = this.stack[m]!.name;
      const cell = name === 'td' || name === 'th';
      if (mode === 'select') return;
      if (mode === 'template') {
        const content = this.stack[m]!.content;
        if (content === 'colgroup' && name === 'col') return this.leaf(name);
        if (content === 'section' && (name === 'tr' || cell)) {
          this.popTo(m + 1);
          if (cell) this.push('tr');
          this.push(name);
          if (cell) this.active.push(null);
          return;
        }
        if (content === 'row' && cell) {
          this.popTo(m + 1);
          this.push(name);
          this.active.push(null);
          return;
        }
        if (content !== 'table') return; // the parser ignores the other parts there
      }
      if (mode === 'td' || mode === 'th' || mode === 'caption') {
        this.popTo(m);
        this.clearToMarker();
        continue;
      }
      if (mode === 'colgroup') {
        if (name === 'col') return this.leaf(name);
        this.popTo(m);
        continue;
      }
      if (mode === 'tr') {
        if (!cell) {
          this.popTo(m);
          continue;
        }
        this.popTo(m + 1);
        this.push(name);
        this.active.push(null);
        return;
      }
      if (SECTIONS.has(mode)) {
        if (name === 'tr' || cell) {
          this.popTo(m + 1);
          if (cell) this.push('tr');
          this.push(name);
          if (cell) this.active.push(null);
          return;
        }
        this.popTo(m);
        continue;
      }
      // A table, or a template (the parser reads its table parts as a table's, at times without
      // the elements added here: counting them is counting deeper, not shallower).
      this.popTo(m + 1);
      if (name === 'tr' || cell) {
        this.push('tbody');
        continue;
      }
      if (name === 'col') {
        this.push('colgroup');
        this.leaf(name);
        return;
      }
      this.push(name);
      if (name === 'caption') this.active.push(null);
      return;
    }
  }

  end(name: string): void {
    const top = this.top;
    if (top === undefined || top.ns === HTML) return this.htmlEnd(name);
    for (let i = this.stack.length - 1; i >= 0; i--) {
      this.step();
      if (this.stack[i]!.name === name) return this.popTo(i);
      // Under the bottom element is <body>.
      if (i === 0 || this.stack[i - 1]!.ns === HTML) return this.htmlEnd(name);
    }
  }

  private htmlEnd(name: string): void {
    if (name === 'html' || name === 'body') return;
    const select = this.selectIndex();
    if (select >= 0) {
      const top = this.top!;
      if (name === 'select') this.popTo(select);
      else if (name === 'template') this.templateEnd();
      else if (name === 'option' && top.name === 'option') this.pop();
      else if (name === 'optgroup') {
        if (top.name === 'option' && this.stack[this.stack.length - 2]?.name === 'optgroup') this.pop();
        if (this.top!.name === 'optgroup') this.pop();
      } else if (TABLE_IN_SELECT.has(name) && this.inTable(select) && this.inScope(name, 'table') >= 0) {
        this.popTo(select);
        this.htmlEnd(name);
      }
      return;
    }
    if (name === 'br') {
      this.reopen();
      return this.leaf('br');
    }
    if (name === 'p') {
      const i = this.inScope('p', 'button');
      if (i < 0) return this.leaf('p'); // an empty <p>, opened and closed
      this.impliedEnds('p');
      return this.popTo(i);
    }
    if (name === 'li' || name === 'dd' || name === 'dt') {
      const i = this.inScope(name, name === 'li' ? 'list' : 'default');
      if (i >= 0) {
        this.impliedEnds(name);
        this.popTo(i);
      }
      return;
    }
    if (HEADINGS.has(name)) {
      if (!['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].some((h) => this.opened(h) > 0)) return;
      for (let i = this.stack.length - 1; i >= 0; i--) {
        this.step();
        const e = this.stack[i]!;
        if (e.ns === HTML && HEADINGS.has(e.name)) return this.popTo(i);
        if (this.boundary(e, 'default')) return;
      }
      return;
    }
    if (FORMATTING.has(name)) return this.adopt(name);
    if (MARKERS.has(name)) {
      const i = this.inScope(name);
      if (i >= 0) {
        this.impliedEnds();
        this.popTo(i);
        this.clearToMarker();
      }
      return;
    }
    if (name === 'template') return this.templateEnd();
    if (name === 'form') {
      if (this.opened('template') > 0) {
        const i = this.inScope('form');
        if (i >= 0) this.popTo(i);
        return;
      }
      const form = this.form;
      this.form = null;
      if (!form || !form.open) return;
      const i = this.indexOf(form);
      for (let k = this.stack.length - 1; k > i; k--) {
        this.step();
        if (this.boundary(this.stack[k]!, 'default')) return;
      }
      this.impliedEnds();
      return this.remove(form);
    }
    if (TABLE_ENDS.has(name)) return this.tableEnd(name);
    if (name === 'select') {
      const m = this.modeIndex();
      if (m >= 0 && this.stack[m]!.name === 'select') this.popTo(m);
      return;
    }
    if (BLOCKS.has(name)) {
      const i = this.inScope(name);
      if (i >= 0) {
        this.impliedEnds();
        this.popTo(i);
      }
      return;
    }
    this.anyOtherEnd(name);
  }

  private templateEnd(): void {
    if (this.opened('template') === 0) return;
    const i = this.stack.findLastIndex((e) => e.ns === HTML && e.name === 'template');
    this.work += this.stack.length - i;
    if (i >= 0) {
      this.popTo(i);
      this.clearToMarker();
      // Back in a select, the parser decides again whether it is in a table: by what holds it.
      const select = this.selectIndex();
      if (select >= 0) this.stack[select]!.inTable = this.heldByTable(select);
    }
  }

  /** Whether a table holds the element at `index` (nearer than any template). */
  private heldByTable(index: number): boolean {
    for (let i = index - 1; i >= 0; i--) {
      this.step();
      const e = this.stack[i]!;
      if (e.ns === HTML && e.name === 'template') return false;
      if (e.ns === HTML && e.name === 'table') return true;
    }
    return false;
  }

  private tableEnd(name: string): void {
    const m = this.modeIndex();
    if (m < 0) return;
    const mode = this.stack[m]!.name;
    const inCell = mode === 'td' || mode === 'th';
    let within: boolean;
    if (name === 'td' || name === 'th') within = inCell;
    else if (name === 'tr') within = inCell || mode === 'tr';
    else if (SECTIONS.has(name)) within = inCell || mode === 'tr' || SECTIONS.has(mode);
    else if (name === 'table') within = mode !== 'select' && mode !== 'template';
    else within = mode === name; // caption, colgroup
    if (!within) return;
    const i = this.inScope(name, 'table');
    if (i < 0) return;
    if (inCell || mode === 'caption') this.clearToMarker();
    this.popTo(i);
  }
}

/**
 * Finds end tags of elements whose content is text: the first `</name` (any case) followed by the
 * end of a tag name, from a position. Positions only grow during the pass, so each name's last
 * answer is kept: no part of the text is searched twice for the same name.
 */
class EndTags {
  private readonly found = new Map<string, { from: number; at: number }>();
  constructor(private readonly html: string) {}

  find(name: string, from: number): number {
    const known = this.found.get(name);
    if (known && known.from <= from && (known.at < 0 || known.at >= from)) return known.at;
    const html = this.html;
    let at = -1;
    for (let k = html.indexOf('</', from); k >= 0; k = html.indexOf('</', k + 2)) {
      let j = 0;
      while (j < name.length && (html.charCodeAt(k + 2 + j) | 0x20) === name.charCodeAt(j)) j++;
      if (j < name.length) continue;
      const after = html.charCodeAt(k + 2 + j);
      if (Number.isNaN(after) || isSpace(after) || after === 0x2f || after === 0x3e) {
        at = k;
        break;
      }
    }
    this.found.set(name, { from, at });
    return at;
  }
}

/**
 * Reads a tag from `at` (its name's first character) to past its `>`: the name, whether it ends
 * with `/>`, and its attributes as written. A tag the text ends in is taken as it is (turndown
 * parses the text followed by an end tag of its own, which then completes it).
 */
function readTag(html: string, at: number, wantFlag: boolean): { tag: Tag; end: number } {
  const length = html.length;
  let i = at;
  while (i < length) {
    const c = html.charCodeAt(i);
    if (isSpace(c) || c === 0x2f || c === 0x3e) break;
    i++;
  }
  const name = html.slice(at, i).toLowerCase();
  const attributesAt = i;
  let selfClosing = false;
  let flag = false;
  let count = 0;
  for (;;) {
    while (i < length && isSpace(html.charCodeAt(i))) i++;
    if (i >= length) return { tag: { name, selfClosing, attributes: html.slice(attributesAt), flag, count }, end: length };
    let c = html.charCodeAt(i);
    if (c === 0x3e) break;
    if (c === 0x2f) {
      i++;
      if (html.charCodeAt(i) === 0x3e) {
        selfClosing = true;
        break;
      }
      continue;
    }
    // An attribute name (its first character may be `=`).
    count++;
    const nameAt = i;
    i++;
    while (i < length) {
      c = html.charCodeAt(i);
      if (isSpace(c) || c === 0x2f || c === 0x3e || c === 0x3d) break;
      i++;
    }
    const attribute = wantFlag ? html.slice(nameAt, i).toLowerCase() : '';
    if (name === 'font' && (attribute === 'color' || attribute === 'face' || attribute === 'size')) flag = true;
    const encoding = name === 'annotation-xml' && attribute === 'encoding';
    while (i < length && isSpace(html.charCodeAt(i))) i++;
    if (html.charCodeAt(i) !== 0x3d) continue;
    i++;
    while (i < length && isSpace(html.charCodeAt(i))) i++;
    if (i >= length) return { tag: { name, selfClosing, attributes: html.slice(attributesAt), flag, count }, end: length };
    c = html.charCodeAt(i);
    let value: string;
    if (c === 0x22 || c === 0x27) {
      const close = html.indexOf(c === 0x22 ? '"' : "'", i + 1);
      if (close < 0) return { tag: { name, selfClosing, attributes: html.slice(attributesAt), flag, count }, end: length };
      value = encoding ? html.slice(i + 1, close) : '';
      i = close + 1;
    } else {
      const valueAt = i;
      while (i < length && !isSpace(html.charCodeAt(i)) && html.charCodeAt(i) !== 0x3e) i++;
      value = encoding ? html.slice(valueAt, i) : '';
    }
    if (encoding) {
      const type = value.toLowerCase();
      if (type === 'text/html' || type === 'application/xhtml+xml') flag = true;
    }
  }
  return { tag: { name, selfClosing, attributes: html.slice(attributesAt, i), flag, count }, end: i + 1 };
}

/** Measures `html` in one pass, stopping as soon as a limit is passed. */
export function measureHtml(html: string, limits: { maxDepth?: number; maxElements?: number; maxWork?: number; maxAttributes?: number } = {}): HtmlMeasure {
  const maxAttributes = limits.maxAttributes ?? Infinity;
  let attributes = 0;
  const shape = new Shape(limits.maxDepth ?? Infinity, limits.maxElements ?? Infinity, limits.maxWork ?? Infinity);
  const endTags = new EndTags(html);
  const length = html.length;
  let stopped: HtmlMeasure['stopped'];
  /** The name of the last start tag not written `<x/>`: what ends the text of a `<script/>` in domino. */
  let lastStart = '';
  let i = 0;
  try {
    while (i < length) {
      const lt = html.indexOf('<', i);
      const textEnd = lt < 0 ? length : lt;
      if (textEnd > i) {
        let whitespaceOnly = true;
        for (let k = i; k < textEnd && whitespaceOnly; k++) whitespaceOnly = isSpace(html.charCodeAt(k));
        shape.text(whitespaceOnly);
      }
      if (lt < 0) break;
      i = lt;
      const c1 = html.charCodeAt(i + 1);
      if (isAlpha(c1)) {
        const read = readTag(html, i + 1, true);
        i = read.end;
        const { tag } = read;
        if (tag.count > attributes) {
          attributes = tag.count;
          if (attributes > maxAttributes) throw new Stop('attributes');
        }
        if (shape.start(tag)) {
          // Text up to its end tag, or to the end. The parser turndown uses (domino) ends the text
          // of a `<script/>` (`/>` is ignored there) at the end tag of the start tag before it.
          const endName = tag.selfClosing ? lastStart : tag.name;
          const close = endName ? endTags.find(endName, i) : -1;
          if (close < 0) break;
          // That end tag closes the element holding the text, whatever its name.
          shape.endText();
          i = readTag(html, close + 2, false).end;
        }
        if (!tag.selfClosing) lastStart = tag.name;
      } else if (c1 === 0x2f) {
        const c2 = html.charCodeAt(i + 2);
        if (isAlpha(c2)) {
          const read = readTag(html, i + 2, false);
          i = read.end;
          shape.end(read.tag.name);
        } else if (c2 === 0x3e) {
          i += 3;
        } else {
          const close = html.indexOf('>', i + 2);
          if (close < 0) break;
          i = close + 1;
        }
      } else if (c1 === 0x21 && html.startsWith('--', i + 2)) {
        i = skipComment(html, i + 4);
      } else if (c1 === 0x21 && html.startsWith('[CDATA[', i + 2) && shape.stack.length > 0 && shape.stack[shape.stack.length - 1]!.ns !== HTML) {
        const close = html.indexOf(']]>', i + 9);
        if (close < 0) break;
        if (close > i + 9) shape.text(false);
        i = close + 3;
      } else if (c1 === 0x21 || c1 === 0x3f) {
        const close = html.indexOf('>', i + 2);
        if (close < 0) break;
        i = close + 1;
      } else {
        shape.text(false);
        i++;
      }
    }
  } catch (error) {
    if (!(error instanceof Stop)) throw error;
    if (error.reason !== 'text') stopped = error.reason;
  }
  return { depth: shape.depth, elements: shape.elements, work: shape.work, attributes, ...(stopped ? { stopped } : {}) };
}

/** Past the comment whose text starts at `from`: at `-->` or `--!>` (`<!-->` and `<!--->` are empty). */
function skipComment(html: string, from: number): number {
  if (html.charCodeAt(from) === 0x3e) return from + 1;
  if (html.startsWith('->', from)) return from + 2;
  for (let k = html.indexOf('--', from); k >= 0; k = html.indexOf('--', k + 1)) {
    if (html.charCodeAt(k + 2) === 0x3e) return k + 3;
    if (html.charCodeAt(k + 2) === 0x21 && html.charCodeAt(k + 3) === 0x3e) return k + 4;
  }
  return html.length;
}
