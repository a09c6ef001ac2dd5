import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

export class DataDirLockedError extends Error {}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * An exclusive lock file in the data directory: two processes on one PGlite
 * directory corrupt it. A lock left by a dead process on this host is
 * taken over; one held by a live process refuses the start.
 */
export class DataDirLock {
  private readonly path: string;
  private held = false;

  constructor(dataDir: string) {
    this.path = join(dataDir, 'service.lock');
  }

  acquire(): void {
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const fd = openSync(this.path, 'wx', 0o600);
        writeSync(
          fd,
          JSON.stringify({ pid: process.pid, host: hostname(), since: new Date().toISOString() }),
        );
        closeSync(fd);
        this.held = true;
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const refusal = this.refusal();
        if (refusal) throw refusal;
        unlinkSync(this.path);
      }
    }
    throw new DataDirLockedError(`Could not take the lock ${this.path}`);
  }

  /**
   * The error a start would meet because a live process holds the lock, or
   * undefined when the lock is free or stale. Takes nothing.
   */
  refusal(): DataDirLockedError | undefined {
    const owner = this.readOwner();
    const stale =
      owner === undefined ||
      (owner.host === hostname() && (owner.pid === process.pid || !isAlive(owner.pid)));
    if (stale) return undefined;
    return new DataDirLockedError(
      `The data directory ${this.path.replace(/\/service\.lock$/, '')} is in use by process ${owner.pid} on ${owner.host}. ` +
        'Stop that process, or give this one another DATA_DIR (the embedded database allows one process per directory).',
    );
  }

  release(): void {
    if (!this.held) return;
    this.held = false;
    try {
      unlinkSync(this.path);
    } catch {
      // Already gone: nothing to release.
    }
  }

  private readOwner(): { pid: number; host: string } | undefined {
    try {
      const parsed = JSON.parse(readFileSync(this.path, 'utf8')) as {
        pid?: unknown;
        host?: unknown;
      };
      if (typeof parsed.pid === 'number' && typeof parsed.host === 'string') {
        return { pid: parsed.pid, host: parsed.host };
      }
    } catch {
      // Unreadable or half-written: treated as stale.
    }
    return undefined;
  }
}
