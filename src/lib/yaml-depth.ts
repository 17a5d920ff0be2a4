/**
 * How deep a YAML document nests its collections, measured in one pass over its text before it is
 * parsed: the yaml package parses recursively, and its time grows with the square of the depth
 * (a megabyte of sequences 450 deep takes seconds), and so do the walks after it.
 *
 * Block collections nest by indentation, kept as a stack of the indentation of each open mapping
 * or sequence (`- - x` opens one per `- `); flow collections by `[` and `{` outside quoted
 * scalars. Text that is not structure is skipped as YAML reads it: quoted scalars (on as many
 * lines as they take), block scalars (`|`, `>`: the lines indented under them), plain scalars
 * continued on more indented lines, and comments. Where unsure, it counts rather than skips, so it
 * can count deeper than the parser builds but not shallower (test/security/spec-depth.test.ts
 * compares the two). Each character is read once; the indentation stack only grows by a character
 * read, so popping it is paid for.
 *
 * Aliases (`*a`) are not followed: a value reached through them can be deeper than its text shows,
 * so what the parser made is measured too (`valueDepthExceeds`).
 */

interface Level {
  indent: number;
  kind: 'map' | 'seq';
}

class TooDeep extends Error {}

const SPACE = 0x20;
const TAB = 0x09;
const isBlank = (c: number) => c === SPACE || c === TAB;
const isBreak = (c: number) => c === 0x0a || c === 0x0d;
/** Space, tab, line break, or the end of the text (NaN). */
const isEnd = (c: number) => c === SPACE || c === TAB || c === 0x0a || c === 0x0d || Number.isNaN(c);
const isFlowIndicator = (c: number) => c === 0x2c || c === 0x5b || c === 0x5d || c === 0x7b || c === 0x7d;

class YamlScan {
  private readonly levels: Level[] = [];
  private flow = 0;
  private i = 0;
  /** A plain scalar that ended the last line goes on in lines indented more than this. */
  private plainUnder: number | null = null;
  /** A block scalar's lines are those indented more than this (then as much as its first). */
  private blockUnder: number | null = null;
  private blockIndent: number | null = null;
  /** Where the line being read starts. */
  private lineAt = 0;

  constructor(
    private readonly text: string,
    private readonly maxDepth: number,
  ) {}

  private at(k: number): number {
    return this.text.charCodeAt(k);
  }

  private check(): void {
    if (this.levels.length + this.flow > this.maxDepth) throw new TooDeep();
  }

  private get indentOfTop(): number {
    return this.levels.length > 0 ? this.levels[this.levels.length - 1]!.indent : -1;
  }

  /** Opens a block collection at `indent`, unless one of that kind is open there. */
  private open(indent: number, kind: Level['kind']): void {
    const top = this.levels[this.levels.length - 1];
    if (top && top.indent === indent && top.kind === kind) return;
    this.levels.push({ indent, kind });
    this.check();
  }

  private lineEnd(from: number): number {
    const n = this.text.indexOf('\n', from);
    return n < 0 ? this.text.length : n;
  }

  private skipBlanks(k: number): number {
    while (isBlank(this.at(k))) k++;
    return k;
  }

  run(): void {
    const length = this.text.length;
    while (this.i < length) {
      const start = this.i;
      this.lineAt = start;
      const end = this.lineEnd(start);
      const next = end + 1;
      let k = start;
      while (this.at(k) === SPACE) k++;
      const indent = k - start;
      k = this.skipBlanks(k);
      const blank = k >= end || this.at(k) === 0x0d;
      // The lines of a block scalar: blank ones, and those indented at least as its first.
      if (this.blockUnder !== null) {
        if (blank) {
          this.i = next;
          continue;
        }
        if (this.blockIndent === null && indent > this.blockUnder) this.blockIndent = indent;
        if (this.blockIndent !== null && indent >= this.blockIndent && !this.documentMarker(start)) {
          this.i = next;
          continue;
        }
        this.blockUnder = null;
        this.blockIndent = null;
      }
      if (blank) {
        this.i = next;
        continue;
      }
      if (this.at(k) === 0x23) {
        // A comment line; it ends a plain scalar.
        this.plainUnder = null;
        this.i = next;
        continue;
      }
      if (this.plainUnder !== null) {
        const under = this.plainUnder;
        this.plainUnder = null;
        // A plain scalar going on (unless the line holds what only structure or a comment would).
        if (indent > under && !this.keyOrComment(k, end)) {
          this.i = next;
          continue;
        }
      }
      if (indent === 0 && this.documentMarker(start)) {
        this.levels.length = 0;
        this.i = start + 3;
        this.node(this.skipBlanks(start + 3), end);
        continue;
      }
      if (indent === 0 && this.at(start) === 0x25) {
        this.i = next; // a directive
        continue;
      }
      while (this.levels.length > 0 && this.indentOfTop > indent) this.levels.pop();
      const top = this.levels[this.levels.length - 1];
      const entry = this.at(k) === 0x2d && isEnd(this.at(k + 1));
      // A key where a sequence was open at the same indentation: that sequence was a key's value.
      if (!entry && top && top.indent === indent && top.kind === 'seq') this.levels.pop();
      this.i = k;
      this.node(k, end);
    }
  }

