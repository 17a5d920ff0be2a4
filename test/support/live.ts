import { createApp, type App } from '../../src/app/app';
import { startSessionCache } from '../../src/auth/sessions';
import { openDatabase, type Database } from '../../src/db/client';
import { NotificationHub } from '../../src/db/notification-hub';
import { TEST_ORIGIN, type TestApp } from './clients';

/** Another instance of the app over the same database, as another process would be. */
export interface SecondInstance {
  app: App;
  hub: NotificationHub;
  stop(): Promise<void>;
}

/**
 * On PostgreSQL the second instance has its own pool and its own LISTEN, as another process
 * would; PGlite has one connection, which both instances share.
 */
export async function secondInstance(t: TestApp): Promise<SecondInstance> {
  const database: Database = t.database.url ? await openDatabase({ url: t.database.url }) : t.database;
  const sessions = await startSessionCache(database);
  const hub = new NotificationHub(database.listen);
  return {
    app: createApp({ db: database.db, config: t.config, sessions: sessions.sessions, notifications: hub }),
    hub,
    stop: async () => {
      await sessions.stop();
      if (database !== t.database) await database.close();
    },
  };
}

export interface Subscription {
  status: number;
  /** The next event's payload, or null once the stream ended. */
  next(): Promise<any>;
  /** What a client that goes away does: its end of the stream is cancelled. */
  close(): Promise<void>;
}

/** Opens a GraphQL subscription over server-sent events, as a browser would. */
export async function subscribe(app: App, token: string | null, query: string, variables: Record<string, unknown>): Promise<Subscription> {
  const response = await app.fetch(
    new Request(`${TEST_ORIGIN}/graphql`, {
      method: 'POST',
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query, variables }),
    }),
  );
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  return {
    status: response.status,
    next: eventReader(reader),
    close: async () => {
      await reader.cancel();
    },
  };
}

/**
 * Reads a stream of server-sent events from a GraphQL subscription: each call answers the next
 * event's payload, or null once the server completed or closed the stream.
 */
export function eventReader(reader: ReadableStreamDefaultReader<string>): () => Promise<any> {
  let buffer = '';
  return async () => {
    for (;;) {
      const end = buffer.indexOf('\n\n');
      if (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (/^event: complete/m.test(block)) return null;
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (data) return JSON.parse(data);
        continue;
      }
      const { value, done } = await reader.read();
      if (done) return null;
      buffer += value;
    }
  };
}

/** Waits until exactly `count` subscribers of `channel` listen on the hub. */
export async function listening(hub: NotificationHub, channel: string, count: number): Promise<void> {
  while ((await hub.subscribers(channel)) !== count) await new Promise((resolve) => setImmediate(resolve));
}
