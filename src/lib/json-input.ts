/**
 * JSON that a request carries (a REST body, GraphQL's variables) is read in one pass over its text
 * before it is parsed. Nesting is counted there, so a deep value is refused after a few characters,
 * before anything walks it: every later walk (zod schemas, graphql-js coercion, the cost analysis)
 * then has at most `MAX_JSON_DEPTH` levels to go through. The same pass notes whether any string
 * could be unsafe (see input-hygiene), so the parsed value is walked only when one may be there.
 */

/**
 * Objects and arrays nested inside one another, the value itself being level 1: `{"a":[1]}` is 2
 * deep. The platform's own documents and settings stay under 20; 64 leaves room for anything an
 * integration's configuration holds.
 */
export const MAX_JSON_DEPTH = 64;

export interface JsonScan {
  /** Nesting went past the limit; the scan stopped there. */
  tooDeep: boolean;
  /** A string holds NUL or a lone surrogate, written raw or as a `\u` escape. */
  unsafe: boolean;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

function hexDigit(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  const lower = code | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x57 : -1;
}

/** The code unit a `\uXXXX` escape starting at `at` (on the `u`) stands for; -1 when malformed. */
function escapedUnit(text: string, at: number): number {
  let unit = 0;
  for (let k = 1; k <= 4; k++) {
    const digit = hexDigit(text.charCodeAt(at + k));
    if (digit < 0) return -1;
    unit = (unit << 4) | digit;
  }
  return unit;
}

/**
 * Counts nesting outside strings and looks at each string's code units (escapes decoded), in one
 * pass. It does not validate the JSON: JSON.parse does that afterwards, on text known to be shallow.
 */
export function scanJson(text: string, maxDepth: number = MAX_JSON_DEPTH): JsonScan {
  let depth = 0;
  let unsafe = false;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x7b || code === 0x5b) {
      if (++depth > maxDepth) return { tooDeep: true, unsafe };
    } else if (code === 0x7d || code === 0x5d) {
      depth--;
    } else if (code === QUOTE) {
      // Whether the previous code unit of this string was a high surrogate waiting for its pair.
      let high = false;
      for (i++; i < length; i++) {
        let unit = text.charCodeAt(i);
        if (unit === QUOTE) break;
        if (unit === BACKSLASH) {
          i++;
          if (text.charCodeAt(i) === 0x75) {
            unit = escapedUnit(text, i);
            i += 4;
          } else {
            unit = 0x20; // any other escape is a plain character here
          }
        }
        if (unit >= 0xd800 && unit <= 0xdbff) {
          if (high) unsafe = true;
          high = true;
        } else {
          if ((unit >= 0xdc00 && unit <= 0xdfff) !== high || unit === 0) unsafe = true;
          high = false;
        }
      }
      if (high) unsafe = true;
    }
  }
  return { tooDeep: false, unsafe };
}

export type JsonRead = { ok: true; value: unknown; unsafe: boolean } | { ok: false; problem: 'too deep' | 'not JSON' };

/** Scans, then parses: a value nested past `maxDepth` is never parsed. */
export function readJson(text: string, maxDepth: number = MAX_JSON_DEPTH): JsonRead {
  const scan = scanJson(text, maxDepth);
  if (scan.tooDeep) return { ok: false, problem: 'too deep' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, problem: 'not JSON' };
  }
  return { ok: true, value, unsafe: scan.unsafe };
}

export function tooDeepMessage(what: string, maxDepth: number = MAX_JSON_DEPTH): string {
  return `${what} nests objects and arrays more than ${maxDepth} levels deep; the limit is ${maxDepth}`;
}
