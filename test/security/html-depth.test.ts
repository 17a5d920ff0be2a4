/**
 * The one-pass measure of HTML nesting (src/lib/html-depth.ts) against the parser turndown uses
 * (domino). On generated tag soup it may count one level shallower than the tree the parser
 * builds, in rare tangles of templates, selects and tables, but never more, and the gap does not
 * grow when the tangle is repeated (which is what going past the limit would take). It must stay
 * a quick pass on the worst documents one can write.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { checkHtml, MAX_HTML_ATTRIBUTES, MAX_HTML_DEPTH, measureHtml } from '../../src/lib/html-depth';

/** turndown's parser (its types declare another module name). */
const domino = createRequire(import.meta.url)('@mixmark-io/domino') as { createDocument(html: string): Document };

/**
 * The deepest element as turndown has it parsed (inside an element of its own in <body>, its
 * children being level 1), and the element count. Null when there is no such element (a
 * <frameset> replaced the body): turndown then fails, and the import refuses the document.
 */
function parsed(html: string): { depth: number; elements: number } | null {
  const doc = domino.createDocument(`<x-turndown id="turndown-root">${html}</x-turndown>`);
  if (!doc.getElementById('turndown-root')) return null;
  let depth = 0;
  let elements = 0;
  const stack: [Node, number][] = [];
  // Levels from <body>'s children, less the wrapper (some content ends up beside it).
  for (const child of Array.from<Node>(doc.body.childNodes)) stack.push([child, 0]);
  while (stack.length > 0) {
    const [node, level] = stack.pop()!;
    if (node.nodeType !== 1) continue;
    if (level > 0) elements++;
    depth = Math.max(depth, level);
    for (const child of Array.from<Node>(node.childNodes)) stack.push([child, level + 1]);
    const content = (node as HTMLTemplateElement).content;
    if (content) for (const child of Array.from<Node>(content.childNodes)) stack.push([child, level + 1]);
  }
  return { depth, elements };
}

/** A small deterministic generator of tag soup. */
function soup(seed: number, vocabulary: string[], opening: number, count: number): string {
  let state = seed;
  const random = () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
  const pick = <T,>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  let out = '';
  for (let k = 0; k < count; k++) {
    const r = random();
    const tag = pick(vocabulary);
    if (r < opening) {
      let attributes = random() < 0.3 ? ` id=${Math.floor(random() * 3)}` : '';
      if (tag === 'font' && random() < 0.5) attributes += ' color=red';
      if (tag === 'annotation-xml' && random() < 0.5) attributes += ' encoding="text/html"';
      if (random() < 0.05) attributes += ' title="a>b"';
      out += `<${random() < 0.1 ? tag.toUpperCase() : tag}${attributes}${random() < 0.1 ? '/' : ''}>`;
    } else if (r < opening + (1 - opening) * 0.75) out += `</${tag}>`;
    else if (r < 0.96) out += pick(['x', ' ', '\n', 'text', '<', '&amp;']);
    else out += pick(['<!-- c -->', '<!---->', '<!-->', '<![CDATA[x]]>', '<!doctype html>', '<?x?>', '</ >', '</>']);
  }
  return out;
}

const VOCABULARIES: [string, number][] = [
  ['div span p b i a font li ul ol dl dd dt table tbody thead tr td th caption colgroup col select option optgroup form button svg math g foreignObject desc title mi mo annotation-xml h1 h2 template textarea script style br img hr pre nobr ruby rt rp rb em strong object marquee applet x-el section blockquote input iframe noscript xmp plaintext image body html head frameset frame listing center code s u sub', 0.45],
  ['b i a font nobr em s u div p span table tr td th li ul section button object applet marquee template select option', 0.6],
  ['b i a div p table tbody tr td th caption colgroup col thead tfoot select option optgroup svg math foreignObject mi annotation-xml desc g span', 0.55],
  ['svg math g foreignObject desc title mi mo mn annotation-xml mglyph div p b i font span br table td script style textarea xmp', 0.55],
  ['li ul ol dd dt dl p div h1 h2 h3 form button ruby rb rt rp rtc option optgroup select pre listing plaintext a b', 0.6],
];

