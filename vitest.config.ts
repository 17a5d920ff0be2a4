import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
  resolve: {
    // graphql 16 must be a single copy, or schemas built in src and queries run in tests disagree.
    alias: { graphql: require.resolve('graphql') },
  },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Files share each worker's module cache instead of importing the whole server again (on a 2-core
    // machine importing was half the suite's time). Every file opens its own database and server, and
    // no test mocks a module, so nothing but the cache is shared.
    isolate: false,
    reporters: ['default', './test/support/timings-reporter.ts'],
    // Vitest leaves a core free by default: one worker on a 2-core machine. Files spend much of their
    // time waiting on PostgreSQL or child processes, so two workers there finish a third sooner.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
