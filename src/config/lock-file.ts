// Lock files (`PATH.lock` holding the owner's pid) that keep one writer at a time on a file: taken at once or waited for;
// a dead owner's lock is taken over, by one process alone.

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
  /** Lets go of it; a second call does nothing. */
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
  /** The locks held, each with the text written into it. */
  private readonly held = new Map<string, string>();

  /**
   * Tries once to take `lockPath`. A lock whose process is gone (a killed run) is stale: it is removed and
   * taken, by one process alone however many find it stale at once (takeOver). Errors other than "already locked"
   * (no such directory, permission) are thrown as they are.
   */
  tryLock(lockPath: string): LockAttempt {
    for (let tries = 0; tries < 3; tries++) {
      try {
        const fd = fs().openSync(lockPath, 'wx', 0o600);
        // The pid says who holds it; the token tells this holding from any other, a later process's of the same pid too.
        const text = `${process.pid}\n${globalThis.crypto.randomUUID()}\n`;
        try {
          fs().writeSync(fd, text);
        } finally {
          fs().closeSync(fd);
        }
        this.held.set(lockPath, text);
        return { held: { path: lockPath, release: () => this.release(lockPath, text) } };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const seen = lockSnapshot(lockPath);
      if (seen === undefined) continue; // released meanwhile: try again
      const holder = this.liveHolder(lockPath, seen);
      if (holder !== undefined) return { holder };
      takeOver(lockPath, seen);
    }
    const seen = lockSnapshot(lockPath);
    return { holder: (seen && this.liveHolder(lockPath, seen)) ?? 0 };
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

  /** Lets go of one holding: once only, and never of a later holding of the same path (a HeldLock released twice). */
  private release(lockPath: string, text: string): void {
    if (this.held.get(lockPath) !== text) return;
    this.held.delete(lockPath);
    try {
      if (lockSnapshot(lockPath)?.text === text) fs().unlinkSync(lockPath);
    } catch {
      // already gone
    }
  }

  /** The pid of a live process holding the lock, 0 for a lock too fresh to have its pid yet, undefined when stale. */
  private liveHolder(lockPath: string, seen: LockSnapshot): number | undefined {
    const pid = pidOf(seen.text);
    if (pid === undefined) return Date.now() - seen.mtimeMs < 5_000 ? 0 : undefined;
    if (pid === process.pid) return this.held.has(lockPath) ? pid : undefined;
    try {
      process.kill(pid, 0);
      return pid;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'EPERM' ? pid : undefined;
    }
  }
}

/** A lock file as read once: its text, and which file it was (a lock removed and taken again is another file). */
interface LockSnapshot {
  text: string;
  ino: number;
  mtimeMs: number;
}

function lockSnapshot(lockPath: string): LockSnapshot | undefined {
  try {
    const fd = fs().openSync(lockPath, 'r');
    try {
      const { ino, mtimeMs } = fs().fstatSync(fd);
      return { text: fs().readFileSync(fd, 'utf8'), ino, mtimeMs };
    } finally {
      fs().closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

/**
 * Removes a lock judged stale, unless another process has taken it over meanwhile. Removing by its path alone would
 * be a race: two processes both find the dead run's lock, one removes it and takes the path, and the other, about
 * to remove what it judged stale, would remove that fresh lock and take the path too: two runs on one journal. So
 * the removal of one stale lock (that file, with that content) is claimed by creating `PATH.takeover-INODE`, which
 * one process alone can create; it removes the lock only if the path still holds the file it judged stale, then
 * drops the claim. The others go back to taking the path, which the exclusive create gives to one.
 */
function takeOver(lockPath: string, stale: LockSnapshot): void {
  const claim = `${lockPath}.takeover-${stale.ino}`;
  try {
    fs().closeSync(fs().openSync(claim, 'wx', 0o600));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    dropAbandonedClaim(claim);
    return;
  }
  try {
    const now = lockSnapshot(lockPath);
    if (now !== undefined && now.ino === stale.ino && now.text === stale.text) fs().unlinkSync(lockPath);
  } catch {
    // removed meanwhile: the path is free
  } finally {
    fs().rmSync(claim, { force: true });
  }
}

/** A claim is held for the moment of one removal: one much older was left by a process killed in that moment. */
function dropAbandonedClaim(claim: string): void {
  try {
    if (Date.now() - fs().statSync(claim).mtimeMs > ABANDONED_CLAIM_MS) fs().unlinkSync(claim);
  } catch {
    // gone already
  }
}

const ABANDONED_CLAIM_MS = 10_000;

/** The holder's pid: the first line of the lock (older versions wrote it alone). */
function pidOf(text: string): number | undefined {
  const pid = Number(text.split('\n', 1)[0]?.trim());
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}
