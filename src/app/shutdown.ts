import type { Logger } from '../lib/log';

export interface ShutdownStep {
  name: string;
  run(): Promise<unknown>;
}

export interface ShutdownOptions {
  log: Logger;
  /** Past it the process exits with status 1 whatever is still running. */
  timeoutMs: number;
  /** Runs first and at once: `/ready` turns 503. */
  onDrain(): void;
  exit?: (code: number) => void;
}

export interface Shutdown {
  /**
   * Registers what to stop, as it is started: steps run last registered first (the server before
   * the queue, the queue before the pool), and a signal during startup stops only what exists.
   * Adding a step again moves it to run first; it still runs (and is logged) once.
   */
  add(step: ShutdownStep): void;
  shutdown(signal: string): Promise<void>;
}

/**
 * SIGTERM or SIGINT drain the process and exit 0, within `timeoutMs`; a second signal exits at
 * once. Each step is logged, and a failing one does not keep the later ones from running.
 */
export function exitOnSignals(options: ShutdownOptions): Shutdown {
  const { log, timeoutMs } = options;
  const steps: ShutdownStep[] = [];
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let shuttingDown = false;

  async function shutdown(signal: string): Promise<void> {
    if (shuttingDown) {
      log.warn({ signal }, 'second signal during shutdown: exiting now');
      return exit(1);
    }
    shuttingDown = true;
    const started = Date.now();
    log.info({ signal, timeoutMs }, 'shutting down: draining requests');
    options.onDrain();
    const timer = setTimeout(() => {
      log.error({ timeoutMs }, 'shutdown did not finish in time: exiting');
      exit(1);
    }, timeoutMs);
    timer.unref();
    let failed = false;
    for (const step of [...steps].reverse()) {
      const stepStarted = Date.now();
      try {
        await step.run();
        log.info({ step: step.name, ms: Date.now() - stepStarted }, `${step.name} stopped`);
      } catch (err) {
        failed = true;
        log.error({ err, step: step.name }, `${step.name} failed to stop`);
      }
    }
    clearTimeout(timer);
    log.info({ ms: Date.now() - started }, 'shutdown complete');
    exit(failed ? 1 : 0);
  }

  function add(step: ShutdownStep): void {
    const at = steps.indexOf(step);
    if (at >= 0) steps.splice(at, 1);
    steps.push(step);
  }

  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void shutdown(signal));
  // Node would print these and exit 1 anyway: the log keeps them, as JSON, beside the rest.
  process.on('uncaughtException', (err) => {
    log.fatal({ err }, 'uncaught exception: exiting');
    exit(1);
  });
  process.on('unhandledRejection', (err) => {
    log.fatal({ err }, 'unhandled rejection: exiting');
    exit(1);
  });
  // Under `npm start` a killed npm (even by SIGKILL, which it cannot forward) leaves this process
  // to init: shut down rather than hold the port with nobody to stop it.
  if (process.env.npm_lifecycle_event) {
    const parent = process.ppid;
    const watch = setInterval(() => {
      if (process.ppid === parent) return;
      clearInterval(watch);
      void shutdown('parent exited');
    }, 500);
    watch.unref();
  }
  return { add, shutdown };
}
