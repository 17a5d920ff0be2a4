import { usePrometheus } from '@graphql-yoga/plugin-prometheus';
import type { Plugin } from 'graphql-yoga';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { StatementCounter } from '../db/client';
import type { StatementTimer } from '../db/timed-sql';
import type { JobQueue } from '../jobs/queue';

/** Seconds; from a cached read (a few ms) to the request deadline (20 s). */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20];

export interface Metrics {
  registry: Registry;
  observeRequest(labels: { method: string; route: string; status: number }, seconds: number): void;
  /** Yoga's plugin: GraphQL operation latency by operation name and type, on the same registry. */
  graphqlPlugin(): Plugin;
  /** The SQL statements of the app's queries (drizzle's logger), read when scraped. */
  countStatements(counter: StatementCounter): void;
  /** Latency of each SQL statement, pool wait included (PostgreSQL only). */
  timeStatement: StatementTimer;
  /** Jobs waiting per pg-boss queue, asked when scraped. */
  watchJobs(jobs: Pick<JobQueue, 'depths'>): void;
}

/** One registry per app, so that several apps in one process (tests) do not collide. */
export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const http = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests by method, route template and status, from arrival to response headers',
    labelNames: ['method', 'route', 'status'],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const statements = new Histogram({
    name: 'db_statement_duration_seconds',
    help: "SQL statements of the app's queries, from being handed to the pool (so waiting for a connection included) to the answer",
    labelNames: ['outcome'],
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15],
    registers: [registry],
  });
  return {
    registry,
    timeStatement: (seconds, failed) => statements.observe({ outcome: failed ? 'error' : 'ok' }, seconds),
    observeRequest: ({ method, route, status }, seconds) => http.observe({ method, route, status: String(status) }, seconds),
    graphqlPlugin: () =>
      usePrometheus({
        registry,
        endpoint: false,
        metrics: {
          graphql_envelop_request_duration: true,
          graphql_envelop_phase_parse: true,
          graphql_envelop_phase_validate: true,
          graphql_envelop_phase_execute: true,
          graphql_envelop_error_result: true,
          // Our own histogram above already times every HTTP request, /graphql included.
          graphql_yoga_http_duration: false,
        },
      }),
    countStatements(counter) {
      new Counter({
        name: 'db_statements_total',
        help: 'SQL statements the app sent (its queries; pg-boss and migrations not included)',
        registers: [registry],
        collect() {
          this.reset();
          this.inc(counter.count);
        },
      });
    },
    watchJobs(jobs) {
      new Gauge({
        name: 'job_queue_depth',
        help: 'Jobs waiting to be worked, by queue',
        labelNames: ['queue'],
        registers: [registry],
        async collect() {
          for (const [queue, depth] of Object.entries(await jobs.depths())) this.set({ queue }, depth);
        },
      });
    },
  };
}
