// Recording one run: its row written when it starts, the snapshots of the reports it reads committed page by page,
// its end (exit code, complete) written last. A history that fails is said once and never costs the run its output.
import type { ApiRecord } from '../api/model/record.js';
import { HistoryError } from './errors.js';
import { ChecksEncoder, readingOf, snapshotOfReading } from './snapshot.js';
import type { HistoryStore, NewRun, Reading, ShareEnd } from './types.js';

/** How long a write may go unanswered before the history is given up for the run (the contract's 10 s). */
export const WRITE_TIMEOUT_MS = 10_000;
/**
 * After Ctrl-C or SIGTERM, how long a write under way and the run's end may still take: a store that answers marks the
 * run interrupted, a silent one costs the user no more than this.
 */
const INTERRUPTED_GRACE_MS = 200;
/**
 * How long the pages read are gathered into one write on a SQLite file. Each commit there costs the reading's own
 * thread about 2 ms (a page of 100 reports, 10,000 of them: 100 commits, ~40% of the history's cost; issue 35's
 * budget is 1.15x the run without --record). A run killed in the meantime loses at most these last pages; a page read
 * more slowly than this is still written on its own. PostgreSQL writes a page in one round trip the reading does not
 * wait for: each as it comes.
 */
export const SQLITE_GATHER_MS = 50;
/** A write of no more than this many readings, however fast the pages come. */
const GATHER_AT_MOST = 1_000;

export interface RecorderOptions {
  /** The bound on each write (default WRITE_TIMEOUT_MS). */
  timeoutMs?: number;
  /** The run's abort signal: once raised, no wait on the store lasts longer than INTERRUPTED_GRACE_MS. */
  signal?: AbortSignal;
}

/** RSAPI_HISTORY_TIMEOUT_MS, which tests set to meet the bound in less than 10 s; anything else: the default. */
export function writeTimeoutOf(env: Record<string, string | undefined>): number {
  const ms = Number(env.RSAPI_HISTORY_TIMEOUT_MS);
  return Number.isInteger(ms) && ms > 0 ? ms : WRITE_TIMEOUT_MS;
}

/**
 * What a history that failed part-way holds of the run: its row and the pages written before the failure. The run stays
 * incomplete (never a baseline), its pages kept.
 */
export interface KeptRun {
  run: number;
  pages: number;
}

/** The waits on the store ended by the run's interruption: nothing more is written, and nothing is said. */
class Interrupted extends Error {}

/**
 * The run's writes, in order, on a queue the reading never waits on (add, flush and record return at once): a store
 * that is slow or silent holds back nothing but the end of the run, and that by WRITE_TIMEOUT_MS at most.
 */
export class RunRecorder {
  /** The readings of the reports added since the last flush: made at once, so that no record is kept for the write. */
  private pending: Reading[] = [];
  /** The run's check set, kept from one report to the next. */
  private readonly encoder = new ChecksEncoder();
  /** SQLite: pages flushed, waiting (at most SQLITE_GATHER_MS) to be written together. */
  private gathered: Reading[] = [];
  private gathering: ReturnType<typeof setTimeout> | undefined;
  /** The writes queued so far, one after another; settles when the last has (never rejects). */
  private writing: Promise<void>;
  private store: HistoryStore | undefined;
  private runId: number | undefined;
  /** The readings the store has written for this run so far. */
  private written = 0;
  private finished = false;
  /** Interrupted, or given up: the queue writes nothing more. */
  private stopped = false;
  private readonly origin: string;
  private readonly timeoutMs: number;
  private readonly signal: AbortSignal | undefined;
  /** What went wrong with the history, once it did: nothing more is written. */
  failure: HistoryError | undefined;
  /** Ctrl-C or SIGTERM ended a wait on the store: the run's end was not written. */
  interrupted = false;

  private constructor(
    open: () => Promise<HistoryStore>,
    run: NewRun,
    private readonly onFailure: (error: HistoryError, kept: KeptRun | undefined) => void,
    options: RecorderOptions,
  ) {
    this.origin = run.origin;
    this.timeoutMs = options.timeoutMs ?? WRITE_TIMEOUT_MS;
    this.signal = options.signal;
    this.writing = this.step(async () => {
      const opening = open();
      let store: HistoryStore;
      try {
        store = await this.answered(opening);
      } catch (error) {
        // A store that opens after the wait for it ended is closed then.
        opening
          .then(
            (late) => late.close(),
            () => {},
          )
          .catch(() => {});
        throw error;
      }
      this.store = store;
      this.runId = await this.answered(store.startRun(run));
    });
  }

  /**
   * Starts the run's record: its store is opened and the run's row written on the queue, while the command reads. A
   * store that cannot be opened fails the recorder (said once); the command goes on all the same.
   */
  static start(
    open: () => Promise<HistoryStore>,
    run: NewRun,
    onFailure: (error: HistoryError, kept: KeptRun | undefined) => void,
    options: RecorderOptions = {},
  ): RunRecorder {
    return new RunRecorder(open, run, onFailure, options);
  }

  /** The run's id in the store, once its row is written; undefined before, or when the store could not be used. */
  get id(): number | undefined {
    return this.runId;
  }

  /** Once the history failed after the run's row was written: the run, kept incomplete, and its pages written. */
  get kept(): KeptRun | undefined {
    return this.failure && this.runId !== undefined ? { run: this.runId, pages: this.written } : undefined;
  }

