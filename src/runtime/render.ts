import LZString from 'lz-string';
import { ValidationError } from '../domain/errors';
import { readJson, tooDeepMessage } from '../lib/json-input';
import { componentErrors } from '../lib/spec-schemas';

/*
 * The two ends of `GET /v1/integrations/{name}/render?request=<LZ-string>`: decoding the
 * request (spec `RenderIntegrationUI`, compressed with lz-string's URI-safe encoding) and
 * checking what the integration answered against the spec's ContentKit output schemas before it
 * goes back to the caller.
 */

export interface RenderLimits {
  /** Longest encoded request. LZ output can grow with the square of its input, so this bounds the work too. */
  maxEncodedLength: number;
  /** Longest decoded JSON text. */
  maxDecodedLength: number;
}

// A request travels in a URL, and URLs past about 8 KB are refused by most proxies anyway.
export const DEFAULT_RENDER_LIMITS: RenderLimits = { maxEncodedLength: 8 * 1024, maxDecodedLength: 256 * 1024 };

export interface RenderRequest {
  componentId: string;
  props: Record<string, unknown>;
  state?: Record<string, unknown>;
  context: Record<string, unknown> & { type: string };
  action?: Record<string, unknown>;
}

const FIELD = ['request'];

/** Input from outside: the first error is enough, and every error of a large tree is slow to collect (see componentErrors). */
const schemaErrors = (name: string, value: unknown) => componentErrors(name, value, { firstError: true });

/** Decodes and checks a render request; a `ValidationError` (400) names what is wrong. */
export function decodeRenderRequest(encoded: unknown, limits: RenderLimits = DEFAULT_RENDER_LIMITS): RenderRequest {
  if (typeof encoded !== 'string' || encoded.length === 0) throw new ValidationError('request: an LZ-string compressed JSON document is required', FIELD);
  if (encoded.length > limits.maxEncodedLength) throw new ValidationError(`request: longer than ${limits.maxEncodedLength} characters`, FIELD);
  if (!/^[A-Za-z0-9+\-$ ]+$/.test(encoded)) throw new ValidationError('request: not an LZ-string (URI component encoding)', FIELD);
  let text: string | null;
  try {
    text = LZString.decompressFromEncodedURIComponent(encoded);
  } catch {
    text = null;
  }
  if (!text) throw new ValidationError('request: not an LZ-string (URI component encoding)', FIELD);
  if (text.length > limits.maxDecodedLength) throw new ValidationError(`request: decodes to more than ${limits.maxDecodedLength} characters`, FIELD);
  // A few KB of LZ-string decode to a value nested 100,000 deep, which the spec's schema lets
  // through (state is any object) and serializing it for the event would overflow the stack.
  const read = readJson(text);
  if (!read.ok) throw new ValidationError(read.problem === 'too deep' ? `request: ${tooDeepMessage('it')}` : 'request: does not decode to JSON', FIELD);
  return checkRenderRequest(read.value);
}

/** Checks a render request already decoded (GraphQL takes it as JSON); a `ValidationError` names what is wrong. */
export function checkRenderRequest(value: unknown): RenderRequest {
  const errors = schemaErrors('RenderIntegrationUI', value);
  if (errors) throw new ValidationError(`request: not a render request (${errors.join('; ')})`, FIELD);
  return value as RenderRequest;
}

/** Deepest element tree accepted: the schema validator recurses once per level. */
const MAX_DEPTH = 64;

function depth(value: unknown, level = 0): number {
  if (level > MAX_DEPTH || typeof value !== 'object' || value === null) return level;
  let deepest = level;
  for (const child of Object.values(value)) {
    deepest = Math.max(deepest, depth(child, level + 1));
    if (deepest > MAX_DEPTH) break;
  }
  return deepest;
}

export type ContentKitCheck = { valid: true; output: Record<string, unknown> } | { valid: false; errors: string[] };

/**
 * Whether an integration's answer to `ui_render` is a spec `ContentKitRenderOutput`
 * (`{ type: 'element', element: <root element>, state?, props? }` or `{ type: 'complete' }`).
 * Accepts the JSON text or the parsed value.
 */
export function validateContentKitTree(answer: unknown): ContentKitCheck {
  let value = answer;
  if (typeof answer === 'string' || answer instanceof Uint8Array) {
    try {
      value = JSON.parse(typeof answer === 'string' ? answer : Buffer.from(answer).toString('utf8'));
    } catch {
      return { valid: false, errors: ['the answer is not JSON'] };
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { valid: false, errors: ['the answer is not a JSON object'] };
  if (depth(value) > MAX_DEPTH) return { valid: false, errors: [`the element tree is deeper than ${MAX_DEPTH} levels`] };
  const errors = schemaErrors('ContentKitRenderOutput', value);
  return errors ? { valid: false, errors } : { valid: true, output: value as Record<string, unknown> };
}
