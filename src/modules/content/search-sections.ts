import { slugify } from './slugs';

/** A part of a page's text that a search hit points at: before the first heading, or under one. */
export interface Section {
  /** Empty for the text before the first heading. */
  heading: string;
  /** The heading's id in the page's document; empty before the first heading. */
  anchor: string;
  /** Plain text: markdown marks and link targets left out, so snippets read as prose. */
  body: string;
}

// The text is taken whole and its closing hashes trimmed by hand: a lazy `(.*?)\s*#*\s*$` went
// back over every run of spaces once per character before it (quadratic on a long line).
const HEADING = /^ {0,3}(#{1,6})[ \t]+(.*)$/;

/** A heading's text without its optional closing sequence of `#`s. */
function headingText(raw: string): string {
  const text = raw.trimEnd();
  let end = text.length;
  while (end > 0 && text[end - 1] === '#') end--;
  return end === 0 || text[end - 1] === ' ' || text[end - 1] === '\t' ? text.slice(0, end).trimEnd() : text;
}
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** Markdown as plain text: images and links keep their words, marks and URLs go. */
export function plainText(markdown: string): string {
  // Each pattern stops at the next opening character and at line ends, so every character is
  // looked at a bounded number of times: a body of 200,000 `[` took 23 s with `[^\]]*`.
  return markdown
    .replace(/!\[([^[\]\n]*)\]\([^()\n]*\)/g, '$1')
    .replace(/\[([^[\]\n]*)\]\([^()\n]*\)/g, '$1')
    .replace(/<[^<>\n]+>/g, ' ')
    .replace(/^[ \t]*(?:[-*+]|\d{1,9}\.)[ \t]+/gm, '')
    .replace(/^[ \t]*>[ \t]?/gm, '')
    .replace(/^[ \t]*(?:\|[ \t]*)?:?-{3,}.*$/gm, '')
    .replace(/[*_`|~]+/g, ' ')
    .replace(/[ \t]+/g, ' ')
    .replace(/\n{2,}/g, '\n')
    .trim();
}

/**
 * Cuts a page's markdown at its headings (outside code blocks). The first section, possibly
 * empty, always exists, so that a page is found by its title even when it has no text.
 */
export function sectionsOf(markdown: string): Section[] {
  const sections: { heading: string; lines: string[] }[] = [{ heading: '', lines: [] }];
  let fence: string | null = null;
  for (const line of markdown.split('\n')) {
    const fenceMatch = FENCE.exec(line);
    if (fenceMatch) {
      const mark = fenceMatch[1];
      if (fence === null) fence = mark[0];
      else if (mark[0] === fence) fence = null;
    }
    const heading = fence === null && !fenceMatch ? HEADING.exec(line) : null;
    if (heading) sections.push({ heading: plainText(headingText(heading[2])), lines: [] });
    else sections[sections.length - 1].lines.push(line);
  }
  return sections.map((s) => ({ heading: s.heading, anchor: s.heading ? slugify(s.heading) : '', body: plainText(s.lines.join('\n')) }));
}

/**
 * The PostgreSQL text search configuration for a space's language: stemming and stop words where
 * PostgreSQL 15 ships them, English otherwise (a space without a language is most often written in
 * it, and `simple` alone would not find "revisions" for "revision"). Words are also indexed as
 * written, whatever the configuration (see search.ts), so no language loses exact matches.
 */
const CONFIGS: Record<string, string> = {
  en: 'english', fr: 'french', de: 'german', es: 'spanish', it: 'italian', pt: 'portuguese', 'pt-br': 'portuguese',
  ru: 'russian', ar: 'arabic', nl: 'dutch', tr: 'turkish', sv: 'swedish', no: 'norwegian', da: 'danish', fi: 'finnish',
  el: 'greek', hu: 'hungarian', ro: 'romanian', id: 'indonesian', lt: 'lithuanian',
};

export function searchConfig(language: string | null): string {
  return (language && CONFIGS[language]) || 'english';
}
