import { parse as parseYaml } from 'yaml';
import { scanJson } from '../../lib/json-input';
import { FetchRefused, safeFetch } from '../../lib/safe-fetch';
import { valueDepthExceeds, yamlDepthExceeds } from '../../lib/yaml-depth';
import type { SpecErrorCode, SpecOperation } from '../../db/schema/openapi';

/** What one processing found: the document and its summary, or why there is none. */
export type Processed =
  | { ok: true; text: string; title: string; apiVersion: string; operations: SpecOperation[] }
  | { ok: false; code: SpecErrorCode; message: string };

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
const MAX_BYTES = 10 * 1024 * 1024;

/**
 * Objects and arrays (mappings and sequences) inside one another, the document being level 1.
 * Specs nest about 20 deep (GitBook's own: 21). Parsing and validation walk the document
 * recursively: a few thousand levels overflowed the stack, after seconds of work when the text
 * had many such branches. The limit keeps every walk shallow; it does not bound the time a large
 * document takes (a megabyte of small collections still takes a second or more).
 */
export const MAX_SPEC_DEPTH = 64;
const TOO_DEEP = `the document nests deeper than ${MAX_SPEC_DEPTH} levels; the limit is ${MAX_SPEC_DEPTH}`;

const isJson = (text: string) => /^\s*\{/.test(text);

/** Whether the text nests deeper than MAX_SPEC_DEPTH, by one pass over it (no parsing). */
export function specTextTooDeep(text: string): boolean {
  return isJson(text) ? scanJson(text, MAX_SPEC_DEPTH).tooDeep : yamlDepthExceeds(text, MAX_SPEC_DEPTH);
}

/** Takes the document from its URL (through the SSRF guard) or as given, then parses and validates it. */
export async function processSpec(source: { url: string | null; text: string | null }, options: { allowHosts: readonly string[]; timeoutMs: number }): Promise<Processed> {
  let text = source.text;
  if (text === null) {
    try {
      const fetched = await safeFetch(source.url ?? '', { allowHosts: options.allowHosts, timeoutMs: options.timeoutMs, maxBytes: MAX_BYTES });
      text = Buffer.from(fetched.bytes).toString('utf8');
    } catch (error) {
      if (error instanceof FetchRefused) return { ok: false, code: error.reason === 'timeout' ? 'FETCH_TIMEOUT' : 'FETCH_ERROR', message: error.message };
      return { ok: false, code: 'FETCH_ERROR', message: (error as Error).message };
    }
  }
  return parseSpec(text);
}

/** Parses JSON or YAML and validates it as OpenAPI 3.x or Swagger 2.0; no external reference is followed. */
export async function parseSpec(text: string): Promise<Processed> {
  if (specTextTooDeep(text)) return { ok: false, code: 'PARSE_ERROR', message: TOO_DEEP };
  let document: unknown;
  try {
    document = isJson(text) ? JSON.parse(text) : parseYaml(text, { maxAliasCount: 100 });
  } catch (error) {
    return { ok: false, code: 'PARSE_ERROR', message: `not JSON or YAML: ${(error as Error).message.split('\n')[0]}` };
  }
  // YAML aliases can nest what the text does not show (and an alias in its own anchor, without end).
  if (valueDepthExceeds(document, MAX_SPEC_DEPTH)) return { ok: false, code: 'PARSE_ERROR', message: TOO_DEEP };
  if (!document || typeof document !== 'object' || Array.isArray(document)) return { ok: false, code: 'PARSE_ERROR', message: 'the document is not an object' };
  const doc = document as { openapi?: unknown; swagger?: unknown };
  if (typeof doc.openapi !== 'string' && doc.swagger !== '2.0') return { ok: false, code: 'PARSE_ERROR', message: 'not an OpenAPI 3.x or Swagger 2.0 document (no "openapi" or "swagger" field)' };
  let validated: Record<string, unknown>;
  try {
    // A copy: the parser rewrites what it is given. External references stay unresolved, so
    // processing never fetches anything the SSRF guard did not see.
    // The validator and its schemas load with the first spec, not at server start.
    const { default: SwaggerParser } = await import('@apidevtools/swagger-parser');
    validated = (await SwaggerParser.validate(structuredClone(document) as never, { resolve: { external: false } })) as unknown as Record<string, unknown>;
  } catch (error) {
    return { ok: false, code: 'PARSE_ERROR', message: (error as Error).message.split('\n').slice(0, 3).join(' ') };
  }
  const info = (validated.info ?? {}) as { title?: string; version?: string };
  return { ok: true, text, title: info.title ?? '', apiVersion: info.version ?? '', operations: operationsOf(validated) };
}

function operationsOf(document: Record<string, unknown>): SpecOperation[] {
  const operations: SpecOperation[] = [];
  for (const [path, item] of Object.entries((document.paths ?? {}) as Record<string, Record<string, unknown>>)) {
    const shared = (item.parameters ?? []) as Record<string, unknown>[];
    for (const method of METHODS) {
      const op = item[method] as Record<string, unknown> | undefined;
      if (!op) continue;
      const parameters = [...shared, ...((op.parameters ?? []) as Record<string, unknown>[])].map((p) => ({
        name: String(p.name ?? ''),
        in: String(p.in ?? ''),
        required: Boolean(p.required),
        ...(typeof p.description === 'string' ? { description: p.description } : {}),
      }));
      const responses = Object.entries((op.responses ?? {}) as Record<string, { description?: string }>).map(([status, r]) => ({ status, ...(r?.description ? { description: r.description } : {}) }));
      operations.push({
        method: method.toUpperCase(),
        path,
        ...(typeof op.operationId === 'string' ? { operationId: op.operationId } : {}),
        ...(typeof op.summary === 'string' ? { summary: op.summary } : {}),
        ...(typeof op.description === 'string' ? { description: op.description } : {}),
        tags: Array.isArray(op.tags) ? op.tags.map(String) : [],
        parameters,
        responses,
      });
    }
  }
  return operations;
}
