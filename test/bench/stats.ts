/** The child side of the bench's IPC: announce the port, answer `stats`, stop on `stop`, profile on request. */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';

export interface ChildStats {
  /** CPU time used so far, user and system, in microseconds. */
  cpu: number;
  statements: number;
  rss: number;
}

type Message = { type: 'stats' | 'stop' | 'profile-start' } | { type: 'profile-stop'; file: string };

export function serveStats(port: number, statements: () => number, stop: () => Promise<void>): void {
  // The sampling profiler, started and stopped around a measured run so start-up stays out of it.
  let session: Session | undefined;
  process.on('message', async (message: Message) => {
    if (message.type === 'stats') {
      const { user, system } = process.cpuUsage();
      process.send!({ type: 'stats', stats: { cpu: user + system, statements: statements(), rss: process.memoryUsage().rss } satisfies ChildStats });
    }
    if (message.type === 'profile-start') {
      session = new Session();
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: 100 });
      await session.post('Profiler.start');
      process.send!({ type: 'profiling' });
    }
    if (message.type === 'profile-stop' && session) {
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(message.file, JSON.stringify(profile));
      session.disconnect();
      process.send!({ type: 'profiled' });
    }
    if (message.type === 'stop') void stop().then(() => process.exit(0));
  });
  process.send!({ type: 'ready', port });
}
