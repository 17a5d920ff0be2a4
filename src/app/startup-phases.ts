import type { Logger } from '../lib/log';

/**
 * Times the steps of a start, one log line each (`{ phase, ms, rssMb }`), so a slow or heavy start
 * says where its time and memory went. `ms` counts from the step's own start; `atMs` from the
 * process's, which makes the module loading before the first step visible too.
 */
export class StartupPhases {
  // performance.now() counts from the process's start: the first step closed is module loading.
  private last = 0;
  readonly timings: { phase: string; ms: number }[] = [];

  constructor(private readonly log: Logger) {}

  /** Closes the step that began when the previous one ended (module loading, for the first). */
  mark(phase: string): void {
    const now = performance.now();
    const ms = Math.round(now - this.last);
    this.last = now;
    this.timings.push({ phase, ms });
    const rssMb = Math.round(process.memoryUsage.rss() / 2 ** 20);
    this.log.info({ phase, ms, atMs: Math.round(now), rssMb }, `startup phase ${phase}: ${ms} ms`);
  }

  /** Runs one step and marks it, also when it is the first to run after a gap that is not its own. */
  async run<T>(phase: string, step: () => Promise<T> | T): Promise<T> {
    this.last = performance.now();
    const result = await step();
    this.mark(phase);
    return result;
  }
}
