import { createRequire } from 'node:module';
import AjvModule from 'ajv';
import addFormatsModule from 'ajv-formats';

/*
 * The official contract (`@gitbook/api`'s OpenAPI 3.0 document) as JSON Schemas a validator
 * compiles: what the tests check every /v1 answer against, and what the server checks the few
 * inputs the platform defines only by schema (a site's customization) against.
 */

// Under Node ESM the default import of these CJS packages can be the module object itself.
const Ajv: typeof AjvModule = (AjvModule as unknown as { default?: typeof AjvModule }).default ?? AjvModule;
const addFormats: typeof addFormatsModule = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;

export type Schema = { [key: string]: unknown };

type SpecDocument = { components: { schemas: Record<string, Schema> } };
let document: SpecDocument | undefined;

/** The contract, read on first use: 1.1 MB of JSON that a server start does not need. */
export function specDocument(): SpecDocument {
  return (document ??= createRequire(import.meta.url)('@gitbook/api/spec/openapi.json') as SpecDocument);
}

export const DOCUMENT_ID = 'openapi';
export const COMPONENTS_REF = '#/components/';
const OPENAPI_ONLY_KEYWORDS = new Set(['nullable', 'discriminator', 'example', 'xml', 'externalDocs']);
const SCHEMA_LIST_KEYWORDS = new Set(['allOf', 'anyOf', 'oneOf']);
const SCHEMA_KEYWORDS = new Set(['items', 'not', 'additionalProperties']);

function mapValues<T, U>(record: Record<string, T>, fn: (value: T) => U): Record<string, U> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, fn(value)]));
}

/**
 * Converts an OpenAPI 3.0 schema object into JSON Schema (draft-07) that ajv understands.
 * Only schema positions are walked, so property *names* such as `example` or `x-foo` are kept.
 * Component refs become absolute (`openapi#/components/...`) so they resolve both inside the
 * registered spec document and from schemas compiled on their own.
 */
export function toJsonSchema(schema: unknown): unknown {
  // `additionalProperties: true/false` and similar boolean schemas pass through.
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return schema;
  const source = schema as Schema;

  const converted: Schema = {};
  for (const [key, value] of Object.entries(source)) {
    if (OPENAPI_ONLY_KEYWORDS.has(key) || key.startsWith('x-')) continue;
    if (key === 'properties') converted[key] = mapValues(value as Record<string, unknown>, toJsonSchema);
    else if (SCHEMA_LIST_KEYWORDS.has(key)) converted[key] = (value as unknown[]).map(toJsonSchema);
    else if (SCHEMA_KEYWORDS.has(key)) converted[key] = toJsonSchema(value);
    else if (key === '$ref' && typeof value === 'string' && value.startsWith(COMPONENTS_REF)) {
      converted[key] = DOCUMENT_ID + value;
    } else converted[key] = value;
  }

  let result = converted;
  // OpenAPI tolerates keywords beside `$ref` (`type`, `description`, ...); nest the ref so
  // those siblings are applied explicitly instead of depending on ajv's $ref-sibling handling.
  if (typeof converted.$ref === 'string' && Object.keys(converted).length > 1) {
    const { $ref, allOf, ...rest } = converted;
    result = { ...rest, allOf: [{ $ref }, ...((allOf as unknown[] | undefined) ?? [])] };
  }
  // Branching (rather than adding 'null' to `type`) also covers `$ref`/`oneOf`/`allOf` schemas
  // without a type, and `enum: [null]`, whose null would otherwise be rejected by `type: string`.
  if (source.nullable === true) result = { anyOf: [result, { type: 'null' }] };
  return result;
}

function collectFormats(node: unknown, formats: Set<string>): Set<string> {
  if (Array.isArray(node)) node.forEach((item) => collectFormats(item, formats));
  else if (typeof node === 'object' && node !== null) {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'format' && typeof value === 'string') formats.add(value);
      else collectFormats(value, formats);
    }
  }
  return formats;
}

/** An ajv holding every component schema of the contract, under `openapi#/components/schemas/...`. */
export function createSpecAjv(options: { allErrors?: boolean } = {}) {
  const ajv = new Ajv({ strict: false, allErrors: options.allErrors ?? true });
  addFormats(ajv);
  ajv.addFormat('emoji', { type: 'string', validate: () => true });
  ajv.addFormat('icon', { type: 'string', validate: () => true });
  // Any other vendor format must not make compilation fail; treat it as unconstrained.
  const spec = specDocument();
  for (const format of collectFormats(spec, new Set())) {
    if (!ajv.formats[format]) ajv.addFormat(format, true);
  }
  const schemas = mapValues(spec.components.schemas, toJsonSchema);
  // The contract's `PlainObject` (the `props` of ContentKit render requests and answers) has no
  // `type`, so any string matches it too, and a `oneOf` over (object | string | ...) then fails
  // for every string prop. The platform means an object: the one correction made to the contract.
  schemas.PlainObject = { ...(schemas.PlainObject as Schema), type: 'object' };
  // A page edit's `attributes` is `oneOf` document, group and link attributes, none of which
  // requires a field or forbids others: `{ title }` matches all three, so no answer passes `oneOf`.
  // The page's type says which one it is: any of them is meant.
  const edited = schemas.RevisionSemanticChangePageEdited as Schema & { properties: Record<string, Schema> };
  const { oneOf: shapes, ...attributes } = edited.properties.attributes as Schema & { oneOf: Schema[] };
  schemas.RevisionSemanticChangePageEdited = { ...edited, properties: { ...edited.properties, attributes: { ...attributes, anyOf: shapes } } };
  ajv.addSchema({ $id: DOCUMENT_ID, components: { schemas } });
  return ajv;
}


let shared: ReturnType<typeof createSpecAjv> | undefined;
let firstOnly: ReturnType<typeof createSpecAjv> | undefined;

/**
 * The errors of a value against one component schema of the contract; null when it is valid.
 * `firstError` stops at the first error: for input from outside (an integration's ContentKit tree,
 * a render request), where collecting every error of every `oneOf` branch costs about 6 ms per
 * element (a 5,000-element tree took 29 s; stopping at the first, 0.3 s).
 */
export function componentErrors(name: string, value: unknown, options: { firstError?: boolean } = {}): string[] | null {
  const ajv = options.firstError ? (firstOnly ??= createSpecAjv({ allErrors: false })) : (shared ??= createSpecAjv());
  const id = `${DOCUMENT_ID}${COMPONENTS_REF}schemas/${encodeURIComponent(name)}`;
  const validate = ajv.getSchema(id) ?? ajv.compile({ $ref: id });
  if (validate(value)) return null;
  return (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`);
}
