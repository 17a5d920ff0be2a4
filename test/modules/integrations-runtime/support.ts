import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { build, type BuildOptions } from 'esbuild';

/*
 * Test support of the integration runtime: fixture integrations bundled as `gitbook publish`
 * bundles them, a local HTTP server standing in for Quire's API (it records what arrives), and
 * events and environments in the spec's shapes.
 */

const FIXTURES = resolve(import.meta.dirname, '../../fixtures/integrations');

/** The esbuild settings of the official CLI's `buildScriptFromManifest` (@gitbook/cli 0.25.1). */
function cliBuildOptions(entry: string, mode: 'production' | 'development'): BuildOptions {
  return {
    platform: 'neutral',
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    target: 'es2020',
    minify: mode === 'production',
    sourcemap: mode === 'development',
    write: false,
    outfile: 'script.js',
    mainFields: ['worker', 'browser', 'module', 'jsnext', 'main'],
    conditions: ['worker', 'browser', 'import', 'production'],
    define: { 'process.env.NODE_ENV': JSON.stringify(mode), MODE: JSON.stringify(mode) },
    external: ['node:*', 'cloudflare:*'],
    jsx: 'automatic',
    jsxImportSource: '@gitbook/runtime',
    loader: { '.raw.js': 'text', '.raw.css': 'text' },
    logLevel: 'silent',
  };
}

/** The ES module bundle of `test/fixtures/integrations/<name>/src/index.js` (or another entry of that folder). */
export async function bundleFixture(name: string, mode: 'production' | 'development' = 'production', entry = 'index.js'): Promise<string> {
  const result = await build(cliBuildOptions(resolve(FIXTURES, name, 'src', entry), mode));
  return result.outputFiles!.find((f) => f.path.endsWith('.js'))!.text;
}

export interface RecordedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface LocalServer {
  url: string;
  port: number;
  requests: RecordedRequest[];
  /** Resolves with the first recorded request matching, already arrived or to come. */
  waitFor(match: (r: RecordedRequest) => boolean): Promise<RecordedRequest>;
  close(): Promise<void>;
}

/** An HTTP server on 127.0.0.1 that records every request and answers with `handler`. */
export async function startLocalServer(handler: (r: RecordedRequest) => Promise<{ status: number; headers?: Record<string, string>; body?: string | Buffer }> | { status: number; headers?: Record<string, string>; body?: string | Buffer }): Promise<LocalServer> {
  const requests: RecordedRequest[] = [];
  const waiters: { match: (r: RecordedRequest) => boolean; resolve: (r: RecordedRequest) => void }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const recorded = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) };
      requests.push(recorded);
      for (const waiter of waiters.filter((w) => w.match(recorded))) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(recorded);
      }
      void Promise.resolve(handler(recorded)).then(
        (answer) => {
          res.writeHead(answer.status, answer.headers ?? {});
          res.end(answer.body ?? '');
        },
        (error: Error) => {
          res.writeHead(500);
          res.end(error.message);
        },
      );
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    waitFor: (match) => {
      const found = requests.find(match);
      return found ? Promise.resolve(found) : new Promise((resolve) => waiters.push({ match, resolve }));
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A stand-in for Quire's API answering `GET /v1/spaces/{id}` with a space titled `title`. */
export function startApiStandIn(title: string) {
  return startLocalServer((r) => {
    const match = /^\/v1\/spaces\/([^/?]+)/.exec(r.url);
    if (r.method === 'GET' && match) return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ object: 'space', id: match[1], title }) };
    return { status: 404, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error: { code: 404, message: 'not found' } }) };
  });
}

export const INSTALLATION_TOKEN = 'gb_installation_token_for_tests';
export const INTEGRATION_TOKEN = 'gb_integration_token_for_tests';

/** A spec `IntegrationEnvironment` for `name`, calling the API at `apiEndpoint`. */
export function environment(name: string, apiEndpoint: string, secrets: Record<string, string> = {}) {
  return {
    apiEndpoint,
    apiTokens: { installation: INSTALLATION_TOKEN, integration: INTEGRATION_TOKEN },
    integration: { object: 'integration', name, title: name, version: 1, scopes: ['space:content:read'] },
    installation: { object: 'integration-installation', id: 'inst_1', target: { organization: 'org_1' }, configuration: {} },
    spaceInstallation: { integration: name, installation: 'inst_1', space: 'space_1', configuration: {} },
    secrets,
    signingSecrets: { integration: 'integration-signing-secret' },
  };
}

let counter = 0;
export function spaceContentUpdated(spaceId = 'space_1') {
  return { eventId: `evt_${++counter}`, type: 'space_content_updated', spaceId, revisionId: `rev_${counter}`, installationId: 'inst_1' };
}

export function spaceEvent(type: 'space_view' | 'space_visibility_updated', spaceId = 'space_1') {
  return { eventId: `evt_${++counter}`, type, spaceId, installationId: 'inst_1', ...(type === 'space_visibility_updated' ? { previousVisibility: 'private', visibility: 'public' } : { visitor: {}, url: 'https://example.com' }) };
}

export function uiRender(componentId: string, props: Record<string, unknown>) {
  return { eventId: `evt_${++counter}`, type: 'ui_render', installationId: 'inst_1', spaceId: 'space_1', componentId, props, context: { type: 'document', spaceId: 'space_1', editable: true, theme: 'light' } };
}
