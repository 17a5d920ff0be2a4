/*
 * The wire format `createIntegration().fetch` of @gitbook/runtime reads: a POST whose path is
 * `/v1` and whose `multipart/form-data` body has the parts `event` and `environment` (JSON
 * strings) and, for `fetch` events, `fetch-body`. The body is encoded once, to bytes, so a tunnel
 * delivery signs exactly what it sends.
 */

export const PROTOCOL_PATH = '/v1';

export interface EncodedDelivery {
  body: Uint8Array;
  contentType: string;
}

export async function encodeDelivery(event: object, environment: object, fetchBody?: string | Uint8Array): Promise<EncodedDelivery> {
  const form = new FormData();
  form.set('event', JSON.stringify(event));
  form.set('environment', JSON.stringify(environment));
  if (fetchBody !== undefined) form.set('fetch-body', typeof fetchBody === 'string' ? fetchBody : new TextDecoder().decode(fetchBody));
  const encoded = new Response(form);
  return { body: new Uint8Array(await encoded.arrayBuffer()), contentType: encoded.headers.get('content-type')! };
}

/** `<base>/v1`, keeping the base's path (a tunnel may live under a prefix) and query. */
export function protocolUrl(base: string): string {
  const url = new URL(base);
  url.pathname = url.pathname.replace(/\/+$/, '') + PROTOCOL_PATH;
  return url.href;
}

export function headerRecord(headers: Iterable<[string, string]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of headers) {
    const key = name.toLowerCase();
    out[key] = key in out ? `${out[key]}, ${value}` : value;
  }
  return out;
}
