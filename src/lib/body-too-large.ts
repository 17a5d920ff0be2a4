/**
 * A request body went past the server's limit while it streamed in (src/app/body-limit.ts). The
 * caller already has its 413; whatever was reading the body fails with this, which is no crash.
 */
export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`The request body is larger than ${limit} bytes, the most this server accepts here`);
    this.name = 'BodyTooLargeError';
  }
}
