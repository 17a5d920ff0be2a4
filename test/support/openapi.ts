/**
 * Validates /v1 REST responses against GitBook's published OpenAPI 3.0.3 spec
 * (`@gitbook/api/spec/openapi.json`), so tests catch drift from the legacy contract.
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import { COMPONENTS_REF, createSpecAjv, DOCUMENT_ID, specDocument, toJsonSchema, type Schema } from '../../src/lib/spec-schemas';

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);

interface ResponseObject {
  $ref?: string;
  description?: string;
  content?: Record<string, { schema?: Schema }>;
}

interface Operation {
  operationId?: string;
  responses: Record<string, ResponseObject>;
}

interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, Schema>;
    responses: Record<string, ResponseObject>;
  };
}

const spec = specDocument() as unknown as OpenApiDocument;

const MAX_BODY_CHARS = 2000;
const MAX_ERROR_LINES = 25;

let ajvInstance: ReturnType<typeof createSpecAjv> | undefined;
const validators = new Map<string, ValidateFunction>();

function getValidator(cacheKey: string, buildSchema: () => Schema): ValidateFunction {
  let validator = validators.get(cacheKey);
  if (!validator) {
    ajvInstance ??= createSpecAjv();
    validator = ajvInstance.compile(buildSchema());
    validators.set(cacheKey, validator);
  }
  return validator;
}

function componentValidator(name: string): ValidateFunction {
  if (!Object.hasOwn(spec.components.schemas, name)) {
    throw new Error(`OpenAPI spec has no component schema named "${name}"`);
  }
  return getValidator(`component:${name}`, () => ({
    $ref: `${DOCUMENT_ID}${COMPONENTS_REF}schemas/${encodeURIComponent(name)}`,
  }));
}

function truncatedJson(body: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(body) ?? String(body);
  } catch {
    text = String(body);
  }
  return text.length > MAX_BODY_CHARS ? `${text.slice(0, MAX_BODY_CHARS)}… (${text.length} chars)` : text;
}

function formatErrors(errors: ErrorObject[] | null | undefined): string {
  const lines = (errors ?? []).map((error) => {
    const where = error.instancePath || '(root)';
    const params = error.keyword === 'required' || error.keyword === 'type' ? '' : ` ${JSON.stringify(error.params)}`;
    return `  ${where} ${error.message}${params}  [${error.schemaPath}]`;
  });
  if (lines.length > MAX_ERROR_LINES) {
    lines.splice(MAX_ERROR_LINES, Infinity, `  … ${lines.length - MAX_ERROR_LINES} more errors`);
  }
  return lines.join('\n');
}

function assertValid(validator: ValidateFunction, body: unknown, label: string): void {
  if (validator(body)) return;
  throw new Error(
    `${label} does not match the OpenAPI spec:\n${formatErrors(validator.errors)}\nbody: ${truncatedJson(body)}`,
  );
}

/** Turns `/v1/orgs/abc?x=1` (or a full URL) into spec path segments: `['orgs', 'abc']`. */
function toSpecSegments(requestPath: string): string[] {
  let path = requestPath.split(/[?#]/, 1)[0];
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path)) path = new URL(path).pathname;
  if (path === '/v1' || path.startsWith('/v1/')) path = path.slice('/v1'.length);
  path = path.replace(/\/+$/, '') || '/';
  return path.split('/').slice(1);
}

const routes = Object.entries(spec.paths).map(([template, item]) => ({
  template,
  segments: template.split('/').slice(1),
  item,
}));

const isParam = (segment: string) => segment.startsWith('{') && segment.endsWith('}');

/**
 * Ranks how specifically a template matches; higher compares greater element-wise, so a
 * literal segment beats a `{param}` at the first position where two templates differ.
 * A trailing param may also swallow several segments (page paths like `a/b/c`), ranked
 * below every exact-length match.
 */
function matchRank(template: string[], request: string[]): number[] | undefined {
  const greedy = request.length > template.length && template.length > 0 && isParam(template[template.length - 1]);
  if (request.length !== template.length && !greedy) return undefined;

  const rank = [greedy ? 0 : 1];
  for (let i = 0; i < template.length; i++) {
    const segment = request[i];
    if (isParam(template[i]) && segment !== '') rank.push(1);
    else if (template[i] === segment) rank.push(2);
    else return undefined;
  }
  return rank;
}

function compareRanks(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const diff = (a[i] ?? 0) - (b[i] ?? 0);
    if (diff !== 0) return diff;
  }
  return 0;
}

