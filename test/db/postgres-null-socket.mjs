// Replays, without a database, the postgres.js 3.4.9 defects that patches/postgres+3.4.9.patch
// fixes, on one build of the package: `node postgres-null-socket.mjs esm|cjs`. Run in a child
// process by postgres-patch.test.ts, because unpatched the first one kills the process.
//
// The connection runs on a fake socket (postgres.js' `socket` option) that answers the startup and
// simple queries itself, and that the script "closes" at chosen moments by emitting `close`, as
// net.Socket does when the server goes away.
//
// 1. "null socket": a reserved connection loses its socket, then runs a query. Its write is flushed
//    from a setImmediate onto the null socket: uncaught TypeError (porsager/postgres#1208).
// 2. "release after close": releasing that reserved connection files it as open, socket or not:
//    every later query handed to it fails (or, unpatched, crashes as in 1).
// 3. "stale write timer": the socket closes while a write is buffered for the next tick. The timer
//    is cleared but not forgotten, so the reconnected connection never flushes its startup message
//    and every later query waits until connect_timeout.
// 4. "types fetch cut off": the connection dies during the array-types query every new connection
//    runs first, and reconnecting fails: that internal query's rejection goes unhandled, which
//    ends the process (porsager/postgres#1192, #1223).
// 5. "stale error replay": the server ends a session with an error (57P01 on shutdown) during a
//    query; the error is kept and the reconnected session's first query is rejected with it.
// 6. "refused while starting": after a session died during a query, the server refuses new sessions
//    (57P03, starting up). The dead query, still set, makes the driver take each refusal for its
//    error and reconnect silently, again and again: the waiting query hangs instead of failing.
// Prints one JSON line, a result per scenario; exits 0 when all behave.
import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';

const flavour = process.argv[2];
const postgres =
  flavour === 'cjs' ? createRequire(import.meta.url)('postgres') : flavour === 'esm' ? (await import('postgres')).default : null;
if (!postgres) throw new Error('usage: postgres-null-socket.mjs esm|cjs');

const message = (type, body) => {
  const head = Buffer.alloc(5);
  head.write(type, 0, 'latin1');
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
};
const int32 = (n) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
};
const AUTH_OK = message('R', int32(0));
const READY = message('Z', Buffer.from('I'));
const SELECT_DONE = message('C', Buffer.from('SELECT 0\0'));
const STARTING_UP_ERROR = message('E', Buffer.from('SFATAL\0C57P03\0Mthe database system is starting up\0\0'));
const SHUTDOWN_ERROR = message('E', Buffer.from('SFATAL\0C57P01\0Mterminating connection due to administrator command\0\0'));

/** Speaks just enough of the protocol: trust auth, then simple queries answering no rows. */
class FakeSocket extends EventEmitter {
  readyState = 'open';
  started = false;
  startups = 0;
  write(buffer, callback) {
    let rest = Buffer.from(buffer);
    while (rest.length) {
      if (!this.started) {
        const length = rest.readInt32BE(0);
        rest = rest.subarray(length);
        this.started = true;
        this.startups += 1;
        this.reply(AUTH_OK, READY);
        continue;
      }
      const type = String.fromCharCode(rest[0]);
      const length = rest.readInt32BE(1);
      rest = rest.subarray(length + 1);
      if (type === 'Q') this.reply(SELECT_DONE, READY);
    }
    callback?.();
    return true;
  }
  reply(...messages) {
    setImmediate(() => this.readyState === 'open' && this.emit('data', Buffer.concat(messages)));
  }
  /** What net.Socket does when the peer goes away. */
  drop() {
    this.readyState = 'closed';
    this.emit('close', false);
  }
  end() {}
  destroy() {
    if (this.readyState === 'open') this.drop();
  }
}

/** A pool of one connection on fake sockets; `sockets` lists every socket it opened. */
function pool() {
  const sockets = [];
  const sql = postgres({
    socket: () => {
      const socket = new FakeSocket();
      sockets.push(socket);
      return socket;
    },
    max: 1,
    fetch_types: false,
    connect_timeout: 2,
    backoff: 0.01,
    onnotice: () => {},
  });
  return { sql, sockets };
}
const tick = () => new Promise((resolve) => process.nextTick(resolve));
const outcome = (promise) =>
  promise.then(
    () => 'resolved',
    (error) => `rejected ${error.code ?? error.message}`,
  );
const results = {};

