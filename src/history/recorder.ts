// Recording one run: its row written when it starts, the snapshots of the reports it reads committed page by page,
// its end (exit code, complete) written last. A history that fails is said once and never costs the run its output.
import type { ApiRecord } from '../api/http/decode.js';
import { HistoryError } from './errors.js';
import { snapshotOf } from './snapshot.js';
import type { HistoryStore, NewRun } from './types.js';

export class RunRecorder {
  private pending: ApiRecord[] = [];
  private writing: Promise<void> = Promise.resolve();
  private finished = false;
  /** What went wrong with the history, once it did: nothing more is written. */
  failure: HistoryError | undefined;

  private constructor(
    private readonly store: HistoryStore | undefined,
    /** The run's id in the store; undefined when the store could not be used. */
    readonly runId: number | undefined,
    private readonly origin: string,
    private readonly onFailure: (error: HistoryError) => void,
  ) {}

  /** Starts the run's record; a store that could not be opened gives a recorder that has failed already. */
  static async start(open: () => Promise<HistoryStore>, run: NewRun, onFailure: (error: HistoryError) => void): Promise<RunRecorder> {
    let store: HistoryStore | undefined;
    try {
      store = await open();
      const id = await store.startRun(run);
      return new RunRecorder(store, id, run.origin, onFailure);
    } catch (error) {
      await store?.close().catch(() => {});
      const recorder = new RunRecorder(undefined, undefined, run.origin, onFailure);
      recorder.fail(error);
      return recorder;
    }
  }

  /** Keeps the report for the next flush. */
  add(record: ApiRecord): void {
    if (this.failure || this.finished) return;
    this.pending.push(record);
  }

  /** Commits what was added (one transaction; on PostgreSQL one round trip). Never throws: a failure is kept and said. */
  flush(): Promise<void> {
    if (this.pending.length === 0 || !this.store || this.runId === undefined) return this.writing;
    const batch = this.pending;
    this.pending = [];
    const { store, runId } = this;
    this.writing = this.writing.then(async () => {
      if (this.failure) return;
      try {
        await store.addSnapshots(
          runId,
          batch.flatMap((record) => snapshotOf(record, this.origin) ?? []),
        );
      } catch (error) {
        this.fail(error);
      }
    });
    return this.writing;
  }

  /** Adds and commits one report (a create's, as it is done). */
  record(record: ApiRecord): Promise<void> {
    this.add(record);
    return this.flush();
  }

  /** Writes the run's end and closes the store; the failure, if the history failed at any point. */
  async finish(exitCode: number, complete: boolean, now: Date): Promise<HistoryError | undefined> {
    if (this.finished) return this.failure;
    await this.flush();
    this.finished = true;
    if (this.store && this.runId !== undefined && !this.failure) {
      try {
        await this.store.finishRun(this.runId, { finished: now.toISOString(), exitCode, complete: complete && !this.failure });
      } catch (error) {
        this.fail(error);
      }
    }
    await this.store?.close().catch(() => {});
    return this.failure;
  }

  private fail(error: unknown): void {
    if (this.failure) return;
    this.failure =
      error instanceof HistoryError
        ? error
        : new HistoryError(`the history failed: ${error instanceof Error ? error.message : String(error)}`, 'failed', { cause: error });
    this.onFailure(this.failure);
  }
}
