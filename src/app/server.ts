import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createServerAdapter } from '@whatwg-node/server';
import { DEFAULT_SERVER_TIMEOUTS, type ServerTimeouts } from '../config/config';
import type { App } from './app';

/**
 * Node checks the headers and request timeouts of open connections only every
 * `connectionsCheckingInterval` (30 s by default), so a slow client would hold its connection that
 * much longer: check every second, or as often as the headers timeout if it is shorter.
 */
const checkingInterval = (timeouts: ServerTimeouts) => Math.min(1_000, timeouts.headersMs);

/**
 * Serves the app over node:http. A client must send its headers within `timeouts.headersMs` and
 * its whole request within `timeouts.receiveMs`, or it gets 408 and its connection is closed; an
 * idle keep-alive connection is closed after `timeouts.keepAliveMs`. `stop` refuses new
 * connections, closes idle keep-alive ones, and lets in-flight requests finish (answered with
 * `Connection: close`); connections still busy after `graceMs` are cut.
 */
export function listen(
  app: App,
  port: number,
  host = '0.0.0.0',
  timeouts: ServerTimeouts = DEFAULT_SERVER_TIMEOUTS,
): Promise<{ server: Server; port: number; stop(graceMs?: number): Promise<void> }> {
  let draining = false;
  const adapter = createServerAdapter<{ req: IncomingMessage }>(async (request, { req }) => {
    const response = await app.fetch(request, { ip: req.socket.remoteAddress });
    if (draining) response.headers.set('Connection', 'close');
    return response;
  });
  const server = createServer(
    {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.receiveMs,
      keepAliveTimeout: timeouts.keepAliveMs,
      connectionsCheckingInterval: checkingInterval(timeouts),
    },
    adapter,
  );
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
