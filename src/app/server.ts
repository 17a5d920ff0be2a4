import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createServerAdapter } from '@whatwg-node/server';
import type { App } from './app';

/**
 * Serves the app over node:http. `stop` refuses new connections, closes idle keep-alive ones, and
 * lets in-flight requests finish (answered with `Connection: close`); connections still busy after
 * `graceMs` are cut.
 */
export function listen(app: App, port: number, host = '0.0.0.0'): Promise<{ server: Server; port: number; stop(graceMs?: number): Promise<void> }> {
  let draining = false;
  const adapter = createServerAdapter<{ req: IncomingMessage }>(async (request, { req }) => {
    const response = await app.fetch(request, { ip: req.socket.remoteAddress });
    if (draining) response.headers.set('Connection', 'close');
    return response;
  });
  const server = createServer(adapter);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address();
      const actual = typeof address === 'object' && address ? address.port : port;
      resolve({
        server,
        port: actual,
        stop: (graceMs = 2000) =>
          new Promise<void>((done) => {
            draining = true;
            server.close(() => done());
            server.closeIdleConnections();
            setTimeout(() => server.closeAllConnections(), graceMs).unref();
          }),
      });
    });
  });
}