{
  // 1. A query on a reserved connection whose socket is gone. (The connection is opened by a query
  //    first: with fetch_types off, a reserve() that opens the connection itself never resolves.)
  const { sql, sockets } = pool();
  await sql.unsafe('select 0').simple();
  const reserved = await sql.reserve();
  await reserved.unsafe('select 1').simple();
  sockets.at(-1).drop();
  const query = await outcome(reserved.unsafe('select 2').simple());
  // One more turn of the event loop: unpatched, the TypeError is thrown from the setImmediate here.
  await new Promise((resolve) => setTimeout(resolve, 50));
  results.nullSocket = { query, ok: query === 'rejected CONNECTION_CLOSED' };

  // 2. Releasing that reserved connection must not file it as open: the next queries have to
  //    reconnect, not be handed to a connection without a socket.
  reserved.release();
  const queries = [await outcome(sql.unsafe('select 3').simple()), await outcome(sql.unsafe('select 3').simple())];
  results.releaseAfterClose = { queries, ok: queries.every((o) => o === 'resolved') };
  await sql.end({ timeout: 0 });
}

{
  // 3. The socket closes while a write waits for the next tick.
  const { sql, sockets } = pool();
  await sql.unsafe('select 3').simple();
  const pending = sql.unsafe('select 4').simple().execute();
  await tick(); // the query is written into the buffer, its flush scheduled for the next tick
  sockets.at(-1).drop();
  const cutOff = await outcome(pending);
  const started = Date.now();
  const next = await outcome(sql.unsafe('select 5').simple());
  const ms = Date.now() - started;
  results.staleWriteTimer = { cutOff, next, ms, ok: next === 'resolved' && ms < 1000 };
  await sql.end({ timeout: 0 });
}

{
  // 4. The connection dies while it fetches array types (fetch_types, first query of every new
  //    connection), and connecting again fails. The caller's query must get the error; unpatched,
  //    the internal types query's rejection is also left unhandled, which ends a process.
  const unhandled = [];
  const onUnhandled = (error) => unhandled.push(error.code ?? error.message);
  process.on('unhandledRejection', onUnhandled);
  let opened = 0;
  const sql = postgres({
    socket: () => {
      opened += 1;
      if (opened > 1) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
      const socket = new FakeSocket();
      const write = socket.write.bind(socket);
      // The types query is the first one in the extended protocol (Parse): the server goes away.
      socket.write = (buffer, callback) => (socket.started && buffer[0] === 0x50 ? (socket.drop(), true) : write(buffer, callback));
      return socket;
    },
    max: 1,
    connect_timeout: 2,
    backoff: 0.01,
    onnotice: () => {},
  });
  const query = await outcome(sql.unsafe('select 6').simple());
  await new Promise((resolve) => setTimeout(resolve, 50));
  process.off('unhandledRejection', onUnhandled);
  results.typesFetchCutOff = { query, unhandled, ok: query === 'rejected ECONNREFUSED' && unhandled.length === 0 };
  await sql.end({ timeout: 0 });
}

{
  // 5. The server ends the session with an error (57P01, as every backend does on a fast or
  //    immediate shutdown) while a query runs. Once the connection is back, queries must succeed.
  const { sql, sockets } = pool();
  await sql.unsafe('select 7').simple();
  const socket = sockets.at(-1);
  const write = socket.write.bind(socket);
  socket.write = (buffer, callback) => {
    if (buffer[0] !== 0x51) return write(buffer, callback); // not a simple query
    setImmediate(() => {
      socket.emit('data', SHUTDOWN_ERROR);
      socket.drop();
    });
    return true;
  };
  const killed = await outcome(sql.unsafe('select 8').simple());
  const next = await outcome(sql.unsafe('select 9').simple());
  results.staleErrorReplay = { killed, next, ok: next === 'resolved' };
  await sql.end({ timeout: 0 });
}

{
  // 6. A session dies during a query; while the server starts up again it refuses sessions with
  //    57P03. The next query must fail fast with that refusal, as on a fresh pool, not wait on.
  let opened = 0;
  const sockets = [];
  const sql = postgres({
    socket: () => {
      opened += 1;
      const socket = new FakeSocket();
      sockets.push(socket);
      if (opened >= 2) {
        // Refuses the startup: every later connection attempt meets a starting-up server.
        socket.write = () => (setImmediate(() => (socket.emit('data', STARTING_UP_ERROR), socket.drop())), true);
      }
      return socket;
    },
    max: 1,
    fetch_types: false,
    connect_timeout: 2,
    backoff: 0.05,
    onnotice: () => {},
  });
  await sql.unsafe('select 10').simple();
  const first = sockets.at(-1);
  const write = first.write.bind(first);
  first.write = (buffer, callback) => (buffer[0] === 0x51 ? (setImmediate(() => first.drop()), true) : write(buffer, callback));
  const killed = await outcome(sql.unsafe('select 11').simple());
  const started = Date.now();
  const waited = new Promise((resolve) => setTimeout(resolve, 1500, 'still waiting after 1.5 s'));
  const refused = await Promise.race([outcome(sql.unsafe('select 12').simple()), waited]);
  const ms = Date.now() - started;
  results.refusedWhileStarting = { killed, refused, attempts: opened - 1, ok: refused === 'rejected 57P03' && ms < 1000 };
  await sql.end({ timeout: 0 });
}

console.log(JSON.stringify(results));
process.exit(Object.values(results).every((r) => r.ok) ? 0 : 1);
