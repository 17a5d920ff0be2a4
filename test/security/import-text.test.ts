/**
 * What an import reads in fetched text (src/modules/content/import-text.ts): the same as the
 * regular expressions it used, found in one pass where they went back over the text from every
 * `<a `, `<` or `[`.
 */
import { describe, expect, it } from 'vitest';
import { anchorTargets, htmlTitle, markdownLinks, rewriteMarkdownLinks, stripTags } from '../../src/modules/content/import-text';

const MD_LINK = /(!?)\[([^\]]*)\]\(\s*<?([^)\s>]+)>?(\s+"[^"]*")?\s*\)/g;
const A_HREF = /<a\s[^>]*href\s*=\s*["']([^"']+)["']/gi;
function titleBefore(html: string): string | undefined {
  const strip = (s: string) => s.replace(/<[^>]+>/g, '').replace(/\s+/g, ' ').trim();
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html) ?? /<h1[^>]*>([\s\S]*?)<\/h1>/i.exec(html);
  return title ? strip(title[1]!) || undefined : undefined;
}

function generator(seed: number) {
  let state = seed;
  const random = () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
  return (pieces: readonly string[], count: number) => Array.from({ length: count }, () => pieces[Math.floor(random() * pieces.length)]).join('');
}

describe('import text', () => {
  it('finds what the regular expressions found, on 20,000 generated texts', () => {
    const text = generator(3);
    const markdownPieces = ['[', ']', '(', ')', '!', '<', '>', '"', ' ', '\n', '\t', 'a', 'b c', 'x.md', '#h', '\u00a0', '](', '[a](', ' "t"', '<x>'];
    const htmlPieces = ['<a ', '<A\n', '<a', 'href', 'HREF', '=', ' = ', '"', "'", '>', '<', 'x', ' ', '/p.html', '<title>', '</title>', '<h1 class=x>', '</h1>', '<b>', '</TITLE>', '<>', 'data-href', 'href="/a.html"', "href='b'", ' href = "c>d" ', '<a href="e">'];
    for (let k = 0; k < 10_000; k++) {
      const md = text(markdownPieces, 1 + (k % 40));
      const expected = [...md.matchAll(MD_LINK)].map((m) => ({ index: m.index, end: m.index + m[0].length, image: m[1] === '!', text: m[2], target: m[3], title: m[4] }));
      expect({ md, links: markdownLinks(md) }).toEqual({ md, links: expected });
      const map = (target: string, image: boolean) => (target.length % 2 ? `${image ? 'i' : 'l'}:${target}` : undefined);
      expect(rewriteMarkdownLinks(md, map)).toBe(md.replace(MD_LINK, (whole, bang: string, t: string, target: string, title: string | undefined) => {
        const next = map(target, bang === '!');
        return next === undefined ? whole : `${bang}[${t}](${next}${title ?? ''})`;
      }));
      const html = text(htmlPieces, 1 + (k % 40));
      expect({ html, targets: anchorTargets(html) }).toEqual({ html, targets: [...html.matchAll(A_HREF)].map((m) => m[1]) });
      expect({ html, title: htmlTitle(html) }).toEqual({ html, title: titleBefore(html) });
      expect(stripTags(html)).toBe(html.replace(/<[^>]+>/g, ''));
    }
  });

  it('reads 5 MB of what made the regular expressions go back over the text in well under a second each', () => {
    const size = 5_000_000;
    const fill = (unit: string) => unit.repeat(Math.floor(size / unit.length));
    const cases: [(text: string) => unknown, string][] = [
      [anchorTargets, fill('<a ')],
      [anchorTargets, fill('<a href="x ')],
      [anchorTargets, fill('<a href=')],
      [htmlTitle, fill('<title>')],
      [htmlTitle, fill('<h1')],
      [stripTags, fill('<')],
      [markdownLinks, fill('[a](')],
      [markdownLinks, fill('[')],
      [markdownLinks, `[a](x "${fill('[b](y ')}"${' '.repeat(1000)}x`],
      [markdownLinks, fill('[a](<')],
      [markdownLinks, fill('[a](x "')],
    ];
    for (const [read, input] of cases) {
      const started = performance.now();
      read(input);
      // Generous: each takes tens of milliseconds; the expressions took hours on these.
      expect(performance.now() - started).toBeLessThan(5_000);
    }
  });
});
