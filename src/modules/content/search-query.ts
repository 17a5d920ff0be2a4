/**
 * What a search query asks of the index, read from the reader's text without ever handing it to
 * `to_tsquery`'s own syntax: the whole query goes through `websearch_to_tsquery` (which accepts any
 * text), and only the word being typed is turned into a prefix operand, from letters and digits alone.
 */
export interface SearchTerms {
  /** The query as typed: whole words, stemmed, with websearch's quotes, `or` and `-`. */
  query: string;
  /** The word being typed (lower case), matched as written or as the start of a word; null when the query ends otherwise. */
  last: string | null;
  /** `last` as a `to_tsquery` prefix operand (`'word':*`), null with it. */
  prefix: string | null;
}

/** Shorter prefixes match too much of a large index to be worth the scan. */
const MIN_PREFIX = 2;

const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u;

/**
 * The word at the end of `query`, when the reader may still be typing it: a run of letters and
 * digits right at the end, standing alone (not inside an open quoted phrase, not negated with `-`).
 * A query ending in a space or a mark has no word being typed.
 */
export function searchTerms(query: string): SearchTerms {
  const chars = [...query];
  let start = chars.length;
  while (start > 0 && WORD_CHAR.test(chars[start - 1])) start--;
  const word = chars.slice(start).join('');
  const before = chars.slice(0, start).join('');
  const standsAlone = start === 0 || /\s$/u.test(before);
  const inPhrase = (before.match(/"/g)?.length ?? 0) % 2 === 1;
  if (chars.length - start < MIN_PREFIX || !standsAlone || inPhrase) return { query, last: null, prefix: null };
  const last = word.toLowerCase();
  // The word holds no quote or backslash; escaping them anyway keeps the operand safe if WORD_CHAR grows.
  return { query, last, prefix: `'${last.replace(/\\/g, '\\\\').replace(/'/g, "''")}':*` };
}
