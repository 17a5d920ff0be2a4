import LZString from 'lz-string';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../src/domain/errors';
import { decodeRenderRequest, validateContentKitTree } from '../../../src/runtime/render';

const encode = (value: unknown) => LZString.compressToEncodedURIComponent(typeof value === 'string' ? value : JSON.stringify(value));
const request = { componentId: 'greeting', props: { name: 'Ada', count: 2 }, context: { type: 'document', spaceId: 'space_1', editable: true, theme: 'light' } };

function decodeError(input: unknown): ValidationError {
  try {
    decodeRenderRequest(input);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return error as ValidationError;
  }
  throw new Error('expected a ValidationError');
}

describe('render requests (LZ-string JSON)', () => {
  it('decodes a compressed RenderIntegrationUI request', () => {
    expect(decodeRenderRequest(encode(request))).toEqual(request);
  });

  it('refuses a malformed LZ string with a ValidationError on the request field', () => {
    const error = decodeError('%%%not-lz%%%');
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.field).toEqual(['request']);
    expect(decodeError('AAAA').message).toMatch(/^request: /);
    expect(decodeError('').message).toContain('required');
    expect(decodeError(undefined).message).toContain('required');
  });

  it('refuses a request that does not decode to JSON or to a render request', () => {
    expect(decodeError(encode('{"componentId": ')).message).toContain('does not decode to JSON');
    expect(decodeError(encode({ props: {} })).message).toContain('not a render request');
    expect(decodeError(encode([1, 2])).message).toContain('not a render request');
  });

  it('refuses oversized input, encoded or decoded', () => {
    expect(decodeError('A'.repeat(9000)).message).toContain('longer than 8192 characters');
    // Highly repetitive text compresses to little and expands past the decoded cap.
    const bomb = encode({ ...request, props: { filler: 'x'.repeat(1_000_000) } });
    expect(bomb.length).toBeLessThan(8192);
    expect(decodeError(bomb).message).toContain('decodes to more than');
  });
});

describe('ContentKit answers', () => {
  const block = { type: 'block', children: [{ type: 'markdown', content: 'Hi' }, { type: 'hstack', children: [{ type: 'button', label: 'Go', onPress: { action: 'go' } }] }] };

  it('accepts element and complete outputs', () => {
    expect(validateContentKitTree({ type: 'element', element: block, state: {}, props: { name: 'x' } })).toMatchObject({ valid: true });
    expect(validateContentKitTree(JSON.stringify({ type: 'complete', returnValue: { ok: true } }))).toMatchObject({ valid: true });
  });

  it('refuses what is not a ContentKit tree, with the reasons', () => {
    for (const answer of ['not json', '[]', 42, null, { type: 'element', element: { type: 'paragraph', children: [] }, state: {}, props: {} }, { type: 'element', element: { type: 'block', children: [{ type: 'markdown' }] }, state: {}, props: {} }]) {
      const check = validateContentKitTree(answer);
      expect(check.valid).toBe(false);
      if (!check.valid) expect(check.errors.length).toBeGreaterThan(0);
    }
  });

  it('refuses a tree nested deeper than the limit without recursing through it', () => {
    let element: Record<string, unknown> = { type: 'markdown', content: 'deep' };
    for (let i = 0; i < 200; i++) element = { type: 'vstack', children: [element] };
    const check = validateContentKitTree({ type: 'element', element: { type: 'block', children: [element] }, state: {}, props: {} });
    expect(check).toEqual({ valid: false, errors: ['the element tree is deeper than 64 levels'] });
  });
});
