import { randomUUID } from 'node:crypto';
import { Miniflare, Response as RuntimeResponse, type Request as RuntimeRequest } from 'miniflare';
import { forwardOutbound, type OutboundPolicy } from './outbound';
import { childPids, residentBytes } from './proc';
import { PROTOCOL_PATH, type EncodedDelivery } from './protocol';
import type { DeliveredResponse, DeliveryFailure } from './types';

/*
 * One integration version running in its own workerd process, driven by Miniflare. A process per
 * version is what lets a stuck or bloated script be stopped without touching the others: the
 * deadline and the memory cap end the whole process (Miniflare's dispose), and the pool starts a
 * new one for the next event.
 *
 * The script is wrapped by a small entry module that marks the end of each request in the log
 * stream, so the console lines of one delivery (deliveries to one runtime run one at a time)
 * are known to be complete when the answer is returned.
 */

export interface SandboxLimits {
  /** Time for one delivery, cold start included. */
  deadlineMs: number;
  /** Resident memory of one runtime process; past it the process is killed. */
  memoryBytes: number;
  /** Largest answer body read back from a script. */
  maxResponseBytes: number;
  /** Largest request or answer body of a script's outbound fetch. */
  maxOutboundBytes: number;
  /** How often the memory of a busy runtime is read. */
  memoryPollMs: number;
  /** Console lines kept per delivery; the rest are counted. */
  maxLogLines: number;
}

/** The compatibility settings of the official CLI's dev server (`gitbook dev`). */
const COMPATIBILITY = { compatibilityDate: '2025-05-25', compatibilityFlags: ['nodejs_compat'] };
const MODULES_ROOT = '/quire-integration';
const END_MARK = '\u0001quire:end:';
const DELIVERY_HEADER = 'x-quire-delivery';
const MAX_LINE = 8 * 1024;
const FRAMING_HEADERS = new Set(['transfer-encoding', 'content-length', 'connection', 'keep-alive', 'content-encoding']);
/** How long the end mark may trail the answer before the trace is returned without it. */
const END_MARK_WAIT_MS = 500;

const ENTRY = `import integration from './integration.mjs';
export default {
  async fetch(request, env, ctx) {
    const id = request.headers.get('${DELIVERY_HEADER}');
    const headers = new Headers(request.headers);
    headers.delete('${DELIVERY_HEADER}');
    try {
      return await integration.fetch(new Request(request, { headers }), env, ctx);
    } finally {
      console.log('${END_MARK.replace('\u0001', '\\u0001')}' + id);
    }
  },
};
`;

interface Current {
  id: string;
  logs: string[];
  dropped: number;
  policy: OutboundPolicy;
  ended: () => void;
}

export interface RunOutcome {
  response?: DeliveredResponse;
  logs: string[];
  error?: string;
  failure?: DeliveryFailure;
  /** The runtime had died before this delivery began: nothing ran, another runtime may. */
  stale?: boolean;
}

/** Miniflare's pid is private: starts are serialized so the new workerd child can be told apart. */
let startLock: Promise<unknown> = Promise.resolve();

export class ScriptRuntime {
  private mf!: Miniflare;
  private pid: number | undefined;
  private current: Current | undefined;
  /** Console lines outside any delivery (startup errors, `waitUntil` tails): kept for crash reports. */
  private stray: string[] = [];
  private queue: Promise<unknown> = Promise.resolve();
  private death: { failure: DeliveryFailure; message: string } | undefined;
  private lastPolicy: OutboundPolicy | undefined;

  private constructor(
    readonly key: string,
    readonly scriptHash: string,
    private readonly limits: SandboxLimits,
  ) {}

  /** Killed by a limit, shut down, or gone on its own (the kernel, a crash): never reused. */
  get dead(): boolean {
    if (this.death === undefined && this.pid !== undefined && !processExists(this.pid)) {
      this.death = { failure: 'crashed', message: 'The runtime process exited' };
    }
    return this.death !== undefined;
  }

