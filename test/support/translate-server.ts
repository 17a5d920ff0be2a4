import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the server received, its JSON body parsed. */
export interface TranslateRequest {
  q: string | string[];
  source: string;
  target: string;
  format?: string;
  api_key?: string;
}

/** How the server answers: translate, fail with a 500, answer something that is not JSON, or a list of the wrong length. */
export type TranslateMode = 'translate' | 'error' | 'not-json' | 'short';

/**
 * A local server speaking the LibreTranslate API (`POST /translate`). It "translates" each text by
 * upper-casing it and tagging it with the target language, `HELLO WORLD (fr)`, and keeps every
 * request it was sent, for tests to check what went out.
 */
export async function startTranslateServer() {
  const requests: TranslateRequest[] = [];
  const state = { mode: 'translate' as TranslateMode };
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      const send = (status: number, body: string, type = 'application/json') => {
        res.writeHead(status, { 'content-type': type });
        res.end(body);
      };
      if (req.method !== 'POST' || req.url !== '/translate') return send(404, JSON.stringify({ error: 'Not found' }));
      let body: TranslateRequest;
      try {
        body = JSON.parse(raw) as TranslateRequest;
      } catch {
        return send(400, JSON.stringify({ error: 'Invalid request: body is not JSON' }));
      }
      requests.push(body);
      if (state.mode === 'error') return send(500, JSON.stringify({ error: 'Translation engine crashed' }));
      if (state.mode === 'not-json') return send(200, '<html>oops</html>', 'text/html');
      const texts = Array.isArray(body.q) ? body.q : [body.q];
      const out = texts.map((text) => `${text.toUpperCase()} (${body.target})`);
      if (state.mode === 'short') out.pop();
      send(200, JSON.stringify({ translatedText: Array.isArray(body.q) ? out : out[0] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    requests,
    /** Every text sent, across requests. */
    texts: () => requests.flatMap((r) => (Array.isArray(r.q) ? r.q : [r.q])),
    setMode(mode: TranslateMode) {
      state.mode = mode;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type TranslateServer = Awaited<ReturnType<typeof startTranslateServer>>;
