/**
 * Request bodies are counted while they stream in. Past the limit the stream fails, so whatever
 * is reading it stops, and the caller gets 413 at once: neither a declared Content-Length nor a
 * chunked body larger than the limit is ever read in full.
 */
import { BodyTooLargeError } from '../lib/body-too-large';

export { BodyTooLargeError };

export interface LimitedRequest {
  request: Request;
  /** Settles with the error once the body goes past the limit; never settles otherwise. */
  exceeded: Promise<BodyTooLargeError>;
}

/** The request with its body capped at `limit` bytes, or the error when its declared length is over it. */
export function limitBody(request: Request, limit: number): LimitedRequest | BodyTooLargeError {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > limit) return new BodyTooLargeError(limit);
  // A declared length within the limit is all the body there is: Node's HTTP parser reads exactly
  // that many bytes. Only a chunked body needs counting, and only it pays for the wrapping stream.
  const framed = declared !== null && /^\d+$/.test(declared.trim());
  if (!request.body || framed) return { request, exceeded: new Promise(() => {}) };

  let report!: (error: BodyTooLargeError) => void;
  const exceeded = new Promise<BodyTooLargeError>((resolve) => (report = resolve));
  const reader = request.body.getReader();
  let seen = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) return controller.close();
      seen += value.byteLength;
      if (seen > limit) {
        const error = new BodyTooLargeError(limit);
        report(error);
        controller.error(error);
        // Stops the upstream read: the rest of the body is not waited for.
        await reader.cancel(error).catch(() => {});
        return;
      }
      controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  const limited = new Request(request.url, {
    method: request.method,
    headers: request.headers,
    body,
    signal: request.signal,
    // Node's fetch needs this for a streamed body.
    duplex: 'half',
  } as RequestInit);
  return { request: limited, exceeded };
}