  /** Starts workerd with `script`; rejects with the startup trace when the bundle does not load. */
  static async start(key: string, scriptHash: string, script: string, limits: SandboxLimits, signal: AbortSignal): Promise<ScriptRuntime> {
    const runtime = new ScriptRuntime(key, scriptHash, limits);
    const started = startLock.then(() => runtime.boot(script, signal));
    startLock = started.catch(() => undefined);
    return started;
  }

  private async boot(script: string, signal: AbortSignal): Promise<ScriptRuntime> {
    const before = childPids('workerd');
    this.mf = new Miniflare({
      ...COMPATIBILITY,
      modulesRoot: MODULES_ROOT,
      modules: [
        { type: 'ESModule', path: `${MODULES_ROOT}/entry.mjs`, contents: ENTRY },
        { type: 'ESModule', path: `${MODULES_ROOT}/integration.mjs`, contents: script },
      ],
      // Miniflare validates this handler's return type: it must return nothing, and never throw.
      handleStructuredLogs: ({ level, message }: { level: string; message: string }) => {
        this.onLog(level, message);
      },
      outboundService: (request: RuntimeRequest) => {
        const policy = this.current?.policy ?? this.lastPolicy;
        if (!policy) return new RuntimeResponse('No delivery is running', { status: 503 });
        return forwardOutbound(request, policy);
      },
    });
    const aborted = new Promise<never>((_, reject) => {
      const fail = () => reject(new Error(`the runtime did not start within the deadline`));
      if (signal.aborted) fail();
      signal.addEventListener('abort', fail, { once: true });
    });
    try {
      await Promise.race([this.mf.ready, aborted]);
    } catch (error) {
      const trace = this.stray.length ? `\n${this.stray.join('\n')}` : '';
      await this.mf.dispose().catch(() => undefined);
      throw new Error(`The integration script could not be started: ${(error as Error).message}${trace}`, { cause: error });
    }
    const after = childPids('workerd');
    const fresh = [...after].filter((pid) => !before.has(pid));
    this.pid = fresh.length === 1 ? fresh[0] : undefined;
    return this;
  }

  private onLog(level: string, message: string) {
    if (message.startsWith(END_MARK)) {
      if (this.current && message.slice(END_MARK.length).trim() === this.current.id) this.current.ended();
      return;
    }
    const line = `[${level}] ${message.length > MAX_LINE ? `${message.slice(0, MAX_LINE)}...` : message}`;
    const target = this.current;
    if (!target) {
      this.stray.push(line);
      if (this.stray.length > 50) this.stray.shift();
    } else if (target.logs.length < this.limits.maxLogLines) target.logs.push(line);
    else target.dropped++;
  }

