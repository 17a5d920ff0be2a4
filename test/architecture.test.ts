import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The import rules of `.dependency-cruiser.cjs`, run as CI runs them. The second test plants
 * violations in a scratch tree, so a rule that stopped matching would fail here too.
 */
const ROOT = process.cwd();
const CONFIG = resolve(ROOT, '.dependency-cruiser.cjs');
const BIN = resolve(ROOT, 'node_modules/.bin/depcruise');

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

function cruise(cwd: string): Violation[] {
  const run = spawnSync(BIN, ['src', '--config', CONFIG, '--output-type', 'json'], { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (!run.stdout) throw new Error(`depcruise printed nothing: ${run.stderr}`);
  return (JSON.parse(run.stdout) as { summary: { violations: Violation[] } }).summary.violations;
}

describe('architecture', () => {
  it('has no import cycle and no import against the declared direction in src/', () => {
    expect(cruise(ROOT).map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`)).toEqual([]);
  });

  it('catches a cycle, an upward import, SQL in an adapter and a service calling a higher module', () => {
    const dir = mkdtempSync(join(tmpdir(), 'quire-arch-'));
    const files: Record<string, string> = {
      'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'ESNext', moduleResolution: 'Bundler', strict: true } }),
      'src/main.ts': "import './domain/a';\nimport './lib/ids';\nimport './modules/spaces/rest';\nimport './modules/users/service';\n",
      'src/domain/a.ts': "import { b } from './b';\nexport const a = 1 + b;\n",
      'src/domain/b.ts': "import { a } from './a';\nexport const b = () => a;\n",
      'src/lib/ids.ts': "import { listSpaces } from '../modules/spaces/service';\nexport const ids = listSpaces;\n",
      'src/db/client.ts': 'export const db = {};\n',
      'src/modules/spaces/service.ts': 'export const listSpaces = () => [];\n',
      'src/modules/spaces/rest.ts': "import { db } from '../../db/client';\nexport const routes = db;\n",
      'src/modules/users/service.ts': "import { listSpaces } from '../spaces/service';\nexport const getUser = listSpaces;\n",
    };
    try {
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), text);
      }
      const found = new Set(cruise(dir).map((v) => v.rule.name));
      expect([...found]).toEqual(expect.arrayContaining(['no-circular', 'not-in-allowed', 'no-sql-in-adapters', 'module-order-users']));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
