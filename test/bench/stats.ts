/** The child side of the bench's IPC: announce the port, answer `stats`, stop on `stop`. */
export interface ChildStats {
  /** CPU time used so far, user and system, in microseconds. */
  cpu: number;
  statements: number;
  rss: number;
}

export function serveStats(port: number, statements: () => number, stop: () => Promise<void>): void {
  process.on('message', (message: { type: string }) => {
    if (message.type === 'stats') {
      const { user, system } = process.cpuUsage();
      process.send!({ type: 'stats', stats: { cpu: user + system, statements: statements(), rss: process.memoryUsage().rss } satisfies ChildStats });
    }
    if (message.type === 'stop') void stop().then(() => process.exit(0));
  });
  process.send!({ type: 'ready', port });
}
