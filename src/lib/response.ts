/**
 * The Response that answers go out as. The server adapter (@whatwg-node/server) writes this one's
 * string body straight to the socket; Node's own Response (undici) keeps its body as a web stream,
 * which the adapter then has to read chunk by chunk: a tenth of a REST list's CPU went to that.
 */
export { Response } from '@whatwg-node/server';