  /** Keeps the report for the next flush. */
  add(record: ApiRecord): void {
    const reading = this.readingOf(record);
    if (reading) this.addReading(reading);
  }

  /** A record's reading as `add` makes it, for `addReading` later: what the history keeps, without the record. */
  readingOf(record: ApiRecord): Reading | undefined {
    return readingOf(record, this.encoder);
  }

  /** Keeps a reading (readingOf's) for the next flush. */
  addReading(reading: Reading): void {
    if (this.failure || this.finished || this.stopped) return;
    this.pending.push(reading);
  }

  /**
   * Queues what was added as one write (one transaction; on PostgreSQL one round trip); on SQLite, with the other pages
   * flushed within SQLITE_GATHER_MS. Returns at once, never throws.
   */
  flush(): void {
    if (this.pending.length === 0) return;
    this.gathered.push(...this.pending);
    this.pending = [];
    // Before the store is open, each page is a write of its own, as on PostgreSQL.
    if (this.store?.kind !== 'sqlite' || this.gathered.length >= GATHER_AT_MOST) this.write();
    else this.gathering ??= setTimeout(() => this.write(), SQLITE_GATHER_MS);
  }

  /** Queues the pages gathered as one write. */
  private write(): void {
    clearTimeout(this.gathering);
    this.gathering = undefined;
    if (this.gathered.length === 0) return;
    const batch = this.gathered;
    this.gathered = [];
    const { origin } = this;
    this.writing = this.writing.then(() =>
      this.step(async () => {
        const { store, runId } = this;
        if (!store || runId === undefined) return;
        await this.answered(
          store.addSnapshots(
            runId,
            batch.map((reading) => snapshotOfReading(reading, origin)),
          ),
        );
        this.written += batch.length;
      }),
    );
  }

  /** Adds one report (a create's, as it is done) and queues its write. */
  record(record: ApiRecord): void {
    this.add(record);
    this.flush();
  }

  /**
   * Writes the run's end once the queue is through (a pipeline's share: its URLs, `share`, with it), and closes the
   * store; the failure, if the history failed at any point. A store given up (or a run interrupted and its store
   * silent) is left as it is: its run stays incomplete.
   */
  async finish(exitCode: number, complete: boolean, now: Date, share?: ShareEnd): Promise<HistoryError | undefined> {
    if (this.finished) return this.failure;
    this.flush();
    this.write();
    this.finished = true;
    await this.writing;
    const { store, runId } = this;
    if (store && runId !== undefined && !this.failure && !this.stopped) {
      await this.step(() => this.answered(store.finishRun(runId, { finished: now.toISOString(), exitCode, complete: complete && !this.failure, share })));
    }
    // A store let go of (abandon) is no longer this.store; closing is a wait on the store like any other.
    this.store = undefined;
    if (store && !this.stopped) await this.answered(store.close()).catch(() => {});
    return this.failure;
  }

  /** One write of the queue: skipped once the history failed or stopped; what it throws is kept, never rethrown. */
  private async step(work: () => Promise<void>): Promise<void> {
    if (this.failure || this.stopped) return;
    try {
      await work();
    } catch (error) {
      if (error instanceof Interrupted) this.interrupted = true;
      else this.fail(error);
      if (this.stopped) this.abandon();
    }
  }

  /**
   * Lets go of a store that did not answer, without waiting for it: closing may wait for the write under way too.
   * Closed now, a SQLite file's wait for another's lock ends here rather than at its own deadline.
   */
  private abandon(): void {
    const { store } = this;
    this.store = undefined;
    void store?.close().catch(() => {});
  }

  /**
   * `work`'s answer, or a HistoryError once it has not come within the bound (the history is given up); after the
   * run's interruption, Interrupted once INTERRUPTED_GRACE_MS more have passed. The work itself is not cancelled.
   */
  private answered<T>(work: Promise<T>): Promise<T> {
    // A write answered after it was given up must not become an unhandled rejection.
    work.catch(() => {});
    const { signal, timeoutMs } = this;
    return new Promise<T>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      const giveUp = (error: Error) => {
        done();
        this.stopped = true;
        reject(error);
      };
      const where = this.store ? ` ${this.store.where}` : '';
      timer = setTimeout(() => giveUp(new HistoryError(`the history${where} did not answer within ${seconds(timeoutMs)}`, 'unreachable')), timeoutMs);
      const onAbort = () => {
        clearTimeout(timer);
        timer = setTimeout(() => giveUp(new Interrupted()), INTERRUPTED_GRACE_MS);
      };
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
      work.then(
        (value) => {
          done();
          resolve(value);
        },
        (error: unknown) => {
          done();
          reject(error);
        },
      );
    });
  }

  private fail(error: unknown): void {
    if (this.failure) return;
    this.failure =
      error instanceof HistoryError
        ? error
        : new HistoryError(`the history failed: ${error instanceof Error ? error.message : String(error)}`, 'failed', { cause: error });
    // A run whose row was written stays in the history, incomplete, with the pages written before the failure.
    this.onFailure(this.failure, this.kept);
  }
}

/** `10 s`, `1.5 s`, `300 ms`. */
function seconds(ms: number): string {
  return ms >= 1000 ? `${ms / 1000} s` : `${ms} ms`;
}
