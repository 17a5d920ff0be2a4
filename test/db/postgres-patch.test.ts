import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * patches/postgres+3.4.9.patch, applied by patch-package at install, on both builds of postgres.js
 * (ESM for the server, CommonJS for whoever requires it). postgres-null-socket.mjs replays each
 * defect on a fake socket, in a child process because unpatched the first one kills it.
 * The same defects under a real PostgreSQL crash: test/faults/pg-restart.test.ts.
 */
const SCRIPT = fileURLToPath(new URL('./postgres-null-socket.mjs', import.meta.url));

function replay(flavour: 'esm' | 'cjs'): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [SCRIPT, flavour], { timeout: 20_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe('postgres.js patch', () => {
  for (const flavour of ['esm', 'cjs'] as const) {
    it(`survives a lost socket and reconnects (${flavour} build)`, async () => {
      const { code, stdout, stderr } = await replay(flavour);
      expect(stderr, 'unpatched, postgres.js throws TypeError from nextWrite here').not.toMatch(/TypeError/);
      expect(JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}')).toEqual({
        nullSocket: { query: 'rejected CONNECTION_CLOSED', ok: true },
        releaseAfterClose: { queries: ['resolved', 'resolved'], ok: true },
        staleWriteTimer: { cutOff: 'rejected CONNECTION_CLOSED', next: 'resolved', ms: expect.any(Number), ok: true },
        typesFetchCutOff: { query: 'rejected ECONNREFUSED', unhandled: [], ok: true },
        staleErrorReplay: { killed: 'rejected CONNECTION_CLOSED', next: 'resolved', ok: true },
        refusedWhileStarting: { killed: 'rejected CONNECTION_CLOSED', refused: 'rejected 57P03', attempts: 1, ok: true },
      });
      expect(code).toBe(0);
    });
  }
});
