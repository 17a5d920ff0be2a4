import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { encode, acceptedEncoding, type Encoding } from './compress';
import { pagePolicy } from '../lib/page-policy';

/**
 * GraphiQL as a small page and separate assets. Yoga's renderer inlines 9 MB of script into every
 * page; here the script, styles and editor workers are files named by their content's hash, so a
 * browser fetches them once and keeps them (immutable), compressed once per encoding. No inline
 * script runs, which lets the page's CSP forbid them.
 */
export const GRAPHIQL_ASSETS_PATH = '/graphql/assets/';

/** Shown in the query editor on first open: the README's example, and how to sign in for it. */
export const GRAPHIQL_DEFAULT_QUERY = `# The schema and its docs load without a token. To run this query as yourself, put your API token
# in the Headers pane below:
#   { "Authorization": "Bearer <your token>" }
{
  viewer {
    user { displayName }
    organizations {
      edges {
        node {
          title
          members { totalCount }
          spaces { edges { node { title parent { title } viewerCanEdit } } }
        }
      }
    }
  }
}
`;

const GRAPHIQL_CSP = pagePolicy({ defaultSrc: "'self'", inlineStyles: true, fonts: true, workers: true });

interface Asset {
  name: string;
  type: string;
  bytes: Buffer;
  etag: string;
  encoded: Map<Encoding, Promise<Buffer>>;
}

// Sets the editor's worker URLs before GraphiQL's bundle runs, as the bundle expects.
const SETUP = `const options = JSON.parse(document.getElementById('graphiql-options').textContent);
self.MonacoEnvironment = { globalAPI: false, getWorkerUrl: (moduleId, label) => options.workers[label] };
`;
const START = `YogaGraphiQL.renderYogaGraphiQL(document.querySelector('#root'), options.graphiql);
`;

let bundle: { assets: Map<string, Asset>; urls: Record<string, string> } | undefined;

const TYPES: Record<string, string> = { css: 'text/css; charset=utf-8', js: 'text/javascript; charset=utf-8', ico: 'image/x-icon' };

function asset(base: string, ext: string, content: string | Buffer): Asset {
  const bytes = Buffer.from(content);
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
  const type = TYPES[ext];
  return { name: `${base}.${hash}.${ext}`, type, bytes, etag: `"${hash}"`, encoded: new Map() };
}

/** Loaded on first use: the bundle is 9 MB, and a server with GraphiQL off never reads it. */
function loadBundle() {
  if (bundle) return bundle;
  // The package exports only its renderer; its assets sit beside it.
  const require = createRequire(import.meta.url);
  const parts = require(join(dirname(require.resolve('@graphql-yoga/render-graphiql')), 'graphiql.js')) as Record<string, string>;
  const list = {
    css: asset('graphiql', 'css', parts.css),
    setup: asset('setup', 'js', SETUP),
    js: asset('graphiql', 'js', parts.js),
    start: asset('start', 'js', START),
    editorWorkerService: asset('editor-worker', 'js', parts.editorWorkerService),
    json: asset('json-worker', 'js', parts.jsonWorker),
    graphql: asset('graphql-worker', 'js', parts.graphqlWorker),
    // A 150 KB data URL in the package: as a file, the page stays small.
    favicon: asset('favicon', 'ico', Buffer.from(parts.favicon.slice(parts.favicon.indexOf(',') + 1), 'base64')),
  };
  const urls = Object.fromEntries(Object.entries(list).map(([key, a]) => [key, GRAPHIQL_ASSETS_PATH + a.name]));
  bundle = { assets: new Map(Object.values(list).map((a) => [a.name, a])), urls };
  return bundle;
}

/** For a browser's GET: GraphiQL is what it gets at the endpoint, as yoga decides. */
export function wantsGraphiQL(request: Request): boolean {
  return request.method === 'GET' && !!request.headers.get('accept')?.includes('text/html');
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function graphiqlPage(options: { title: string; endpoint: string }): Response {
  const { urls } = loadBundle();
  const config = {
    workers: { editorWorkerService: urls.editorWorkerService, json: urls.json, graphql: urls.graphql },
    graphiql: {
      title: options.title,
      endpoint: options.endpoint,
      defaultQuery: GRAPHIQL_DEFAULT_QUERY,
      // Empty, so the schema loads anonymously; a placeholder token would be refused with 401.
      headers: '{}',
    },
  };
  // In a script element only "</" could end it early; the escape keeps the JSON the same.
  const json = JSON.stringify(config).replace(/</g, '\\u003c');
  const html = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>${escapeHtml(options.title)}</title>
    <link rel="icon" href="${urls.favicon}" />
    <link rel="stylesheet" href="${urls.css}" />
  </head>
  <body id="body" class="no-focus-outline">
    <noscript>You need to enable JavaScript to run GraphiQL.</noscript>
    <div id="root"></div>
    <script type="application/json" id="graphiql-options">${json}</script>
    <script src="${urls.setup}"></script>
    <script src="${urls.js}"></script>
    <script src="${urls.start}"></script>
  </body>
</html>
`;
  return new Response(html, {
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-cache', 'Content-Security-Policy': GRAPHIQL_CSP },
  });
}

/** One of the page's assets: cached for a year (its name changes with its content), 304 on revalidation. */
export async function graphiqlAsset(request: Request, pathname: string): Promise<Response | null> {
  const found = loadBundle().assets.get(pathname.slice(GRAPHIQL_ASSETS_PATH.length));
  if (!found || (request.method !== 'GET' && request.method !== 'HEAD')) return null;
  const headers = new Headers({
    'Content-Type': found.type,
    'Cache-Control': 'public, max-age=31536000, immutable',
    ETag: found.etag,
    Vary: 'Accept-Encoding',
  });
  if (request.headers.get('if-none-match') === found.etag) return new Response(null, { status: 304, headers });
  const encoding = found.type.startsWith('text/') ? acceptedEncoding(request.headers.get('accept-encoding')) : null;
  let body: Buffer = found.bytes;
  if (encoding) {
    let encoded = found.encoded.get(encoding);
    if (!encoded) found.encoded.set(encoding, (encoded = encode(found.bytes, encoding, 'best')));
    body = await encoded;
    headers.set('Content-Encoding', encoding);
  }
  headers.set('Content-Length', String(body.byteLength));
  return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), { headers });
}
