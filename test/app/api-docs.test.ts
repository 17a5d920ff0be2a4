import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv2020Module from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRestRouter } from '../../src/app/routes';
import { openApiPath } from '../../src/rest/openapi';
import { startTestApp, TEST_ORIGIN, type TestApp } from '../support/clients';

// Under Node ESM the default import of this CJS module can be the module object itself.
const Ajv2020: typeof Ajv2020Module = (Ajv2020Module as any).default ?? Ajv2020Module;

let t: TestApp;
let document: any;

beforeAll(async () => {
  t = await startTestApp();
  const response = await t.app.fetch(new Request(`${TEST_ORIGIN}/v1/openapi.json`));
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  document = await response.json();
});
afterAll(async () => {
  await t?.close();
});

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

describe('/v1/openapi.json', () => {
  it('lists exactly the operations the router serves, without a token', () => {
    const documented = Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
      Object.keys(item).filter((key) => HTTP_METHODS.includes(key)).map((method) => `${method.toUpperCase()} /v1${path}`),
    );
    const routed = createRestRouter().table().map((route) => `${route.method} /v1${openApiPath(route.path)}`);
    expect(routed.length).toBeGreaterThan(50);
    expect(documented.sort()).toEqual([...new Set(routed)].sort());
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(document.openapi).toBe('3.1.0');
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('stands alone: every $ref points inside it, and every schema is valid JSON Schema 2020-12', () => {
    const refs = new Set<string>();
    const walk = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(walk);
      else if (value && typeof value === 'object') {
        const ref = (value as { $ref?: unknown }).$ref;
        if (typeof ref === 'string') refs.add(ref);
        Object.values(value).forEach(walk);
      }
    };
    walk(document);
    expect(refs.size).toBeGreaterThan(20);
    for (const ref of refs) {
      expect(ref, ref).toMatch(/^#\/components\//);
      const [, , kind, name] = ref.split('/');
      expect(document.components[kind]?.[name.replace(/~1/g, '/').replace(/~0/g, '~')], ref).toBeDefined();
    }
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    ajv.addSchema({ $id: 'doc', components: document.components }, 'doc');
    for (const name of Object.keys(document.components.schemas)) {
      expect(() => ajv.getSchema(`doc#/components/schemas/${name}`), name).not.toThrow();
    }
    expect(JSON.stringify(document)).not.toContain('"nullable"');
  });

  it('names the type of every schema that has one, as the reference page\'s reader requires', () => {
    const schemas = document.components.schemas as Record<string, any>;
    // Left untyped by the contract: a union of a number and an object, an enum of strings, an object by its properties.
    expect(schemas.Length.type).toEqual(['number', 'object']);
    expect(schemas.OpenAPISpecProcessingState.type).toBe('string');
    expect(schemas.PlainObject.type).toBe('object');
    expect(Object.keys(schemas).filter((name) => schemas[name].type === undefined)).toEqual([]);
  });

  it('describes operations the way the official contract does', () => {
    const space = document.paths['/spaces/{spaceId}'];
    expect(space.get.operationId).toBe('getSpaceById');
    expect(space.get.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Space' });
    expect(document.components.schemas.Space).toBeDefined();
    const members = document.paths['/orgs/{organizationId}/members'].get;
    const names = members.parameters.map((p: any) => (p.$ref ? document.components.parameters[p.$ref.split('/').pop()].name : p.name));
    expect(names).toEqual(expect.arrayContaining(['organizationId', 'page', 'limit', 'role']));
    expect(document.paths['/spaces/{spaceId}/content/path/{pagePath}'].get.parameters.some((p: any) => p.name === 'pagePath' && p.in === 'path')).toBe(true);
  });
});

describe('/v1/docs', () => {
  it('is an HTML page that loads only assets served by Quire, under its own policy', async () => {
    const response = await t.app.fetch(new Request(`${TEST_ORIGIN}/v1/docs`));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = response.headers.get('content-security-policy')!.split('; ');
    expect(csp).toEqual(expect.arrayContaining(["script-src 'self'", "connect-src 'self'", "frame-ancestors 'none'", "base-uri 'none'", "form-action 'none'"]));
    expect(csp.join(' ')).not.toMatch(/https?:|\*/);
    const html = await response.text();
    const urls = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(urls).toEqual(['data:,', '/v1/docs/scalar.js', '/v1/docs/start.js']);
    expect(html).not.toMatch(/https?:\/\//);
    // No inline script: the only <script> without src holds JSON, which the browser does not run.
    expect([...html.matchAll(/<script(?![^>]*\ssrc=)([^>]*)>/g)].map((m) => m[1])).toEqual([' type="application/json" id="docs-options"']);
    const options = JSON.parse(html.match(/<script type="application\/json" id="docs-options">([^<]*)<\/script>/)![1]);
    expect(options).toMatchObject({ url: '/v1/openapi.json', withDefaultFonts: false, telemetry: false, showDeveloperTools: 'never' });
    const start = await t.app.fetch(new Request(`${TEST_ORIGIN}/v1/docs/start.js`));
    expect(start.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(await start.text()).toContain("document.getElementById('docs-options')");
  });

  it('serves Scalar\'s script with cache headers, and 304 when unchanged', async () => {
    const response = await t.app.fetch(new Request(`${TEST_ORIGIN}/v1/docs/scalar.js`));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(response.headers.get('cache-control')).toBe('public, max-age=86400');
    const body = await response.text();
    expect(body).toContain('createApiReference');
    expect(body).not.toContain('sourceMappingURL=standalone');
    const etag = response.headers.get('etag')!;
    const again = await t.app.fetch(new Request(`${TEST_ORIGIN}/v1/docs/scalar.js`, { headers: { 'if-none-match': etag } }));
    expect(again.status).toBe(304);
  });

  it('refuses a write with 405 in the platform\'s error shape', async () => {
    const response = await t.app.fetch(new Request(`${TEST_ORIGIN}/v1/openapi.json`, { method: 'POST', body: '{}' }));
    expect(response.status).toBe(405);
    expect(await response.json()).toEqual({ error: { code: 405, message: 'Method POST is not allowed on /v1/openapi.json' } });
  });
});

describe('route metadata', () => {
  it('shows a route\'s own zod body schema as its request body', () => {
    const create = document.paths['/orgs/{organizationId}/spaces'].post;
    expect(create.operationId).toBe('createSpace');
    const schema = create.requestBody.content['application/json'].schema;
    expect(schema.type).toBe('object');
    expect(schema.properties.title).toMatchObject({ type: 'string', maxLength: 50 });
    expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(['title', 'parent', 'emoji']));
  });
});
