/*
 * The contract between the integrations module (its `integration-deliver` job, render and fetch
 * routes) and the runtime that runs an integration's code or forwards to its dev tunnel.
 */

/** A published version of an integration: its `script` runs in the sandbox. */
export interface ScriptTarget {
  kind: 'script';
  integrationId: string;
  /** The published version; a warm runtime is kept per (integrationId, version). */
  version: number;
  /** The ES module bundle `gitbook publish` sent; its default export has `fetch(request, env, ctx)`. */
  script: string;
}

/** An integration in dev mode: events go to the developer's tunnel instead of the script. */
export interface TunnelTarget {
  kind: 'tunnel';
  /** The `tunnelUrl` given to `PUT .../dev`; the request goes to `<tunnelUrl>/v1`. */
  url: string;
  /** The integration's signing secret: the key of the `X-Quire-Signature` HMAC. */
  signingSecret: string;
}

export type DeliveryTarget = ScriptTarget | TunnelTarget;

export interface DeliveryOptions {
  /** The raw body of the HTTP request a `fetch` event stands for (`fetch-body` part). */
  fetchBody?: string | Uint8Array;
  /** Time for the whole delivery, cold start included; the default is the runtime's `deadlineMs`. */
  deadlineMs?: number;
  /** `host` or `host:port` reachable on internal addresses (the `fetchAllowHosts` setting). */
  allowHosts?: readonly string[];
  /** Quire's own public base URL (`environment.apiEndpoint`): a script's fetches to it skip the address rules. */
  apiBaseUrl?: string;
}

/** Why a delivery failed, for the caller's retry policy and the event's trace. */
export type DeliveryFailure =
  /** The deadline passed; a script's runtime was stopped and will be started anew. */
  | 'deadline'
  /** The script's runtime went past its memory cap and was stopped. */
  | 'memory'
  /** The runtime process ended or could not start (bad bundle, crash). */
  | 'crashed'
  /** The target may not be reached (SSRF guard) or is not a valid URL. */
  | 'refused'
  /** The tunnel could not be reached or its answer was too large. */
  | 'unreachable'
  /** An answer came, with a status other than 2xx. */
  | 'status';

export interface DeliveredResponse {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: Buffer;
}

export interface DeliveryResult {
  /** True when the target answered with a 2xx status. */
  ok: boolean;
  /** The answer's HTTP status; 0 when there was no answer. */
  status: number;
  response?: DeliveredResponse;
  /** The trace: the script's console output (`[level] message`) and the runtime's own notes (`[quire] ...`). */
  logs: string[];
  error?: string;
  failure?: DeliveryFailure;
  durationMs: number;
  /** Whether a new runtime had to be started for this delivery (scripts only). */
  coldStart?: boolean;
}
