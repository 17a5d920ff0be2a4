import { createHash } from 'node:crypto';
import type { ScriptRuntime, SandboxLimits } from './sandbox';
import type { ScriptTarget } from './types';

/*
 * Warm runtimes, one per (integration, version), least recently used first out. A runtime that
 * died (deadline, memory, crash) is dropped on its next use and replaced by a cold start.
 */

interface Entry {
  hash: string;
  runtime: Promise<ScriptRuntime>;
  /** Set once started, so eviction can skip runtimes still booting. */
  ready?: ScriptRuntime;
}

export class RuntimePool {
  private entries = new Map<string, Entry>();
  private closed = false;
  private readonly watchdog: NodeJS.Timeout;

  constructor(
    private readonly limits: SandboxLimits,
    private readonly warmRuntimes: number,
    idleCheckMs = 1_000,
  ) {
    // Busy runtimes are watched closely by their delivery; idle ones only need an occasional look.
    this.watchdog = setInterval(() => {
      for (const entry of this.entries.values()) entry.ready?.checkIdleMemory();
    }, idleCheckMs).unref();
  }

  get size(): number {
    return this.entries.size;
  }

  /** The runtime for `target`, started when there is none; `cold` tells whether it was. */
  async acquire(target: ScriptTarget, signal: AbortSignal): Promise<{ runtime: ScriptRuntime; cold: boolean }> {
    if (this.closed) throw new Error('The integration runtime is shut down');
    const key = `${target.integrationId}@${target.version}`;
    const hash = createHash('sha256').update(target.script).digest('base64url');
    const existing = this.entries.get(key);
    if (existing && existing.hash === hash && !existing.ready?.dead) {
      this.entries.delete(key);
      this.entries.set(key, existing);
      return { runtime: await existing.runtime, cold: false };
    }
    if (existing) this.drop(key, existing);
    const entry: Entry = { hash, runtime: startRuntime(key, hash, target.script, this.limits, signal) };
    this.entries.set(key, entry);
    this.evict();
    try {
      entry.ready = await entry.runtime;
    } catch (error) {
      if (this.entries.get(key) === entry) this.entries.delete(key);
      throw error;
    }
    return { runtime: entry.ready, cold: true };
  }

  private drop(key: string, entry: Entry) {
    if (this.entries.get(key) === entry) this.entries.delete(key);
    // Deliveries already queued on it finish first; a dead one has nothing left to finish.
    void entry.runtime.then((runtime) => runtime.enqueue(() => runtime.dispose())).catch(() => undefined);
  }

  private evict() {
    for (const [key, entry] of this.entries) {
      if (this.entries.size <= this.warmRuntimes) break;
      if (entry.ready) this.drop(key, entry);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.watchdog);
    const all = [...this.entries.values()];
    this.entries.clear();
    await Promise.all(all.map((entry) => entry.runtime.then((runtime) => runtime.dispose()).catch(() => undefined)));
  }
}

/** Miniflare is 110 modules: loaded with the first integration script that runs, not at server start. */
async function startRuntime(...args: Parameters<typeof ScriptRuntime.start>): Promise<ScriptRuntime> {
  const { ScriptRuntime } = await import('./sandbox');
  return ScriptRuntime.start(...args);
}