  private documentMarker(start: number): boolean {
    const t = this.text;
    return (t.startsWith('---', start) || t.startsWith('...', start)) && isEnd(this.at(start + 3));
  }

  /** Whether `: ` or ` #` is on the line from `k` to `end`, outside quotes started there. */
  private keyOrComment(k: number, end: number): boolean {
    for (let j = k; j < end; j++) {
      const c = this.at(j);
      if (c === 0x3a && isEnd(this.at(j + 1))) return true;
      if (c === 0x23 && j > k && isBlank(this.at(j - 1))) return true;
    }
    return false;
  }

  /**
   * Reads a node starting at `k` on the line ending at `end`: a sequence entry, a key and its
   * value, a flow collection, a quoted, block or plain scalar. Leaves `this.i` at the next line to
   * read (further when the node took more lines).
   */
  private node(k: number, end: number): void {
    for (;;) {
      k = this.skipBlanks(k);
      if (k >= end || this.at(k) === 0x0d || this.at(k) === 0x23) {
        this.i = end + 1;
        return;
      }
      const c = this.at(k);
      const column = k - this.lineAt;
      if ((c === 0x2d || c === 0x3f || c === 0x3a) && isEnd(this.at(k + 1))) {
        // `- ` a sequence entry, `? ` a complex key, `: ` its value: what follows is a node.
        this.open(column, c === 0x2d ? 'seq' : 'map');
        k += 1;
        continue;
      }
      if (c === 0x26 || c === 0x21) {
        // An anchor or a tag, then the node it belongs to.
        while (k < end && !isEnd(this.at(k))) k++;
        continue;
      }
      if (c === 0x5b || c === 0x7b || c === 0x22 || c === 0x27) {
        // A flow collection or a quoted scalar, which may run over several lines, and may be a key.
        const from = k;
        k = c === 0x5b || c === 0x7b ? this.flowCollection(k) : this.quoted(k);
        if (k < 0) return this.stop(); // the text ended inside it
        this.movedTo(from, k);
        end = this.lineEnd(k);
        if (this.keyAfter(k, column)) {
          k = this.skipBlanks(k) + 1;
          continue;
        }
        this.i = end + 1;
        return;
      }
      if (c === 0x7c || c === 0x3e) {
        this.blockUnder = this.indentOfTop;
        this.blockIndent = null;
        this.i = end + 1;
        return;
      }
      // A plain scalar (an alias reads the same): a key when `: ` follows on its line.
      let j = k;
      let comment = false;
      for (; j < end; j++) {
        const d = this.at(j);
        if (d === 0x3a && isEnd(this.at(j + 1))) break;
        if (d === 0x23 && isBlank(this.at(j - 1))) {
          comment = true;
          break;
        }
      }
      if (j < end && !comment) {
        this.open(column, 'map');
        k = j + 1;
        continue;
      }
      if (!comment && c !== 0x2a) this.plainUnder = this.indentOfTop;
      this.i = end + 1;
      return;
    }
  }

  /** After a node from `from` to `k` that may have taken several lines: the line `k` is on. */
  private movedTo(from: number, k: number): void {
    for (let j = from; j < k; j++) if (this.at(j) === 0x0a) this.lineAt = j + 1;
  }

  private stop(): void {
    this.i = this.text.length;
  }

  /** After a flow collection or quoted scalar ending before `k`: whether `:` makes it a key (then opens the mapping). */
  private keyAfter(k: number, column: number): boolean {
    const j = this.skipBlanks(k);
    if (this.at(j) !== 0x3a || !isEnd(this.at(j + 1))) return false;
    this.open(column, 'map');
    return true;
  }

