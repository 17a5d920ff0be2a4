import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkArchitecture, cruise, LAYERS, MODULE_ORDER } from '../scripts/architecture';

/**
 * The import rules, run as CI runs them: the file rules of `.dependency-cruiser.cjs` and the folder
 * rules of scripts/architecture.ts. The planted tree shows each rule still fires, and the README's
 * floors and module order are held to the ones the rules use.
 */
const ROOT = process.cwd();
function plant(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'quire-arch-'));
  const all = { 'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'ESNext', moduleResolution: 'Bundler', strict: true } }), ...files };
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

describe('architecture', () => {
  it('has no import against the file rules, keeps the module order, and no cycle between folders but the allowed ones, each still needed', () => {
    const { dependencies, violations } = cruise(ROOT);
    expect(violations).toEqual([]);
    const { errors, stale } = checkArchitecture(dependencies);
    expect(errors).toEqual([]);
    expect(stale).toEqual([]);
  });

  it('catches a cycle, an upward import, SQL in an adapter, a side door and a module calling a higher one', () => {
    const dir = plant({
      'src/main.ts': "import './domain/a';\nimport './lib/ids';\nimport './modules/spaces/rest';\nimport './modules/users/service';\nimport './modules/users/rest';\n",
      'src/domain/a.ts': "import { b } from './b';\nexport const a = 1 + b;\n",
      'src/domain/b.ts': "import { a } from './a';\nexport const b = () => a;\n",
      'src/lib/ids.ts': "import { listSpaces } from '../modules/spaces/service';\nexport const ids = listSpaces;\n",
      'src/db/client.ts': 'export const db = {};\n',
      'src/modules/spaces/service.ts': "import { spaceQuery } from './queries';\nexport const listSpaces = () => spaceQuery;\n",
      'src/modules/spaces/queries.ts': 'export const spaceQuery = [];\n',
      'src/modules/spaces/rest.ts': "import { db } from '../../db/client';\nexport const routes = db;\n",
      'src/modules/users/service.ts': "import { listSpaces } from '../spaces/service';\nexport const getUser = listSpaces;\n",
      'src/modules/users/rest.ts': "import { spaceQuery } from '../spaces/queries';\nexport const userRoutes = spaceQuery;\n",
    });
    try {
      const { dependencies, violations } = cruise(dir, ROOT);
      const found = new Set(violations.map((v) => v.split(':')[0]));
      expect([...found]).toEqual(expect.arrayContaining(['no-circular', 'not-in-allowed', 'no-sql-in-adapters', 'front-door-only']));
      const { errors } = checkArchitecture(dependencies);
      expect(errors).toEqual(expect.arrayContaining([expect.stringMatching(/^module order: modules\/users -> modules\/spaces/)]));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('catches two folders importing each other', () => {
    const dir = plant({
      'src/main.ts': "import './modules/users/service';\n",
      'src/modules/users/service.ts': "import { teamName } from '../teams/service';\nexport const userName = () => teamName;\n",
      'src/modules/teams/service.ts': "import { userName } from '../users/service';\nexport const teamName = () => userName;\n",
    });
    try {
      expect(checkArchitecture(cruise(dir, ROOT).dependencies).errors).toEqual(expect.arrayContaining(['folders import each other: modules/teams <-> modules/users']));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("matches the README's floors and module order", () => {
    const readme = readFileSync(resolve(ROOT, 'README.md'), 'utf8');
    const names = (label: string) => {
      const start = readme.indexOf(label);
      expect(start, `README has "${label}"`).toBeGreaterThan(-1);
      const paragraph = readme.slice(start, readme.indexOf('\n\n', start));
      return [...paragraph.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
    };
    expect(names('Floors, top to bottom:')).toEqual(LAYERS);
    expect(names('Module order, bottom up:')).toEqual(MODULE_ORDER);
  });
});
