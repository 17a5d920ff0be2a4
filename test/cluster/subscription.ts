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
  let buffer = '';
  const read = async (): Promise<any> => {
    for (;;) {
      const end = buffer.indexOf('\n\n');
      if (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (/^event: complete/m.test(block)) return null;
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (data) return JSON.parse(data);
        continue;
      }
      const { value, done } = await reader.read();
      if (done) return null;
      buffer += value;
    }
  };
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
