/**
 * The folder-level import rules of Quire, beside the file-level ones of .dependency-cruiser.cjs:
 *
 * - no cycle between folders (a module's folder, or one of src/'s own folders, is one node);
 * - a module imports only the modules before it in MODULE_ORDER (scripts/architecture-rules.cjs);
 * - whatever breaks one of those is listed in ALLOWED, with its reason, and an entry of ALLOWED
 *   that nothing needs any more is an error too, so the list can only shrink.
 *
 * `npm run lint:deps` runs it after dependency-cruiser; test/architecture.test.ts runs the same
 * function. It prints the figures the README quotes.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
export const { MODULE_ORDER, LAYERS, ALLOWED } = require('./architecture-rules.cjs') as {
  MODULE_ORDER: string[];
  LAYERS: string[];
  ALLOWED: { from: string; to: string; why: string }[];
};

export interface Dependency {
  from: string;
  to: string;
}

/** The folder a file of src/ belongs to: `modules/<name>`, `db/schema`, or src/'s own folder. */
export function folderOf(file: string): string {
  const path = file.replace(/^src\//, '');
  if (path.startsWith('modules/')) return path.split('/').slice(0, 2).join('/');
  if (path.startsWith('db/schema/')) return 'db/schema';
  return path.includes('/') ? path.split('/')[0] : path.replace(/\.ts$/, '');
}

/** The floor of a folder in LAYERS (modules share theirs), for counting imports that climb. */
function floorOf(folder: string): number {
  const layer = folder.startsWith('modules/') ? 'modules' : folder === 'main' ? 'app' : folder;
  const index = LAYERS.indexOf(layer);
  return index < 0 ? -1 : LAYERS.length - index;
}

export interface Cruise {
  /** Every import between files of src/, as dependency-cruiser resolves them (type-only ones included). */
  dependencies: Dependency[];
  /** What the file rules of .dependency-cruiser.cjs refuse, `rule: from -> to`. */
  violations: string[];
}

/** One run of dependency-cruiser over `root`'s src/, with the rules and binary of `tools`. */
export function cruise(root: string, tools = root): Cruise {
  const bin = resolve(tools, 'node_modules/.bin/depcruise');
  const run = spawnSync(bin, ['src', '--config', resolve(tools, '.dependency-cruiser.cjs'), '--output-type', 'json'], { cwd: root, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (!run.stdout) throw new Error(`depcruise printed nothing: ${run.stderr}`);
  const result = JSON.parse(run.stdout) as {
    modules: { source: string; dependencies: { resolved: string }[] }[];
    summary: { violations: { rule: { name: string }; from: string; to: string }[] };
  };
  return {
    dependencies: result.modules.flatMap((m) => m.dependencies.filter((d) => d.resolved.startsWith('src/')).map((d) => ({ from: m.source, to: d.resolved }))),
    violations: result.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`),
  };
}

export interface FolderReport {
  /** Folder -> folders it imports. */
  edges: Map<string, Set<string>>;
  /** Pairs of folders that import each other, `a <-> b`. */
  mutualPairs: string[];
  /** Imports from a folder to one on a higher floor, `a -> b`, each pair of folders once. */
  upward: string[];
  /** Module imports against MODULE_ORDER, `modules/a -> modules/b (file -> file)`. */
  orderBreaks: { from: string; to: string; files: string[] }[];
  /** Folder cycles (strongly connected sets of more than one folder). */
  cycles: string[][];
}

export function folderReport(dependencies: Dependency[]): FolderReport {
  const edges = new Map<string, Set<string>>();
  const orderBreaks = new Map<string, { from: string; to: string; files: string[] }>();
  for (const { from, to } of dependencies) {
    const a = folderOf(from);
    const b = folderOf(to);
    if (a === b) continue;
    if (!edges.has(a)) edges.set(a, new Set());
    edges.get(a)!.add(b);
    if (a.startsWith('modules/') && b.startsWith('modules/')) {
      const [ma, mb] = [a.slice(8), b.slice(8)];
      if (MODULE_ORDER.indexOf(mb) > MODULE_ORDER.indexOf(ma)) {
        const key = `${a} -> ${b}`;
        if (!orderBreaks.has(key)) orderBreaks.set(key, { from: a, to: b, files: [] });
        orderBreaks.get(key)!.files.push(`${from} -> ${to}`);
      }
    }
  }
  const mutualPairs: string[] = [];
  const upward: string[] = [];
  for (const [a, targets] of edges) {
    for (const b of targets) {
      if (a < b && edges.get(b)?.has(a)) mutualPairs.push(`${a} <-> ${b}`);
      const climbs = floorOf(b) > floorOf(a) || (a.startsWith('modules/') && b.startsWith('modules/') && MODULE_ORDER.indexOf(b.slice(8)) > MODULE_ORDER.indexOf(a.slice(8)));
      if (climbs) upward.push(`${a} -> ${b}`);
    }
  }
  return { edges, mutualPairs: mutualPairs.sort(), upward: upward.sort(), orderBreaks: [...orderBreaks.values()], cycles: stronglyConnected(edges) };
}

/** Tarjan's algorithm, iterative over the folder graph (a few dozen nodes). */
function stronglyConnected(edges: Map<string, Set<string>>): string[][] {
  const nodes = new Set<string>([...edges.keys(), ...[...edges.values()].flatMap((s) => [...s])]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const result: string[][] = [];
  let counter = 0;
  for (const start of nodes) {
    if (index.has(start)) continue;
    const work: { node: string; next: string[] }[] = [];
    const enter = (node: string) => {
      index.set(node, counter);
      low.set(node, counter++);
      stack.push(node);
      onStack.add(node);
      work.push({ node, next: [...(edges.get(node) ?? [])] });
    };
    enter(start);
    while (work.length) {
      const top = work[work.length - 1];
      const child = top.next.shift();
      if (child !== undefined) {
        if (!index.has(child)) enter(child);
        else if (onStack.has(child)) low.set(top.node, Math.min(low.get(top.node)!, index.get(child)!));
        continue;
      }
      work.pop();
      if (work.length) low.set(work[work.length - 1].node, Math.min(low.get(work[work.length - 1].node)!, low.get(top.node)!));
      if (low.get(top.node) === index.get(top.node)) {
        const set: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          set.push(member);
        } while (member !== top.node);
        if (set.length > 1) result.push(set.sort());
      }
    }
  }
  return result;
}

export interface ArchitectureVerdict {
  report: FolderReport;
  /** Folder imports that break a rule and are not allowed, `a -> b: file -> file`. */
  errors: string[];
  /** Entries of ALLOWED that no import needs any more. */
  stale: string[];
}

/** The folder rules held against the code: what breaks them and is not allowed, and allowances no longer needed. */
export function checkArchitecture(dependencies: Dependency[]): ArchitectureVerdict {
  const report = folderReport(dependencies);
  const allowed = (from: string, to: string) => ALLOWED.some((a) => a.from === from && a.to === to);
  const needed = new Set<string>();
  const errors: string[] = [];
  for (const brk of report.orderBreaks) {
    if (allowed(brk.from, brk.to)) needed.add(`${brk.from} -> ${brk.to}`);
    else errors.push(`module order: ${brk.from} -> ${brk.to} (${brk.files.join(', ')})`);
  }
  for (const pair of report.mutualPairs) {
    const [a, b] = pair.split(' <-> ');
    if (allowed(a, b)) needed.add(`${a} -> ${b}`);
    else if (allowed(b, a)) needed.add(`${b} -> ${a}`);
    else errors.push(`folders import each other: ${pair}`);
  }
  const stale = ALLOWED.map((a) => `${a.from} -> ${a.to}`).filter((key) => !needed.has(key));
  return { report, errors, stale };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const { report, errors, stale } = checkArchitecture(cruise(process.cwd()).dependencies);
  const arrows = [...report.edges.values()].reduce((n, s) => n + s.size, 0);
  console.log(
    `folders: ${report.edges.size}, folder imports: ${arrows}, climbing: ${report.upward.length}, pairs importing each other: ${report.mutualPairs.length}, folder cycles: ${report.cycles.length}, allowed exceptions: ${ALLOWED.length}`,
  );
  for (const line of errors) console.log(`  error  ${line}`);
  for (const line of stale) console.log(`  error  allowed but no longer needed (remove it from scripts/architecture-rules.cjs): ${line}`);
  if (errors.length || stale.length) process.exit(1);
}