  /** Runs `task` after the deliveries already queued on this runtime. */
  enqueue<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Stops the process; the pool drops a dead runtime and starts another for the next event. */
  kill(failure: DeliveryFailure, message: string) {
    if (!this.death) this.death = { failure, message };
    if (this.pid !== undefined) {
      try {
        process.kill(this.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    void this.mf.dispose().catch(() => undefined);
  }

  /** For the pool's idle watchdog: work left running after an answer (`waitUntil`) can grow too. */
  checkIdleMemory() {
    if (this.current || this.death || this.pid === undefined) return;
    const rss = residentBytes(this.pid);
    if (rss !== undefined && rss > this.limits.memoryBytes) {
      this.kill('memory', `The integration used ${Math.round(rss / 1048576)} MB while idle, over its limit of ${Math.round(this.limits.memoryBytes / 1048576)} MB; its runtime was stopped`);
    }
  }

  dispose(): Promise<void> {
    if (!this.death) this.death = { failure: 'crashed', message: 'The runtime was shut down' };
    return this.mf.dispose().catch(() => undefined);
  }

  /** One delivery; the caller holds this runtime's queue (see `enqueue`). */
  async deliver(encoded: EncodedDelivery, policy: Omit<OutboundPolicy, 'note' | 'signal'>, deadlineAt: number): Promise<RunOutcome> {
    const logs: string[] = [];
    const remaining = deadlineAt - Date.now();
    if (this.death) return { logs, error: this.death.message, failure: this.death.failure, stale: true };
    if (remaining <= 0) return { logs, error: 'The deadline passed while the delivery waited for the runtime', failure: 'deadline' };

    const abort = new AbortController();
    let ended!: () => void;
    const endSeen = new Promise<void>((resolve) => (ended = resolve));
    const current: Current = { id: randomUUID(), logs, dropped: 0, ended, policy: { ...policy, signal: abort.signal, note: (line) => logs.push(line) } };
    this.current = current;
    this.lastPolicy = { ...current.policy, signal: AbortSignal.timeout(this.limits.deadlineMs), note: () => undefined };

    let timer: NodeJS.Timeout | undefined;
    let watch: NodeJS.Timeout | undefined;
    const stopped = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        this.kill('deadline', `The integration did not answer within ${Math.round(remaining)} ms; its runtime was stopped`);
        reject(new Error('deadline'));
      }, remaining);
      if (this.pid !== undefined) {
        const pid = this.pid;
        watch = setInterval(() => {
          const rss = residentBytes(pid);
          if (rss !== undefined && rss > this.limits.memoryBytes) {
            this.kill('memory', `The integration used ${Math.round(rss / 1048576)} MB, over its limit of ${Math.round(this.limits.memoryBytes / 1048576)} MB; its runtime was stopped`);
            reject(new Error('memory'));
          }
        }, this.limits.memoryPollMs);
      }
    });
    stopped.catch(() => undefined);

    try {
      const response = await Promise.race([this.exchange(encoded, current.id), stopped]);
      await Promise.race([endSeen, new Promise((resolve) => setTimeout(resolve, END_MARK_WAIT_MS))]);
      return { response, logs: this.closeTrace(current) };
    } catch (error) {
      abort.abort();
      if (!this.death) this.kill('crashed', `The integration's runtime failed: ${(error as Error).message}`);
      // A process that died on its own (V8's heap limit) leaves its reason in the stray lines.
      return { logs: [...this.closeTrace(current), ...this.stray.splice(0)], error: this.death!.message, failure: this.death!.failure };
    } finally {
      clearTimeout(timer);
      clearInterval(watch);
      if (this.current === current) this.current = undefined;
    }
  }

  private closeTrace(current: Current): string[] {
    if (current.dropped > 0) current.logs.push(`[quire] ${current.dropped} more console lines were dropped (limit ${this.limits.maxLogLines})`);
    return current.logs;
  }

  private async exchange(encoded: EncodedDelivery, id: string): Promise<DeliveredResponse> {
    const res = await this.mf.dispatchFetch(`http://integration.invalid${PROTOCOL_PATH}`, {
      method: 'POST',
      headers: { 'content-type': encoded.contentType, [DELIVERY_HEADER]: id },
      body: encoded.body,
      redirect: 'manual',
    });
    const declared = Number(res.headers.get('content-length') ?? 0);
    if (declared > this.limits.maxResponseBytes) {
      await res.body?.cancel();
      throw new Error(`the answer is larger than ${this.limits.maxResponseBytes} bytes`);
    }
    const body = Buffer.from(await res.arrayBuffer());
    if (body.byteLength > this.limits.maxResponseBytes) throw new Error(`the answer is larger than ${this.limits.maxResponseBytes} bytes`);
    const headers: Record<string, string> = {};
    res.headers.forEach((value, name) => {
      const key = name.toLowerCase();
      // Miniflare's own transport headers, and framing that no longer applies to a buffered body.
      if (!key.startsWith('mf-') && !FRAMING_HEADERS.has(key)) headers[key] = value;
    });
    return { status: res.status, headers, body };
  }
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
