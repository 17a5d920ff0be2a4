import { describe, expect, it } from 'vitest';
import { parseBlockTag } from '../../../src/modules/content/block-syntax';

describe('the explicit integration block tag', () => {
  it('reads the integration, the block and JSON values', () => {
    expect(parseBlockTag('{% @mermaid/diagram content="graph TD\\nA-->B" width=3.5 big=true %}')).toEqual({
      integration: 'mermaid',
      block: 'diagram',
      props: { content: 'graph TD\nA-->B', width: 3.5, big: true },
    });
    expect(parseBlockTag('{%@x/y%}')).toEqual({ integration: 'x', block: 'y', props: {} });
  });

  it('is not a tag when anything is off: no block, a bare word, an object value, a missing quote', () => {
    for (const text of ['{% @mermaid %}', '{% mermaid/diagram %}', '{% @a/b c=d %}', '{% @a/b c={"x":1} %}', '{% @a/b c="open %}', '{% @a/b/c %}', '{% @a/b c %}', 'text {% @a/b %}']) expect(parseBlockTag(text), text).toBeNull();
  });

  it('keeps __proto__ as a plain prop, not the prototype', () => {
    const tag = parseBlockTag('{% @a/b __proto__="x" %}')!;
    expect(Object.getPrototypeOf(tag.props)).toBe(Object.prototype);
    expect(Object.keys(tag.props)).toEqual(['__proto__']);
  });

  it('stays linear on hostile input and refuses what is too long or has too many props', () => {
    const started = performance.now();
    expect(parseBlockTag(`{% @a/b x="${'\\"'.repeat(30_000)}" %}`)).toEqual({ integration: 'a', block: 'b', props: { x: '"'.repeat(30_000) } });
    expect(parseBlockTag(`{% @a/b x="${'\\'.repeat(60_000)}`)).toBeNull();
    expect(parseBlockTag(`{% @a/b ${'x'.repeat(70_000)} %}`)).toBeNull();
    expect(parseBlockTag(`{% @a/b ${Array.from({ length: 33 }, (_, i) => `k${i}=1`).join(' ')} %}`)).toBeNull();
    expect(performance.now() - started).toBeLessThan(500);
  });
});
