import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

/**
 * PGlite is a database inside one process: two processes on one data directory each believe they
 * own it, and one's acknowledged writes are lost when the other writes its files. A lock file
 * beside the data makes the second process refuse to start instead.
 */
export const LOCK_FILE = 'quire.lock';

interface LockOwner {
  pid: number;
  host: string;
  startedAt: string;
  command: string;
}

/** Another live process holds the directory. The message says who, and what to do. */
export class DataDirInUseError extends Error {
  constructor(dataDir: string, owner: LockOwner) {
    super(
      `the data directory ${dataDir} is in use by another Quire process (pid ${owner.pid}, ${owner.command}, since ${owner.startedAt}); ` +
        'embedded PGlite allows one process per directory: stop that process first (the server stops on Ctrl-C or SIGTERM), ' +
        'or set QUIRE_DATA_DIR to another directory, or use PostgreSQL (DATABASE_URL) to run several processes',
    );
    this.name = 'DataDirInUseError';
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readOwner(path: string): LockOwner | null {
  try {
    const owner = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockOwner>;
    return typeof owner.pid === 'number' ? (owner as LockOwner) : null;
  } catch {
    return null;
  }
}

/**
 * Takes the directory's lock, or throws DataDirInUseError. A lock whose process is gone (a crash,
 * a `kill -9`) or that cannot be read is stale and taken over. Answers the release function.
 */
export function lockDataDir(dataDir: string, command = process.argv.slice(1).join(' ')): () => void {
  const path = join(dataDir, LOCK_FILE);
  const me: LockOwner = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString(), command };
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, JSON.stringify(me));
      closeSync(fd);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 2) throw error;
      const owner = readOwner(path);
      // A lock written on another host (a shared volume) cannot be checked from here: respect it.
      if (owner && owner.pid !== process.pid && (owner.host !== me.host || alive(owner.pid))) throw new DataDirInUseError(dataDir, owner);
      try {
        unlinkSync(path);
      } catch {
        // Another starter removed it first; the next attempt races for it fairly.
      }
    }
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    // Only our own lock: a process that took over a lock we thought stale keeps its own.
    if (readOwner(path)?.pid === process.pid) unlinkSync(path);
  };
}
