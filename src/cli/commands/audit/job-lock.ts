// A job's lock and journal in a PostgreSQL history, as `rsapi audit` takes them before anything is sent: every runner
// of the job (another CI machine, another HOME) meets them there. A second runner waits (--lock-wait) or is refused in
// audit's words; the journal is read and written as the file journal is (journal.ts's JournalStore).
import { describeOwner } from '../../../config/lock-file.js';
import type { JobHolder, JobLock } from '../../../history/postgres.js';
import type { HistoryLocation } from '../../../history/location.js';
import type { CommandContext } from '../../runtime/context.js';
import { UsageError } from '../../runtime/errors.js';
import { forStderr } from '../../terminal/stderr.js';
import { JournalWriteError, type JournalStore } from '../reports/create/journal.js';

/** Where the job's lock and journal are in a PostgreSQL history: the history, and the job's key there (job and service). */
export interface JobInHistory {
  location: Extract<HistoryLocation, { kind: 'postgres' }>;
  key: string;
  /** How long a second runner waits for the first to end (ms; 0: it is refused at once). */
  waitMs: number;
}

/**
 * Takes the job's lock in the history, waiting up to `waitMs` for a runner that holds it (said once on stderr).
 * Refused (exit 2) naming the runner that holds it when the wait runs out; undefined when Ctrl-C ended the wait.
 */
export async function lockJobInHistory(ctx: CommandContext, job: string, where: JobInHistory): Promise<JobLock | undefined> {
  const { location, key, waitMs } = where;
  // Loaded only for a PostgreSQL history (the driver loads pg only once it connects).
  const { JobLock } = await import('../../../history/postgres.js');
  const attempt = await JobLock.take(
    location,
    { key, name: job },
    {
      waitMs,
      signal: ctx.signal,
      notice: (line) => ctx.note(line),
      onWait: (holder) => ctx.note(forStderr(`rsapi: ${running(job, holder)}: waiting up to ${minutes(waitMs)} for it to end`)),
    },
  );
  if ('held' in attempt) return attempt.held;
  if (ctx.signal.aborted) return undefined;
  throw new UsageError(`${running(job, attempt.holder)}; its lock is in the history ${location.shown}`, {
    hint: 'wait for it (--lock-wait 30m waits up to 30 minutes), or give this one another job with --job',
  });
}

/** `another \`rsapi audit\` of job shop is running (pid 4242 on host ci-7 since … (40 s ago))`. */
function running(job: string, holder: JobHolder | undefined): string {
  const who = holder === undefined ? 'a runner just starting' : describeOwner(holder);
  return `another \`rsapi audit\` of job ${job} is running (${who})`;
}

function minutes(ms: number): string {
  const whole = Math.round(ms / 60_000);
  return whole === 1 ? '1 minute' : `${whole} minutes`;
}

/** How messages name a journal in the history: `resuming the journal of job shop in postgres://u:***@db/rsapi …`. */
export function historyJournalName(job: string, shown: string): string {
  return `of job ${job} in ${shown}`;
}

/**
 * The job's journal as lines of the history, written through the lock's connection: a line is in the history before
 * the request it announces goes out (the run awaits it). The lock is the audit's to release, not the journal's.
 */
export class HistoryJournalStore implements JournalStore {
  readonly name: string;

  constructor(
    private readonly lock: JobLock,
    job: string,
    shown: string,
  ) {
    this.name = historyJournalName(job, shown);
  }

  async read(): Promise<{ text: string; torn: boolean }> {
    const lines = await this.lock.lines();
    return { text: lines.map((line) => `${line}\n`).join(''), torn: false };
  }

  replace(lines: readonly string[]): Promise<void> {
    return this.lock.replace(lines);
  }

  async append(text: string): Promise<void> {
    try {
      await this.lock.append(text.replace(/\n$/, ''));
    } catch (error) {
      throw new JournalWriteError(this.name, error instanceof Error ? error.message : String(error), {
        cause: error,
        hint: 'once the history answers, run `rsapi audit` again: its journal resumes the run',
      });
    }
  }

  close(): void {}
}