describe('the HTML measure', () => {
  it('counts at most one level shallower than the parser builds, on 2,500 generated documents of misnested tags', () => {
    let checked = 0;
    for (const [index, [words, opening]] of VOCABULARIES.entries()) {
      for (let seed = 1; seed <= 500; seed++) {
        const html = soup(seed * 7 + index, words.split(' '), opening, 20 + (seed % 280));
        const built = parsed(html);
        if (!built) continue;
        const measured = measureHtml(html);
        if (measured.depth + 1 < built.depth) expect.fail(`measured ${measured.depth}, the parser built ${built.depth}: ${JSON.stringify(html)}`);
        // Elements the parser clones while moving misnested formatting elements are not all counted.
        expect(measured.elements * 2 + 10).toBeGreaterThanOrEqual(built.elements);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(2_250);
  });

  it('never falls further behind when a tangle is repeated: 1,500 generated snippets, 20 and 60 times', () => {
    let state = 42;
    const random = () => {
      state = (state * 1103515245 + 12345) & 0x7fffffff;
      return state / 0x7fffffff;
    };
    const words = VOCABULARIES[0]![0].split(' ');
    for (let k = 0; k < 1_500; k++) {
      let snippet = '';
      for (let n = 2 + Math.floor(random() * 10); n > 0; n--) {
        const tag = words[Math.floor(random() * words.length)]!;
        const r = random();
        snippet += r < 0.55 ? `<${tag}${random() < 0.3 ? ` id=${Math.floor(random() * 3)}` : ''}${random() < 0.08 ? '/' : ''}>` : r < 0.92 ? `</${tag}>` : 'x';
      }
      const gap = (times: number) => (parsed(snippet.repeat(times))?.depth ?? 0) - measureHtml(snippet.repeat(times)).depth;
      const [few, many] = [gap(20), gap(60)];
      if (many > few || many > 1) expect.fail(`the gap grows from ${few} to ${many}: ${JSON.stringify(snippet)}`);
    }
  });

  it('counts what the parser builds for what a plain counter gets wrong', () => {
    const cases: [string, number][] = [
      ['<div></span>'.repeat(50), 50], // end tags that close nothing
      ['<div/>'.repeat(50), 50], // no self-closing <div>
      ['<p>one<p>two<p>three', 1], // a <p> closes the one before
      ['<ul><li>a<li>b<li>c</ul>', 2],
      ['<table><tr><td>x</table>', 4], // <tbody> added
      ['<script>"<div><div><div>"</script><div>', 1],
      ['<!-- <div><div> --><div>', 1],
      ['<b><div></b>'.repeat(20), 21], // each <b> is carried into the <div> after it
      ['<div>' + '<b>'.repeat(3) + '</div>' + '<p>x</p>'.repeat(3), 4], // reopened inside each <p>
      ['<svg><g/><g/><rect/></svg>', 2],
      ['<select><div><div><option>x', 2], // a select takes options only
    ];
    for (const [html, depth] of cases) {
      expect({ html, depth: measureHtml(html).depth }).toEqual({ html, depth });
      expect(parsed(html)!.depth).toBeLessThanOrEqual(depth);
    }
  });

  it('refuses past the limit, and documents that reopen formatting elements in every block', () => {
    expect(checkHtml('<div>'.repeat(MAX_HTML_DEPTH))).toEqual({ ok: true });
    expect(checkHtml('<div>'.repeat(MAX_HTML_DEPTH + 1))).toEqual({ ok: false, problem: 'too deep' });
    // 200 <b>s left open in a <div>, then <p>s: the parser builds the 200 again inside each.
    const reopened = '<div>' + Array.from({ length: 200 }, (_, i) => `<b id=${i}>`).join('') + '</div>' + '<p>x</p>'.repeat(5_000);
    expect(checkHtml(reopened)).toEqual({ ok: false, problem: 'too many elements' });
    // The parser looks through an element's attributes for each new one.
    const attributes = (n: number) => `<p ${Array.from({ length: n }, (_, i) => `a${i}=${i}`).join(' ')}>`;
    expect(checkHtml(attributes(MAX_HTML_ATTRIBUTES))).toEqual({ ok: true });
    expect(checkHtml(attributes(MAX_HTML_ATTRIBUTES + 1))).toEqual({ ok: false, problem: 'too many attributes' });
  });

  it('stays one quick pass over 5 MB of the most misnested documents', () => {
    const size = 5 * 1024 * 1024;
    const fill = (unit: string, prefix = '') => prefix + unit.repeat(Math.floor((size - prefix.length) / unit.length));
    const spans = '<span>'.repeat(248);
    const documents = [
      fill('</q>', `<q><div>${spans}`),
      fill('<li>', spans),
      fill('<b></b>', spans),
      fill('<div></div>', `<p>${spans}`),
      fill('<td>', `<table><tr><td>${spans}`),
      fill('<a></a>', `<a><table>${spans}`),
      fill('<p>x</p>', '<div>' + Array.from({ length: 200 }, (_, i) => `<b id=${i}>`).join('') + '</div>'),
      fill('<script>'),
      fill('<i></i>'),
    ];
    for (const html of documents) {
      const started = performance.now();
      checkHtml(html);
      // Generous: these take well under a second; the parser itself took minutes on some.
      expect(performance.now() - started).toBeLessThan(5_000);
    }
  });
});
