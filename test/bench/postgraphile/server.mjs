/**
 * Child process of `npm run bench`: PostGraphile v5 over Quire's own tables, no authentication
 * (it reads as the database owner, as the bench issue asks). Plain ESM run by the Node 22 of this
 * folder (PostGraphile 5 wants Node >= 22; the project is on 20), so it cannot import stats.ts:
 * it speaks the same IPC (ready, stats, stop) by hand.
 */
import { createServer } from 'node:http';
import pg from 'pg';
import { postgraphile } from 'postgraphile';
import { PostGraphileAmberPreset } from 'postgraphile/presets/amber';
import { makePgService } from 'postgraphile/adaptors/pg';
import { grafserv } from 'postgraphile/grafserv/node';
import { printSchema } from 'postgraphile/graphql';

// Quire's write_positions.lsn is a pg_lsn, which PostGraphile skips with a page-long warning on
// every start; no shape reads it, so only that warning is dropped.
const warn = console.warn;
console.warn = (message, ...rest) => {
  if (typeof message === 'string' && message.startsWith("Could not build PgCodec for 'pg_catalog.pg_lsn'")) return;
  warn(message, ...rest);
};

// Every statement PostGraphile sends goes through pg's Client#query (the pool hands out Clients),
// so counting there is the same measure as Quire's StatementCounter. Introspection at start-up is
// counted too, but the runner only charges the difference around a measured run.
let statements = 0;
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (...args) {
  statements += 1;
  return query.apply(this, args);
};

// The baseline's pool size, so neither side wins by holding more connections.
const pool = new pg.Pool({ connectionString: process.env.QUIRE_BENCH_DATABASE_URL, max: Number(process.env.DATABASE_POOL_SIZE ?? 10) });

/** @type {GraphileConfig.Preset} */
const preset = {
  extends: [PostGraphileAmberPreset],
  // pubsub off: subscriptions would hold a LISTEN connection the bench never uses.
  pgServices: [makePgService({ pool, schemas: ['public'], pubsub: false })],
  grafserv: { graphiql: false, watch: false, websockets: false, graphqlOverGET: false },
  grafast: { explain: false },
};

const pgl = postgraphile(preset);
if (process.env.BENCH_POSTGRAPHILE_SCHEMA) {
  // To check the names PostGraphile's inflection gives before writing a shape's query.
  console.log(printSchema((await pgl.getSchemaResult()).schema));
  process.exit(0);
}
const serv = pgl.createServ(grafserv);
const server = createServer();
await serv.addTo(server);
// Built now rather than on the first request, which the runner's check would otherwise pay for.
await pgl.getSchemaResult();
server.listen(0, '127.0.0.1', () => {
  process.on('message', (message) => {
    if (message.type === 'stats') {
      const { user, system } = process.cpuUsage();
      process.send({ type: 'stats', stats: { cpu: user + system, statements, rss: process.memoryUsage().rss } });
    }
    if (message.type === 'stop') {
      server.close();
      void Promise.all([pgl.release(), pool.end()]).then(() => process.exit(0));
    }
  });
  process.send({ type: 'ready', port: server.address().port });
});
