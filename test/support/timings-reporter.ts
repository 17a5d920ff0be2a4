import { writeFileSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints the slowest test files at the end of a run, and writes every file's time to the file that
 * QUIRE_TEST_TIMINGS names (one JSON line per file), so CI shows where the suite's wall time goes.
 */
export default class TimingsReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const rows = modules
      .map((m) => {
        const d = m.diagnostic();
        return { file: m.relativeModuleId, seconds: (d.collectDuration + d.duration) / 1000, state: m.state() };
      })
      .sort((a, b) => b.seconds - a.seconds);
    const target = process.env.QUIRE_TEST_TIMINGS;
    if (target) writeFileSync(target, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
    if (rows.length < 10) return;
    const total = rows.reduce((sum, r) => sum + r.seconds, 0);
    const lines = rows.slice(0, 15).map((r) => `  ${r.seconds.toFixed(1).padStart(7)} s  ${r.file}`);
    console.log(`\nSlowest files (of ${rows.length}, ${total.toFixed(0)} s summed over workers):\n${lines.join('\n')}\n`);
  }
}