function findOperation(method: string, path: string): { template: string; operation: Operation } {
  const verb = method.toLowerCase();
  const request = toSpecSegments(path);
  const matches = routes
    .map((route) => ({ route, rank: matchRank(route.segments, request) }))
    .filter((match): match is { route: (typeof routes)[number]; rank: number[] } => match.rank !== undefined);

  const withMethod = matches.filter(({ route }) => route.item[verb] !== undefined);
  if (withMethod.length === 0) {
    if (matches.length === 0) throw new Error(`No OpenAPI path template matches ${method} ${path}`);
    const available = matches.map(({ route }) => {
      const verbs = Object.keys(route.item).filter((key) => HTTP_METHODS.has(key));
      return `${route.template} (${verbs.join(', ').toUpperCase()})`;
    });
    throw new Error(`No ${method.toUpperCase()} operation in the OpenAPI spec for ${path}; matching templates: ${available.join('; ')}`);
  }

  const best = withMethod.reduce((a, b) => (compareRanks(b.rank, a.rank) > 0 ? b : a));
  return { template: best.route.template, operation: best.route.item[verb] };
}

function resolveResponse(response: ResponseObject): ResponseObject {
  if (!response.$ref) return response;
  if (!response.$ref.startsWith(`${COMPONENTS_REF}responses/`)) {
    throw new Error(`Unsupported response $ref ${response.$ref}`);
  }
  const name = response.$ref.slice(`${COMPONENTS_REF}responses/`.length);
  const resolved = spec.components.responses[name];
  if (!resolved) throw new Error(`Response $ref ${response.$ref} does not exist in the OpenAPI spec`);
  return resolveResponse(resolved);
}

function jsonSchemaOf(response: ResponseObject): Schema | undefined {
  const content = response.content ?? {};
  const mediaType = content['application/json'] ?? Object.entries(content).find(([type]) => /[/+]json\b/.test(type))?.[1];
  return mediaType?.schema;
}

const isEmptyBody = (body: unknown) => body === undefined || body === null || body === '';

/**
 * Asserts that `body`, returned with `status` for `method path` (e.g. `GET /v1/orgs/abc?x=1`),
 * matches the spec. 4xx/5xx bodies must always match `#/components/schemas/Error` as well as
 * whatever the operation declares. Throws a descriptive Error on mismatch.
 */
export function validateResponse(method: string, path: string, status: number, body: unknown): void {
  const { template, operation } = findOperation(method, path);
  const operationName = operation.operationId ?? `${method.toUpperCase()} ${template}`;
  const label = `${operationName} (${method.toUpperCase()} ${template}) ${status}`;

  // The API document wins over the spec where they differ: operations the spec answers 205 answer 204 here.
  const declared = operation.responses[String(status)] ?? (status === 204 ? operation.responses['205'] : undefined) ?? operation.responses.default;
  const response = declared && resolveResponse(declared);
  const isError = status >= 400;

  if (isError) assertValid(componentValidator('Error'), body, `${label} error body`);

  if (!response) {
    if (isError) return;
    const known = Object.keys(operation.responses).join(', ');
    throw new Error(`${label}: status ${status} is not declared for this operation (declared: ${known})`);
  }

  if (!response.content) {
    if (!isError && !isEmptyBody(body)) {
      throw new Error(`${label}: the spec declares no content, but got body: ${truncatedJson(body)}`);
    }
    return;
  }

  // Non-JSON responses (text/event-stream) have nothing ajv can check.
  const schema = jsonSchemaOf(response);
  if (!schema) return;
  const statusKey = operation.responses[String(status)] ? String(status) : 'default';
  const validator = getValidator(`response:${method.toLowerCase()} ${template} ${statusKey}`, () => toJsonSchema(schema) as Schema);
  assertValid(validator, body, label);
}

/** Asserts that `body` matches a named component schema, e.g. `validateSchema('Organization', org)`. */
export function validateSchema(ref: string, body: unknown): void {
  const name = ref.replace(/^#\/components\/schemas\//, '');
  assertValid(componentValidator(name), body, `Schema ${name}`);
}

/**
 * Asserts that `body` matches a schema of a later release of the platform's spec than the vendored
 * one (a route the platform's renderer calls that 0.137.0 does not list yet), copied with its
 * `$ref`s into components the vendored spec already has.
 */
export function validateLaterSchema(name: string, schema: Schema, body: unknown): void {
  assertValid(getValidator(`later:${name}`, () => toJsonSchema(schema) as Schema), body, `Schema ${name} (@gitbook/api later than the vendored spec)`);
}
