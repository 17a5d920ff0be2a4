import { RETRY_AFTER_SECONDS } from '../lib/unavailable';
import { errorResponse } from '../rest/errors';
import type { App, ClientInfo } from './app';

/**
 * The port is bound before the database is opened (so a busy port fails before migrations or the
 * demo seed run); until `ready` is given the app, requests get 503 with Retry-After.
 */
export function appWhenReady(): { app: App; ready(app: App): void } {
  let current: App | undefined;
  return {
    app: {
      fetch(request: Request, client?: ClientInfo): Promise<Response> {
        if (current) return current.fetch(request, client);
        const retry = { 'Retry-After': String(RETRY_AFTER_SECONDS) };
        return Promise.resolve(errorResponse(503, 'The server is starting; try again shortly', retry));
      },
    },
    ready: (app) => (current = app),
  };
}
