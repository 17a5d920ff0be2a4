import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { assetFile, CONTRACT_ASSET } from './assets';
import type { RouteEntry } from './router';
import { addImpliedTypes } from './schema-types';

/**
 * The OpenAPI 3.1 document of the /v1 operations Quire serves, built from the router's own table so a
 * route added anywhere appears here. What each operation takes and answers comes from the official
 * contract Quire implements (`@gitbook/api`'s 3.0 document), converted to 3.1, with only the
 * components it references; a route's own zod body schema, when it declares one, replaces the
 * contract's request body, and a route the contract does not know gets a plain entry.
 */

type Json = { [key: string]: unknown };
interface Contract {
  paths: Record<string, Record<string, Json>>;
  components: Record<string, Record<string, Json>>;
}

const PREFIX = '/v1';
const COMPONENT_REF = /^#\/components\/([^/]+)\/(.+)$/;

let contract: Contract | undefined;
/** 1 MB of JSON: read on the first request for the document, not at start. */
function loadContract(): Contract {
  contract ??= JSON.parse(readFileSync(assetFile(CONTRACT_ASSET.name, CONTRACT_ASSET.fromPackage), 'utf8')) as Contract;
  return contract;
}

/** `/v1/spaces/:spaceId/content/path/*pagePath` -> `/spaces/{spaceId}/content/path/{pagePath}`. */
export function openApiPath(routePath: string): string {
  const path = routePath.startsWith(PREFIX) ? routePath.slice(PREFIX.length) : routePath;
  return path.replace(/[:*]([A-Za-z0-9_]+)/g, '{$1}') || '/';
}

const pathParams = (path: string) => [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
/** Paths equal but for the names of their parameters. */
const pathShape = (path: string) => path.replace(/\{[^}]+\}/g, '{}');

export function buildOpenApiDocument(routes: readonly RouteEntry[]): Json {
  const official = loadContract();
  const byShape = new Map<string, Json>();
  for (const [path, item] of Object.entries(official.paths)) {
    for (const [method, operation] of Object.entries(item)) byShape.set(`${method} ${pathShape(path)}`, operation);
  }

  const paths: Record<string, Record<string, Json>> = {};
  for (const route of routes) {
    const path = openApiPath(route.path);
    const method = route.method.toLowerCase();
    const known = byShape.get(`${method} ${pathShape(path)}`);
    const operation = known ? adaptOperation(official, known, pathParams(path)) : plainOperation(route.method, path);
    if (route.meta?.summary) operation.summary = route.meta.summary;
    if (route.meta?.body) {
      operation.requestBody = { required: true, content: { 'application/json': { schema: z.toJSONSchema(route.meta.body, { io: 'input', unrepresentable: 'any' }) } } };
    }
    (paths[path] ??= {})[method] = operation;
  }

  const components = collectComponents(official, paths);
  components.securitySchemes = { user: { type: 'http', scheme: 'bearer', description: 'An API token: `Authorization: Bearer <token>`' } };
  const document = {
    openapi: '3.1.0',
    info: {
      title: 'Quire REST API (/v1)',
      // The REST layer's version, the `v1` of its paths.
      version: '1',
      description: 'The /v1 operations Quire serves: the paths, bodies and statuses of the GitBook API, so its official clients work unchanged. Errors answer `{ "error": { "code": <status>, "message": "..." } }`.',
    },
    servers: [{ url: PREFIX }],
    security: [{ user: [] }],
    paths,
    components,
  };
  addImpliedTypes(document);
  return document;
}

/** The contract's operation with Quire's path parameter names and only the security scheme we have. */
function adaptOperation(official: Contract, operation: Json, names: string[]): Json {
  const copy = structuredClone(operation);
  delete copy.security;
  let index = 0;
  copy.parameters = ((copy.parameters as Json[] | undefined) ?? []).map((parameter) => {
    const resolved = resolve(official, parameter);
    if (resolved.in !== 'path') return parameter;
    // Our route may name it differently (`:userId` for `{userId}` is usual, not guaranteed).
    return { ...structuredClone(resolved), name: names[index++] ?? resolved.name };
  });
  const missing = names.slice(index);
  (copy.parameters as Json[]).push(...missing.map(pathParameter));
  return toOpenApi31(copy) as Json;
}

function plainOperation(method: string, path: string): Json {
  return {
    operationId: `${method.toLowerCase()}${path.replace(/\{[^}]+\}/g, 'By').replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase())}`,
    summary: `${method} ${PREFIX}${path}`,
    parameters: pathParams(path).map(pathParameter),
    responses: { default: { description: 'The result of the operation' } },
  };
}

function pathParameter(name: string): Json {
  return { name, in: 'path', required: true, schema: { type: 'string' } };
}

function resolve(official: Contract, value: Json): Json {
  const match = typeof value.$ref === 'string' ? COMPONENT_REF.exec(value.$ref) : null;
  return match ? (official.components[match[1]]?.[decodePointer(match[2])] ?? value) : value;
}

const decodePointer = (token: string) => token.replace(/~1/g, '/').replace(/~0/g, '~');

/** Every component the operations reference, followed transitively, so the document stands alone. */
function collectComponents(official: Contract, paths: unknown): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  const pending: unknown[] = [paths];
  while (pending.length > 0) {
    const value = pending.pop();
    if (Array.isArray(value)) {
      pending.push(...value);
    } else if (value && typeof value === 'object') {
      const ref = (value as Json).$ref;
      const match = typeof ref === 'string' ? COMPONENT_REF.exec(ref) : null;
      if (match) {
        const [, kind, encoded] = match;
        const name = decodePointer(encoded);
        const target = official.components[kind]?.[name];
        if (target && !out[kind]?.[name]) {
          const converted = toOpenApi31(target);
          (out[kind] ??= {})[name] = converted;
          pending.push(converted);
        }
      }
      for (const child of Object.values(value)) pending.push(child);
    }
  }
  return out;
}

/** OpenAPI 3.0's `nullable: true` becomes JSON Schema's `null` type, the one schema change 3.1 needs here. */
export function toOpenApi31(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toOpenApi31);
  if (!value || typeof value !== 'object') return value;
  const out: Json = {};
  for (const [key, child] of Object.entries(value)) out[key] = toOpenApi31(child);
  if (out.nullable !== true && out.nullable !== false) return out;
  const nullable = out.nullable === true;
  delete out.nullable;
  if (!nullable) return out;
  if (typeof out.type === 'string') {
    out.type = [out.type, 'null'];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    return out;
  }
  const { description, ...rest } = out;
  return { ...(description === undefined ? {} : { description }), anyOf: [rest, { type: 'null' }] };
}
