// Lock files (`PATH.lock` holding the owner's pid) that keep one writer at a time on a file: taken at once or waited for; a dead owner's lock is taken over.

/**
 * node:fs when a lock is first taken, not imported: the program makes its LockFiles at start-up, and an ES import of
 * node:fs reads every export, fs.promises (and readline behind it) included, for every command (`--help` too).
 */
function fs(): typeof import('node:fs') {
  return process.getBuiltinModule('node:fs');
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A lock this process holds. */
export interface HeldLock {
  readonly path: string;
  release(): void;
}

/** The outcome of one try: the lock, or who holds it (pid 0: a lock just being written, or unreadable but fresh). */
export type LockAttempt = { held: HeldLock } | { holder: number };

/**
 * The lock files one process holds, and taking and releasing them. Its own pid in a lock file it does not hold is
 * left from an earlier process (a reused pid). One per process: invocations that run side by side in one process
 * (in-process tests) share it, or each would take the other's lock for a stale one.
 */
export class LockFiles {
  private readonly held = new Set<string>();

  /**
   * Tries once to take `lockPath`. A lock whose process is gone (a killed run) is stale: it is removed and
   * taken. Errors other than "already locked" (no such directory, permission) are thrown as they are.
   */
  tryLock(lockPath: string): LockAttempt {
    for (let tries = 0; tries < 2; tries++) {
      try {
        const fd = fs().openSync(lockPath, 'wx', 0o600);
        try {
          fs().writeSync(fd, `${process.pid}\n`);
        } finally {
          fs().closeSync(fd);
        }
        this.held.add(lockPath);
        return { held: { path: lockPath, release: () => this.release(lockPath) } };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const holder = this.liveHolder(lockPath);
      if (holder !== undefined) return { holder };
      try {
        fs().unlinkSync(lockPath);
      } catch {
        // removed meanwhile by another process taking it over: try again
      }
    }
    return { holder: this.liveHolder(lockPath) ?? 0 };
  }

  /** Runs `work` holding `lockPath`, waiting (a few ms at a time) up to `waitMs` for another holder to let go. */
  async withLock<T>(lockPath: string, waitMs: number, work: () => Promise<T> | T, onTimeout: (holder: number) => Error): Promise<T> {
    const deadline = Date.now() + waitMs;
    for (;;) {
      const attempt = this.tryLock(lockPath);
      if ('held' in attempt) {
        try {
          return await work();
        } finally {
          attempt.held.release();
        }
      }
      if (Date.now() >= deadline) throw onTimeout(attempt.holder);
      await sleep(5 + Math.random() * 20);
    }
  }

  private release(lockPath: string): void {
    if (!this.held.delete(lockPath)) return;
    try {
      if (lockPid(lockPath) === process.pid) fs().unlinkSync(lockPath);
    } catch {
      // already gone
    }
  }

  /** The pid of a live process holding the lock, 0 for a lock too fresh to have its pid yet, undefined when stale. */
  private liveHolder(lockPath: string): number | undefined {
    const pid = lockPid(lockPath);
    if (pid === undefined) {
      try {
        return Date.now() - fs().statSync(lockPath).mtimeMs < 5_000 ? 0 : undefined;
      } catch {
        return undefined;
      }
    }
    if (pid === process.pid) return this.held.has(lockPath) ? pid : undefined;
    try {
      process.kill(pid, 0);
      return pid;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'EPERM' ? pid : undefined;
    }
  }
}

function lockPid(lockPath: string): number | undefined {
  try {
    const pid = Number(fs().readFileSync(lockPath, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}
