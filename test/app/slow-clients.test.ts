/**
 * Slow clients over real TCP (slowloris): a connection whose headers or body never finish, or that
 * sits idle after an answer, is closed after the server's timeouts, here shortened to a few hundred
 * milliseconds. Node's defaults would have held each of them 30 s or more (it checks only every
 * 30 s), so waiting up to 3 s for the close tells the two apart.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen } from '../../src/app/server';
import { loadConfig, serverTimeouts, type ServerTimeouts } from '../../src/config/config';
import { startTestApp, type TestApp } from '../support/clients';

const TIMEOUTS: ServerTimeouts = { headersMs: 300, receiveMs: 600, keepAliveMs: 300 };
/** Ten times the longest timeout, and far below what Node's defaults would take. */
const CLOSED_WITHIN_MS = 3_000;

let t: TestApp;
let server: Awaited<ReturnType<typeof listen>>;

beforeAll(async () => {
  t = await startTestApp();
  server = await listen(t.app, 0, '127.0.0.1', TIMEOUTS);
});
afterAll(async () => {
  await server?.stop(100);
  await t?.close();
});

interface Connection {
  socket: Socket;
  /** What the server sent, and how long after the connection opened it closed; null if it is still open after `waitMs`. */
  closed(waitMs: number): Promise<{ received: string; afterMs: number } | null>;
}

function open(): Promise<Connection> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1');
    const opened = performance.now();
    let received = '';
    let closedAt: number | null = null;
    const waiters: (() => void)[] = [];
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    // The server may reset the connection rather than end it: either way it is closed.
    socket.on('error', () => {});
    socket.on('close', () => {
      closedAt = performance.now();
      for (const wake of waiters) wake();
    });
    socket.once('connect', () =>
      resolve({
        socket,
        closed: (waitMs) =>
          new Promise((done) => {
            const answer = () => done(closedAt === null ? null : { received, afterMs: closedAt - opened });
            if (closedAt !== null) return answer();
            const timer = setTimeout(answer, waitMs);
            waiters.push(() => {
              clearTimeout(timer);
              answer();
            });
          }),
      }),
    );
    socket.once('error', reject);
  });
}

/** Writes `text` one character every `everyMs`, until the socket closes. */
function trickle(socket: Socket, text: string, everyMs: number): void {
  let at = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || at >= text.length) return clearInterval(timer);
    socket.write(text[at++]);
  }, everyMs);
}

describe('slow clients', () => {
  it('are cut off when they send a request line and then nothing', async () => {
    const conn = await open();
    conn.socket.write('GET /health HTTP/1.1\r\nHost: quire.test\r\n');
    const closed = await conn.closed(CLOSED_WITHIN_MS);
    expect(closed).not.toBeNull();
    expect(closed!.received).toMatch(/^HTTP\/1\.1 408 /);
    expect(closed!.afterMs).toBeGreaterThanOrEqual(TIMEOUTS.headersMs - 50);
  });

  it('are cut off when they open a connection and send nothing at all', async () => {
    const conn = await open();
    expect(await conn.closed(CLOSED_WITHIN_MS)).not.toBeNull();
  });

  it('are cut off when their headers keep trickling in, a byte at a time', async () => {
    const conn = await open();
    trickle(conn.socket, `GET /health HTTP/1.1\r\nHost: quire.test\r\nX-Slow: ${'a'.repeat(1_000)}`, 20);
    const closed = await conn.closed(CLOSED_WITHIN_MS);
    expect(closed?.received).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('are cut off when their body never finishes', async () => {
    const conn = await open();
    conn.socket.write('POST /graphql HTTP/1.1\r\nHost: quire.test\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"query":');
    trickle(conn.socket, ' '.repeat(900), 20);
    const closed = await conn.closed(CLOSED_WITHIN_MS);
    expect(closed?.received).toMatch(/^HTTP\/1\.1 408 /);
    expect(closed!.afterMs).toBeGreaterThanOrEqual(TIMEOUTS.receiveMs - 50);
  });

  it('are closed when idle after an answer, past the keep-alive timeout', async () => {
    const conn = await open();
    conn.socket.write('GET /health HTTP/1.1\r\nHost: quire.test\r\n\r\n');
    const closed = await conn.closed(CLOSED_WITHIN_MS);
    expect(closed?.received).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('still get their answer when they send at an ordinary pace', async () => {
    const conn = await open();
    const body = JSON.stringify({ query: '{ __typename }' });
    conn.socket.write(`POST /graphql HTTP/1.1\r\nHost: quire.test\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    conn.socket.write(body);
    const closed = await conn.closed(CLOSED_WITHIN_MS);
    expect(closed?.received).toMatch(/^HTTP\/1\.1 200 /);
    expect(closed?.received).toContain('"__typename":"Query"');
  });
});

describe('server timeout settings', () => {
  it('default to 10 s for headers, 60 s for the whole request and 5 s idle, and read the environment', () => {
    expect(serverTimeouts(loadConfig({}))).toEqual({ headersMs: 10_000, receiveMs: 60_000, keepAliveMs: 5_000 });
    expect(serverTimeouts(loadConfig({ HEADERS_TIMEOUT_MS: '2000', RECEIVE_TIMEOUT_MS: '30000', KEEP_ALIVE_TIMEOUT_MS: '65000' }))).toEqual({
      headersMs: 2_000,
      receiveMs: 30_000,
      keepAliveMs: 65_000,
    });
  });

  it('refuse what Node would refuse, in one line naming the variable', () => {
    expect(() => loadConfig({ HEADERS_TIMEOUT_MS: '0' })).toThrow(/HEADERS_TIMEOUT_MS must be above 0/);
    expect(() => loadConfig({ HEADERS_TIMEOUT_MS: '70000' })).toThrow('HEADERS_TIMEOUT_MS (70000) must not exceed RECEIVE_TIMEOUT_MS (60000)');
  });
});
