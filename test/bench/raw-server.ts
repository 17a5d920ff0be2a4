/**
 * Child process of `npm run bench`: the baseline. One hand-written SQL statement per request,
 * run through postgres.js (prepared, as Quire's are), its rows shaped into the answer in a few
 * lines: the least a Node server on this database can do for the same rows. GET /<shape index>/<organization id>.
 */
import { createServer } from 'node:http';
import postgres from 'postgres';
import { SHAPES } from './shapes';
import { serveStats } from './stats';

const VIEWERS = { admin: 'benchadmin0000000000', reader: 'benchreader000000000' };

const sql = postgres(process.env.QUIRE_BENCH_DATABASE_URL!, { max: Number(process.env.DATABASE_POOL_SIZE ?? 10), onnotice: () => {} });
let statements = 0;

const server = createServer((req, res) => {
  const [, index, organizationId] = (req.url ?? '').split('/');
  const shape = SHAPES[Number(index)];
  statements += 1;
  // PostgreSQL refuses a parameter the statement never uses, so the viewer goes only where asked for.
  const params = shape.raw.sql.includes('$2') ? [organizationId, VIEWERS[shape.viewer]] : [organizationId];
  sql
    .unsafe(shape.raw.sql, params, { prepare: true })
    .then((rows) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: shape.raw.answer(rows) }));
    })
    .catch((error: unknown) => {
      res.writeHead(500);
      res.end(String(error));
    });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  serveStats(typeof address === 'object' && address ? address.port : 0, () => statements, async () => {
    server.close();
    await sql.end();
  });
});
