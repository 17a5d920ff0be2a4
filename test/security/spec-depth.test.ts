/**
 * The one-pass measure of YAML nesting (src/lib/yaml-depth.ts) against the yaml package, and the
 * measure of parsed values that YAML aliases can nest further than their text shows.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import type { OpenApiSpecVersionRow } from '../../src/db/schema/openapi';
import { valueDepthExceeds, yamlDepthExceeds } from '../../src/lib/yaml-depth';
import { specPages } from '../../src/modules/openapi/pages';

/** The depth the scan finds: the least limit it does not exceed. */
function scanned(text: string): number {
  let depth = 0;
  while (yamlDepthExceeds(text, depth)) depth++;
  return depth;
}

function valueDepth(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  return 1 + Math.max(0, ...Object.values(value).map(valueDepth));
}

describe('the YAML measure', () => {
  it('finds the depth the parser builds, on 3,000 generated documents in every style the yaml package writes', () => {
    let state = 7;
    const random = () => {
      state = (state * 1103515245 + 12345) & 0x7fffffff;
      return state / 0x7fffffff;
    };
    const pick = <T,>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
    // Strings that look like structure: indicators, quotes, comments, line breaks, brackets.
    const strings = ['a', 'b c', 'x: y', '- z', '[', ']', '{', '}', '#', ' # c', '"', "'", "it's", 'line\nbreak', 'multi\nline\n  - item\n  [x', '|', '>', '&a', '*a', '!t', '---', '? q', ': v', 'a, b', '', ' lead', 'k:\n  v', '1', 'null'];
    const value = (level: number): unknown => {
      const r = random();
      if (level > 12 || r < 0.3) return pick(strings) + (random() < 0.3 ? pick(strings) : '');
      const size = Math.floor(random() * 4);
      if (r < 0.65) return Array.from({ length: size }, () => value(level + 1));
      return Object.fromEntries(Array.from({ length: size }, (_, i) => [pick(strings) + i, value(level + 1)]));
    };
    const styles = [{}, { collectionStyle: 'flow' as const }, { indent: 1 }, { indent: 4, indentSeq: false }, { defaultStringType: 'QUOTE_DOUBLE' as const }, { defaultStringType: 'QUOTE_SINGLE' as const }, { defaultStringType: 'BLOCK_LITERAL' as const }, { defaultStringType: 'BLOCK_FOLDED' as const }, { lineWidth: 10, minContentWidth: 5 }];
    let checked = 0;
    for (let k = 0; k < 3_000; k++) {
      const v = value(0);
      let text = stringify(v, pick(styles));
      // Comment lines between the lines (where that leaves the document as it was).
      if (random() < 0.2) {
        const commented = text.replace(/\n/g, '\n# a comment [ { -\n');
        try {
          if (JSON.stringify(parse(commented, { logLevel: 'silent' })) === JSON.stringify(parse(text, { logLevel: 'silent' }))) text = commented;
        } catch {
          // in a block scalar it would be text, or break its indentation
        }
      }
      if (scanned(text) !== valueDepth(v)) expect.fail(`scanned ${scanned(text)}, built ${valueDepth(v)}: ${JSON.stringify(text)}`);
      checked++;
    }
    expect(checked).toBe(3_000);
  });

  it("finds GitBook's own spec (as YAML) 21 deep", () => {
    const yaml = readFileSync('node_modules/@gitbook/api/spec/openapi.yaml', 'utf8');
    expect(scanned(yaml)).toBe(21);
    expect(valueDepth(parse(yaml))).toBe(21);
  });

  it('stays one quick pass over 5 MB of text that is not structure', () => {
    const size = 5_000_000;
    const fill = (unit: string, prefix = '') => prefix + unit.repeat(Math.floor((size - prefix.length) / unit.length));
    for (const text of [
      fill('a b '),
      fill('a:b '),
      `[${fill("'a', ")}`,
      `k: v\n${fill('  more text - [ {\n')}`,
      `k: |\n${fill('  - [ { " \'\n')}`,
      fill('# [[[[\n'),
      fill('&a !t '),
      fill('a:\n b:\n  c:\n   d: 1\n'),
      fill('- '),
      fill('['),
    ]) {
      const started = performance.now();
      yamlDepthExceeds(text, 64);
      // Generous: these take milliseconds.
      expect(performance.now() - started).toBeLessThan(5_000);
    }
  });
});

describe('the measure of parsed values', () => {
  it('follows aliases, once per object, and takes an alias inside its own anchor as nested without end', () => {
    const chain = Array.from({ length: 90 }, (_, i) => `a${i}: &a${i} ${'['.repeat(60)}${i ? `*a${i - 1}` : ''}${']'.repeat(60)}\n`).join('');
    expect(yamlDepthExceeds(chain, 64)).toBe(false); // the text nests 61
    expect(valueDepthExceeds(parse(chain, { maxAliasCount: 100 }), 64)).toBe(true);
    expect(valueDepthExceeds(parse('loop: &l [*l]\n'), 64)).toBe(true);
    // Shared twenty times over, 2^20 paths: measured once per object.
    let shared: unknown = ['leaf'];
    for (let i = 0; i < 20; i++) shared = [shared, shared];
    const started = performance.now();
    expect(valueDepthExceeds(shared, 64)).toBe(false);
    expect(valueDepthExceeds(shared, 20)).toBe(true);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});

describe('pages computed from a spec', () => {
  const version = (description: string): OpenApiSpecVersionRow => ({
    id: 'v1',
    specId: 's1',
    text: 'openapi: 3.0.3\n',
    title: 'T',
    apiVersion: '1',
    createdAt: new Date(),
    operations: [{ method: 'GET', path: '/x', tags: [], parameters: [{ name: 'q', in: 'query', required: false, description }], responses: [{ status: '200', description }] }],
  });
  const cells = (description: string) => specPages('s', version(description), { models: false }).pages[0]!.markdown.split('\n').filter((line) => line.startsWith('| `q`'));

  it('put a description on one line of its table cell, as before', () => {
    const before = (text: string) => text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|').trim() || ' ';
    for (const description of ['a', ' a \n b ', 'a\r\n\r\nb', 'x | y', '\n\n', ' ', 'a\n \t\nb\n', 'a  b\nc']) {
      expect(cells(description)).toEqual([`| \`q\` | query | no | ${before(description)} |`]);
    }
  });

  it('read a description of 200,000 spaces in one pass (it took minutes)', () => {
    const started = performance.now();
    expect(cells(`a${' '.repeat(200_000)}b`)).toHaveLength(1);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
