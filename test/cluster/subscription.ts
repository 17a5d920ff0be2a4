import { eventReader } from '../support/live';

/**
 * A GraphQL subscription over server-sent events against a running server, read event by event:
 * `next()` answers the next payload, null once the stream ended, and fails past its deadline
 * rather than waiting for the test's own timeout.
 */
export async function openSubscription(url: string, token: string, query: string, variables: Record<string, unknown>) {
  const controller = new AbortController();
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ query, variables }),
    signal: controller.signal,
  });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const read = eventReader(reader);
  return {
    status: response.status,
    async next(timeoutMs = 10_000): Promise<any> {
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no subscription event within ${timeoutMs} ms`)), timeoutMs);
      });
      try {
        return await Promise.race([read(), deadline]);
      } finally {
        clearTimeout(timer);
      }
    },
    close: async () => {
      await reader.cancel().catch(() => {});
      controller.abort();
    },
  };
}
