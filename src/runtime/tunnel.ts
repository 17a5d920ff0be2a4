import { FetchRefused } from '../lib/safe-fetch';
import { guardedRequest } from './guarded-http';
import { headerRecord, protocolUrl, type EncodedDelivery } from './protocol';
import { SIGNATURE_HEADER, signBody } from './signature';
import type { DeliveryResult, TunnelTarget } from './types';

/*
 * Dev mode: the same request the script would get, POSTed to `<tunnelUrl>/v1` (the official
 * CLI's `gitbook dev` serves the integration with Miniflare behind its tunnel, and the runtime
 * answers any path in development builds, `/v1` in production ones), signed so the receiver can
 * tell it comes from this server. The tunnel passes the SSRF guard like any fetched URL.
 */

export async function deliverToTunnel(
  target: TunnelTarget,
  encoded: EncodedDelivery,
  options: { allowHosts: readonly string[]; deadlineMs: number; maxResponseBytes: number },
): Promise<DeliveryResult> {
  const started = Date.now();
  const done = (result: Omit<DeliveryResult, 'durationMs'>): DeliveryResult => ({ ...result, durationMs: Date.now() - started });
  let url: string;
  try {
    url = protocolUrl(target.url);
  } catch {
    return done({ ok: false, status: 0, logs: [], error: 'tunnelUrl: must be an absolute http or https URL', failure: 'refused' });
  }
  const signal = AbortSignal.timeout(options.deadlineMs);
  try {
    const answer = await guardedRequest(
      {
        url,
        method: 'POST',
        headers: [
          ['content-type', encoded.contentType],
          ['user-agent', 'Quire-Integrations/1.0'],
          [SIGNATURE_HEADER, signBody(target.signingSecret, encoded.body)],
        ],
        body: encoded.body,
      },
      { allowHosts: options.allowHosts, signal, maxBytes: options.maxResponseBytes },
      'tunnelUrl',
    );
    const ok = answer.status >= 200 && answer.status < 300;
    return done({
      ok,
      status: answer.status,
      response: { status: answer.status, headers: headerRecord(answer.headers), body: answer.body },
      logs: [`[quire] delivered to the dev tunnel ${url}: ${answer.status}`],
      ...(ok ? {} : { error: `The dev tunnel answered ${answer.status}`, failure: 'status' as const }),
    });
  } catch (error) {
    const message = (error as Error).message;
    const refused = error instanceof FetchRefused && / address; fetching it is not allowed|scheme is not allowed|credentials in the URL|must be an absolute/.test(message);
    return done({ ok: false, status: 0, logs: [`[quire] dev tunnel ${url}: ${message}`], error: message, failure: refused ? 'refused' : 'unreachable' });
  }
}
