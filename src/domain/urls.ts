import { z } from 'zod';

/**
 * Which URLs a field takes. Everything outside http, https and (for links) mailto is refused:
 * `javascript:`, `data:`, `vbscript:`, `file:`, `blob:` and any scheme yet to be invented.
 */
export interface UrlRule {
  /** Links readers click: mailto as well. */
  mailto?: boolean;
  /** References without a scheme (`/docs/x`, `guide`, `#top`), resolved on the platform; `//host` is not one. */
  relative?: boolean;
}

/** Where a reader clicks: a web page, an e-mail address, or a path of the site. */
export const LINK_URL: UrlRule = { mailto: true, relative: true };
/** What a server or a browser loads by itself (a logo, a font, an endpoint): an absolute http(s) URL. */
export const WEB_URL: UrlRule = {};

// Invisible characters browsers drop or skip inside a URL: whitespace, controls, zero-width and bidi marks.
// eslint-disable-next-line no-control-regex -- controls are what this removes
const INVISIBLE = /[\u0000-\u0020\u007f-\u00a0\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]|\s/g;
const SCHEME = /^[a-z][a-z0-9+.-]*$/;
const NAMED: Record<string, string> = { colon: ':', tab: '\t', newline: '\n', sol: '/', bsol: '\\', amp: '&', percnt: '%', period: '.', nbsp: ' ', lpar: '(', rpar: ')', quot: '"', apos: "'" };

const decodeOnce = (value: string) =>
  value
    // Percent-escapes of ASCII: enough to reveal a hidden scheme, colon or slash.
    .replace(/%([0-7][0-9a-f])/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    // Character references, as an HTML attribute would decode them (the ';' is optional there).
    .replace(/&#(x[0-9a-f]{1,6}|[0-9]{1,7});?/gi, (whole, code: string) => {
      const point = code[0] === 'x' || code[0] === 'X' ? parseInt(code.slice(1), 16) : parseInt(code, 10);
      return point > 0 && point <= 0x10ffff ? String.fromCodePoint(point) : whole;
    })
    .replace(/&([a-z]+);/gi, (whole, name: string) => NAMED[name.toLowerCase()] ?? whole);

/** One reading of the value, as some browser or client might take it, is safe under the rule. */
function readingIsSafe(reading: string, rule: UrlRule): boolean {
  const url = reading.replace(INVISIBLE, '').replace(/\\/g, '/').toLowerCase();
  // RFC 3986: a colon in the first segment makes it a scheme; a relative reference has none there.
  const first = /^[^/?#]*/.exec(url)![0];
  const colon = first.indexOf(':');
  if (colon >= 0) {
    const scheme = first.slice(0, colon);
    if (!SCHEME.test(scheme)) return false;
    return scheme === 'https' || scheme === 'http' || (scheme === 'mailto' && Boolean(rule.mailto));
  }
  return Boolean(rule.relative) && !url.startsWith('//');
}

/**
 * Whether a URL may be stored and shown as a link or an image. Every reading counts: as written,
 * with percent-escapes and character references decoded (up to three times over, for double
 * encodings), and in Unicode compatibility form; each with invisible characters removed and
 * backslashes read as slashes. Linear in the length of the value.
 */
export function isSafeUrl(value: string, rule: UrlRule): boolean {
  let reading = value;
  for (let round = 0; round < 4; round++) {
    if (!readingIsSafe(reading, rule) || !readingIsSafe(reading.normalize('NFKC'), rule)) return false;
    const next = decodeOnce(reading);
    if (next === reading) return true;
    reading = next;
  }
  return true;
}

/** What a field takes, in words, for the messages that refuse it. */
export const urlRuleText = (rule: UrlRule) =>
  `an http(s)${rule.mailto ? ' or mailto' : ''} URL${rule.relative ? ', or a path on the site (not //host)' : ''}`;

/**
 * A URL field of an input: a string of at most `max` characters that passes `isSafeUrl`. The
 * message names `field`; without one, the path the field sits at is put before it.
 */
export const urlSchema = (field: string | null, rule: UrlRule, max = 2048) =>
  z
    .string({ error: `${field ?? 'a URL'} must be a string` })
    .max(max, `${field ?? 'a URL'} must be at most ${max} characters`)
    .refine((value) => isSafeUrl(value, rule), `${field ? `${field} ` : ''}must be ${urlRuleText(rule)}`);

/** An absolute http(s) URL that also parses as one: the platform's `format: uri` fields (logos, icons, endpoints). */
export const webUrlSchema = (field: string | null, max = 2048) => urlSchema(field, WEB_URL, max).pipe(z.url({ error: `${field ? `${field} ` : ''}must be ${urlRuleText(WEB_URL)}` }));

/** A URL for an href or src of a page Quire renders: itself when safe, otherwise null. */
export const safeUrlOrNull = (value: string | null | undefined, rule: UrlRule): string | null => (typeof value === 'string' && isSafeUrl(value, rule) ? value : null);

/** How far up `unsafeUrlIn` shows a position's path to `ruleAt`: deep enough for every URL field of the platform. */
const WINDOW = 8;

interface Position {
  value: unknown;
  key: string;
  parent: Position | null;
  depth: number;
}

const keysOf = (at: Position, count: number): string[] => {
  const keys: string[] = [];
  for (let p: Position | null = at; p && p.parent && keys.length < count; p = p.parent) keys.push(p.key);
  return keys.reverse();
};

/**
 * The first URL in a JSON value that fails its rule, and where it is. `ruleAt` says whether a
 * string is a URL, and under which rule, from the last keys of its path (up to 8, the whole path
 * when `depth` equals their number). The walk keeps its own stack and visits every value once
 * (nothing is left unchecked), so a deep or wide value costs time in proportion to its size.
 */
export function unsafeUrlIn(value: unknown, ruleAt: (keys: readonly string[], depth: number) => UrlRule | null): { path: string[]; url: string } | null {
  const stack: Position[] = [{ value, key: '', parent: null, depth: 0 }];
  while (stack.length) {
    const at = stack.pop()!;
    if (typeof at.value === 'string') {
      const rule = ruleAt(keysOf(at, WINDOW), at.depth);
      if (rule && !isSafeUrl(at.value, rule)) return { path: keysOf(at, at.depth), url: at.value };
    } else if (at.value && typeof at.value === 'object') {
      const entries = Array.isArray(at.value) ? at.value.map((v, i) => [String(i), v] as const) : Object.entries(at.value);
      for (let i = entries.length - 1; i >= 0; i--) stack.push({ value: entries[i][1], key: entries[i][0], parent: at, depth: at.depth + 1 });
    }
  }
  return null;
}

/** Where the platform's JSON documents hold URLs: `url` of a ContentRefURL (links, images) or of an embed. */
export const documentUrlRule = (keys: readonly string[]): UrlRule | null => (['url', 'href', 'src'].includes(keys[keys.length - 1] ?? '') ? LINK_URL : null);
