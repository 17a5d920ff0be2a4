import { QUERY_LIMITS } from './cost';

/**
 * 413 for a request whose declared length is over the limit, before its body is read. Yoga checks
 * the size while parsing, but answers a multipart upload that is too large with a 400.
 */
export function tooLargeResponse(request: Request): Response | null {
  const length = Number(request.headers.get('content-length'));
  if (!Number.isFinite(length) || length <= QUERY_LIMITS.requestBytes) return null;
  const message = `The request body is ${length} bytes; at most ${QUERY_LIMITS.requestBytes} are accepted`;
  return Response.json({ errors: [{ message, extensions: { code: 'PAYLOAD_TOO_LARGE' } }] }, { status: 413 });
}
