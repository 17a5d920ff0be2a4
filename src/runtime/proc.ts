import { readdirSync, readFileSync } from 'node:fs';

/*
 * Miniflare starts workerd as a child process and keeps its handle private. The runtime needs
 * the process id to watch its memory, so it reads Linux's /proc: the children of this process
 * named `workerd`. Elsewhere (no /proc) these answer nothing and the memory cap is not enforced;
 * the deadline still is.
 */

function statFields(pid: string): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may hold spaces; fields resume after the last `)`.
    const close = stat.lastIndexOf(')');
    return [stat.slice(stat.indexOf('(') + 1, close), ...stat.slice(close + 2).split(' ')];
  } catch {
    return undefined;
  }
}

/** Process ids of this process's children whose command is `name`. */
export function childPids(name: string): Set<number> {
  const found = new Set<number>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return found;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = statFields(entry);
    // fields: [comm, state, ppid, ...]
    if (fields && fields[0] === name && Number(fields[2]) === process.pid) found.add(Number(entry));
  }
  return found;
}

/** Resident memory of `pid` in bytes, or undefined once the process is gone. */
export function residentBytes(pid: number): number | undefined {
  try {
    const match = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}