  /** Past the quoted scalar opening at `k` (on as many lines as it takes); -1 when the text ends first. */
  private quoted(k: number): number {
    const t = this.text;
    if (this.at(k) === 0x27) {
      for (let j = t.indexOf("'", k + 1); j >= 0; j = t.indexOf("'", j + 2)) if (this.at(j + 1) !== 0x27) return j + 1;
      return -1;
    }
    for (let j = k + 1; j < t.length; j++) {
      const c = this.at(j);
      if (c === 0x5c) j++;
      else if (c === 0x22) return j + 1;
    }
    return -1;
  }

  /**
   * Past the flow collection opening at `k`, counting its nesting; -1 when the text ends first.
   * A quote starts a scalar only where a node starts (in `[a"b]` it is a character of `a"b`).
   */
  private flowCollection(k: number): number {
    const t = this.text;
    const length = t.length;
    let nodeStart = true;
    /** The last node was quoted or a collection: then `:` right after it is an indicator. */
    let jsonLike = false;
    for (let j = k; j < length; j++) {
      const c = this.at(j);
      if (c === 0x5b || c === 0x7b) {
        this.flow++;
        this.check();
        nodeStart = true;
        jsonLike = false;
      } else if (c === 0x5d || c === 0x7d) {
        this.flow--;
        nodeStart = false;
        jsonLike = true;
        if (this.flow === 0) return j + 1;
      } else if (c === 0x2c) {
        nodeStart = true;
        jsonLike = false;
      } else if (isBlank(c) || isBreak(c)) {
        if (this.at(j + 1) === 0x23) j = this.lineEnd(j + 1) - 1; // a comment
      } else if (c === 0x3a && (jsonLike || isEnd(this.at(j + 1)) || isFlowIndicator(this.at(j + 1)))) {
        nodeStart = true;
        jsonLike = false;
      } else if (nodeStart && (c === 0x22 || c === 0x27)) {
        j = this.quoted(j);
        if (j < 0) return -1;
        j--;
        nodeStart = false;
        jsonLike = true;
      } else if (nodeStart && (c === 0x26 || c === 0x21)) {
        while (j + 1 < length && !isEnd(this.at(j + 1)) && !isFlowIndicator(this.at(j + 1))) j++;
      } else if (nodeStart && c === 0x3f && isEnd(this.at(j + 1))) {
        // an explicit key: a node follows
      } else {
        nodeStart = false;
        jsonLike = false;
      }
    }
    return -1;
  }
}

/** Whether the YAML document `text` nests collections more than `maxDepth` deep (the document's own collection is level 1). */
export function yamlDepthExceeds(text: string, maxDepth: number): boolean {
  try {
    new YamlScan(text, maxDepth).run();
    return false;
  } catch (error) {
    if (error instanceof TooDeep) return true;
    throw error;
  }
}

/**
 * Whether a parsed value nests objects and arrays more than `maxDepth` deep, the value itself
 * being level 1. Parsed YAML can hold one object in several places (an alias) and even inside
 * itself (an alias within its own anchor, which is nested without end): each object is measured
 * once, without recursion.
 */
export function valueDepthExceeds(value: unknown, maxDepth: number): boolean {
  /** How deep each object goes, itself included; -1 while it is being measured. */
  const depths = new Map<object, number>();
  const children = (o: object): unknown[] => (Array.isArray(o) ? o : Object.values(o));
  const stack: { node: object; next: number; items: unknown[]; deepest: number }[] = [];
  const enter = (node: object): boolean => {
    depths.set(node, -1);
    stack.push({ node, next: 0, items: children(node), deepest: 0 });
    return stack.length <= maxDepth;
  };
  if (typeof value !== 'object' || value === null) return false;
  if (!enter(value)) return true;
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (frame.next < frame.items.length) {
      const child = frame.items[frame.next++];
      if (typeof child !== 'object' || child === null) continue;
      const known = depths.get(child);
      if (known === -1) return true; // inside itself
      if (known !== undefined) {
        frame.deepest = Math.max(frame.deepest, known);
        if (stack.length + known > maxDepth) return true;
        continue;
      }
      if (!enter(child)) return true;
      continue;
    }
    stack.pop();
    const depth = frame.deepest + 1;
    depths.set(frame.node, depth);
    const parent = stack[stack.length - 1];
    if (parent) parent.deepest = Math.max(parent.deepest, depth);
  }
  return false;
}
