import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config/config';
import { markdownSegments } from '../../../src/modules/translations/segments';

/** Puts back each segment upper-cased, as the test engine does, and answers what went out and the body. */
function roundTrip(markdown: string) {
  const body = markdownSegments(markdown);
  for (const segment of body.segments) segment.put(segment.text.toUpperCase());
  return { sent: body.segments.map((s) => s.text), words: body.segments.reduce((n, s) => n + s.words, 0), markdown: body.render() };
}

describe('what a body sends to the engine', () => {
  it('sends table cells, quotes, list items and image descriptions; keeps code, HTML, URLs and references', () => {
    const source = [
      '> A quote with `inline code`.',
      '',
      '| Name | Value |',
      '| --- | --- |',
      '| size | `42` |',
      '',
      '![A diagram](https://example.com/d.png)',
      '',
      '<div class="note">raw html</div>',
      '',
      '- [x] done task',
      '',
      'See [the docs][docs].',
      '',
      '[docs]: https://example.com/docs',
    ].join('\n');
    const { sent, markdown } = roundTrip(source);
    expect(sent).toEqual(['A quote with', 'Name', 'Value', 'size', 'A diagram', 'done task', 'See', 'the docs']);
    expect(markdown).toContain('> A QUOTE WITH `inline code`.');
    expect(markdown).toContain('| NAME | VALUE |');
    expect(markdown).toContain('| SIZE | `42`  |');
    expect(markdown).toContain('![A DIAGRAM](https://example.com/d.png)');
    expect(markdown).toContain('<div class="note">raw html</div>');
    expect(markdown).toContain('- [x] DONE TASK');
    expect(markdown).toContain('[docs]: https://example.com/docs');
  });

  it('sends nothing for a body without words, and counts the words it sends', () => {
    expect(roundTrip('```\ncode only\n```\n\n42 / 7').sent).toEqual([]);
    expect(roundTrip('One two three.\n\n**Four** five').words).toBe(5);
  });
});

describe('translation settings', () => {
  it('reads QUIRE_TRANSLATE_URL and QUIRE_TRANSLATE_KEY, and refuses a URL that is not http(s)', () => {
    expect(loadConfig({ QUIRE_TRANSLATE_URL: 'https://translate.example.com/', QUIRE_TRANSLATE_KEY: 'k' }).translate).toEqual({ url: 'https://translate.example.com', key: 'k' });
    expect(loadConfig({ QUIRE_TRANSLATE_URL: 'http://127.0.0.1:5000' }).translate).toEqual({ url: 'http://127.0.0.1:5000' });
    expect(loadConfig({ QUIRE_TRANSLATE_KEY: 'k' }).translate).toBeUndefined();
    expect(() => loadConfig({ QUIRE_TRANSLATE_URL: 'ftp://x' })).toThrow(ConfigError);
    expect(() => loadConfig({ QUIRE_TRANSLATE_URL: 'ftp://x' })).toThrow(/QUIRE_TRANSLATE_URL must be an http\(s\) URL/);
  });
});
