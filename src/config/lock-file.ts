// Lock files (`PATH.lock` naming its owner: pid, host, the process's start time, since when) that keep one writer at a
// time on a file: taken at once or waited for; a lock whose process is not the one that took it is taken over, by one
// process alone.

/**
 * node:fs when a lock is first taken, not imported: the program makes its LockFiles at start-up, and an ES import of
 * node:fs reads every export, fs.promises (and readline behind it) included, for every command (`--help` too).
 */
function fs(): typeof import('node:fs') {
  return process.getBuiltinModule('node:fs');
}

/** node:os when first needed, for the same reason. */
function os(): typeof import('node:os') {
  return process.getBuiltinModule('node:os');
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Who holds a lock, as its file says (older versions wrote the pid alone). */
export interface LockOwner {
  pid: number;
  host?: string;
  /** The process's start time (Linux: clock ticks since boot, /proc/PID/stat field 22): a reused pid has another. */
  start?: string;
  /** When it was taken (ISO 8601). */
  since?: string;
}

/** A lock taken over from a process that no longer holds it: who that was, and why it was judged gone. */
export interface TakenOver {
  owner: LockOwner | undefined;
  why: string;
}

/** A lock this process holds. */
export interface HeldLock {
  readonly path: string;
  /** The lock it replaced, when it took over a stale one: a caller says so in one line (takeOverLine). */
  readonly tookOver?: TakenOver;
  /** Lets go of it; a second call does nothing. */
  release(): void;
}

/**
 * The outcome of one try: the lock, or who holds it (pid 0: a lock just being written, or unreadable but fresh), with
 * what its file says of the holder when it says more than the pid.
 */
export type LockAttempt = { held: HeldLock } | { holder: number; owner?: LockOwner };

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
    let tookOver: TakenOver | undefined;
    for (let tries = 0; tries < 3; tries++) {
      try {
        const fd = fs().openSync(lockPath, 'wx', 0o600);
        // The owner's lines say who holds it; the token tells this holding from any other, a later process's of the same pid too.
        const text = ownerText(globalThis.crypto.randomUUID());
        try {
          fs().writeSync(fd, text);
        } finally {
          fs().closeSync(fd);
        }
        this.held.set(lockPath, text);
        // Kept fresh while held: a lock seen from another host is judged by this alone (judge).
        const heartbeat = setInterval(() => touch(lockPath, text), HEARTBEAT_MS);
        heartbeat.unref();
        const release = () => {
          clearInterval(heartbeat);
          this.release(lockPath, text);
        };
        return { held: { path: lockPath, ...(tookOver && { tookOver }), release } };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const seen = lockSnapshot(lockPath);
      if (seen === undefined) continue; // released meanwhile: try again
      const verdict = this.judge(lockPath, seen);
      if ('holder' in verdict) return verdict;
      takeOver(lockPath, seen);
      tookOver = { owner: ownerOf(seen.text), why: verdict.stale };
    }
    const seen = lockSnapshot(lockPath);
    const verdict = seen && this.judge(lockPath, seen);
    return verdict && 'holder' in verdict ? verdict : { holder: 0 };
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

  /**
   * Whether the process that took the lock still holds it: its pid (0 for a lock too fresh to have its pid yet), or
   * why it is stale. On this host: the pid is alive and, where the lock and the system say, started when the lock
   * says (else the pid was reused). From another host (a history carried between runners, a shared disk): the holder
   * keeps the file fresh, so one left unrefreshed is stale.
   */
  private judge(lockPath: string, seen: LockSnapshot): { holder: number; owner?: LockOwner } | { stale: string } {
    const owner = ownerOf(seen.text);
    if (owner === undefined) return Date.now() - seen.mtimeMs < 5_000 ? { holder: 0 } : { stale: 'it names no process' };
    const { pid } = owner;
    const held = { holder: pid, owner };
    if (owner.host !== undefined && owner.host !== os().hostname()) {
      const idle = Date.now() - seen.mtimeMs;
      return idle < OTHER_HOST_STALE_MS ? held : { stale: `its host ${owner.host} has not kept it fresh for ${Math.round(idle / 1000)} s` };
    }
    if (pid === process.pid) return this.held.has(lockPath) ? held : { stale: `it was left by an earlier process of pid ${pid}` };
    try {
      process.kill(pid, 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EPERM') return { stale: `its process (pid ${pid}) is gone` };
    }
    const start = owner.start === undefined ? undefined : processStart(pid);
    if (start !== undefined && start !== owner.start) return { stale: `pid ${pid} is another process now (it started at another time)` };
    return held;
  }
}

/** How often a held lock's file is touched, and how long one from another host may go untouched before it is stale. */
const HEARTBEAT_MS = 15_000;
const OTHER_HOST_STALE_MS = 120_000;

/** The lock's text: the pid first (older versions read that line alone), the token, then who and since when. */
function ownerText(token: string): string {
  const start = processStart(process.pid);
  const lines = [
    String(process.pid),
    token,
    `host ${os().hostname()}`,
    ...(start === undefined ? [] : [`start ${start}`]),
    `since ${new Date().toISOString()}`,
  ];
  return `${lines.join('\n')}\n`;
}

/** Who a lock's text names; undefined when its first line is no pid. */
function ownerOf(text: string): LockOwner | undefined {
  const [first, , ...rest] = text.split('\n');
  const pid = Number(first?.trim());
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  const field = (name: string) => rest.find((line) => line.startsWith(`${name} `))?.slice(name.length + 1);
  const owner: LockOwner = { pid };
  for (const name of ['host', 'start', 'since'] as const) {
    const value = field(name);
    if (value !== undefined) owner[name] = value;
  }
  return owner;
}

/**
 * When a process started, as Linux counts it (clock ticks since boot: /proc/PID/stat field 22), or undefined where
 * that cannot be read (another system, a process gone). Fields 3 on follow the last `)`: the name (field 2) may hold
 * spaces and parentheses.
 */
export function processStart(pid: number): string | undefined {
  try {
    const stat = fs().readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[22 - 3];
  } catch {
    return undefined;
  }
}

/** Keeps a held lock's file fresh: its time set to now, while it still holds this holding's text. */
function touch(lockPath: string, text: string): void {
  try {
    if (lockSnapshot(lockPath)?.text !== text) return;
    const now = new Date();
    fs().utimesSync(lockPath, now, now);
  } catch {
    // gone: nothing to keep fresh
  }
}

/**
 * Who held a lock and since when, in words: `pid 4242 on host ci-7 since 2024-05-06T06:00:00.000Z (2 d ago)`. The
 * age is said from `now`.
 */
export function describeOwner(owner: LockOwner, now = Date.now()): string {
  const host = owner.host === undefined ? '' : ` on host ${owner.host}`;
  const sinceMs = owner.since === undefined ? Number.NaN : Date.parse(owner.since);
  const since = Number.isNaN(sinceMs) ? '' : ` since ${owner.since} (${age(now - sinceMs)} ago)`;
  return `pid ${owner.pid}${host}${since}`;
}

/** `rsapi: took over the lock PATH of pid 4242 on host ci-7 since … (2 d ago): its process (pid 4242) is gone`. */
export function takeOverLine(lockPath: string, taken: TakenOver): string {
  const of = taken.owner === undefined ? '' : ` of ${describeOwner(taken.owner)}`;
  return `rsapi: took over the lock ${lockPath}${of}: ${taken.why}`;
}

/** A duration in its largest whole unit: `40 s`, `12 min`, `5 h`, `2 d`. */
function age(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 120) return `${s} s`;
  if (s < 7200) return `${Math.round(s / 60)} min`;
  if (s < 172_800) return `${Math.round(s / 3600)} h`;
  return `${Math.round(s / 86_400)} d`;
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
