import { RuntimePool } from './pool';
import { encodeDelivery } from './protocol';
import type { SandboxLimits } from './sandbox';
import { deliverToTunnel } from './tunnel';
import type { DeliveryOptions, DeliveryResult, DeliveryTarget, ScriptTarget } from './types';

export type { DeliveryFailure, DeliveryOptions, DeliveryResult, DeliveryTarget, ScriptTarget, TunnelTarget } from './types';
export { SIGNATURE_HEADER, signBody, verifySignature } from './signature';

/*
 * The entry point of the integration runtime: deliver one event (spec `Event` JSON) with its
 * environment (spec `IntegrationEnvironment`) to a published script, run in workerd, or to a dev
 * tunnel, and return the answer with the trace. It never throws for anything the integration
 * does: every failure is a result with `ok: false`, a `failure` kind and a message.
 */

export interface RuntimeSettings {
  /** Time for one delivery, cold start included (ms). */
  deadlineMs: number;
  /** Resident memory cap of one script runtime process (MB); a runtime idles at about 50 MB. */
  memoryMb: number;
  /** Warm runtimes kept, one per integration version, least recently used evicted first. */
  warmRuntimes: number;
  /** Hosts reachable on internal addresses by scripts and tunnels (Quire's `fetchAllowHosts`). */
  allowHosts: readonly string[];
  /** Quire's public base URL; scripts reach it whatever its address. Default: the environment's `apiEndpoint`. */
  apiBaseUrl?: string;
  maxResponseBytes: number;
  maxOutboundBytes: number;
  maxLogLines: number;
  memoryPollMs: number;
}

export const DEFAULT_RUNTIME_SETTINGS: RuntimeSettings = {
  deadlineMs: 10_000,
  memoryMb: 256,
  warmRuntimes: 8,
  allowHosts: [],
  maxResponseBytes: 5 * 1024 * 1024,
  maxOutboundBytes: 10 * 1024 * 1024,
  maxLogLines: 500,
  memoryPollMs: 50,
};

export interface IntegrationRuntime {
  deliver(target: DeliveryTarget, event: object, environment: object, options?: DeliveryOptions): Promise<DeliveryResult>;
  /** Runtimes currently kept (warm or starting). */
  readonly warmCount: number;
  /** Stops every runtime process; deliveries after it fail. */
  close(): Promise<void>;
}

function apiOrigin(explicit: string | undefined, environment: object): string | undefined {
  const candidate = explicit ?? (environment as { apiEndpoint?: unknown }).apiEndpoint;
  if (typeof candidate !== 'string') return undefined;
  try {
    return new URL(candidate).origin;
  } catch {
    return undefined;
  }
}

export function createIntegrationRuntime(overrides: Partial<RuntimeSettings> = {}): IntegrationRuntime {
  const settings: RuntimeSettings = { ...DEFAULT_RUNTIME_SETTINGS, ...overrides };
  const limits: SandboxLimits = {
    deadlineMs: settings.deadlineMs,
    memoryBytes: settings.memoryMb * 1024 * 1024,
    maxResponseBytes: settings.maxResponseBytes,
    maxOutboundBytes: settings.maxOutboundBytes,
    memoryPollMs: settings.memoryPollMs,
    maxLogLines: settings.maxLogLines,
  };
  const pool = new RuntimePool(limits, settings.warmRuntimes);

  async function runScript(target: ScriptTarget, event: object, environment: object, options: DeliveryOptions): Promise<DeliveryResult> {
    const started = Date.now();
    const deadlineMs = options.deadlineMs ?? settings.deadlineMs;
    const deadlineAt = started + deadlineMs;
    const encoded = await encodeDelivery(event, environment, options.fetchBody);
    const policy = {
      allowHosts: options.allowHosts ?? settings.allowHosts,
      apiOrigin: apiOrigin(options.apiBaseUrl ?? settings.apiBaseUrl, environment),
      maxBytes: settings.maxOutboundBytes,
    };
    let cold = false;
    // A runtime killed by the delivery queued before this one is replaced once.
    for (let attempt = 0; attempt < 2; attempt++) {
      let runtime;
      try {
        const acquired = await pool.acquire(target, AbortSignal.timeout(Math.max(1, deadlineAt - Date.now())));
        runtime = acquired.runtime;
        cold ||= acquired.cold;
      } catch (error) {
        return { ok: false, status: 0, logs: [], error: (error as Error).message, failure: 'crashed', durationMs: Date.now() - started, coldStart: true };
      }
      const outcome = await runtime.enqueue(() => runtime.deliver(encoded, policy, deadlineAt));
      if (outcome.stale && attempt === 0) continue;
      const status = outcome.response?.status ?? 0;
      const ok = !outcome.failure && status >= 200 && status < 300;
      return {
        ok,
        status,
        ...(outcome.response ? { response: outcome.response } : {}),
        logs: outcome.logs,
        ...(outcome.failure ? { error: outcome.error, failure: outcome.failure } : ok ? {} : { error: `The integration answered ${status}`, failure: 'status' as const }),
        durationMs: Date.now() - started,
        coldStart: cold,
      };
    }
    return { ok: false, status: 0, logs: [], error: 'The integration runtime could not be started', failure: 'crashed', durationMs: Date.now() - started, coldStart: cold };
  }

  return {
    get warmCount() {
      return pool.size;
    },
    async deliver(target, event, environment, options = {}) {
      if (target.kind === 'script') return runScript(target, event, environment, options);
      const encoded = await encodeDelivery(event, environment, options.fetchBody);
      return deliverToTunnel(target, encoded, {
        allowHosts: options.allowHosts ?? settings.allowHosts,
        deadlineMs: options.deadlineMs ?? settings.deadlineMs,
        maxResponseBytes: settings.maxResponseBytes,
      });
    },
    close: () => pool.close(),
  };
}

let shared: { runtime: IntegrationRuntime; settings: Partial<RuntimeSettings> } | undefined;

/**
 * Sets the settings of the process-wide runtime `deliverEvent` uses (call it once at start, from
 * the app's config); a runtime already started with other settings is closed first.
 */
export async function configureIntegrationRuntime(settings: Partial<RuntimeSettings>): Promise<void> {
  const previous = shared;
  shared = { runtime: createIntegrationRuntime(settings), settings };
  await previous?.runtime.close();
}

/** Delivers through the process-wide runtime, started on first use with the configured settings. */
export function deliverEvent(target: DeliveryTarget, event: object, environment: object, options?: DeliveryOptions): Promise<DeliveryResult> {
  shared ??= { runtime: createIntegrationRuntime(), settings: {} };
  return shared.runtime.deliver(target, event, environment, options);
}

/** Stops the process-wide runtime's processes (graceful shutdown). */
export async function closeIntegrationRuntime(): Promise<void> {
  const current = shared;
  shared = undefined;
  await current?.runtime.close();
}
