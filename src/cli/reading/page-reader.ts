// Reading a list's pages, once for every command that consumes them (reports list, projects list, reports stats):
// records in order, a spinner while waiting, what the service silently ignored, each report judged by the gate and CI.
// The gate's modules (verdicts/gates.ts and what it judges with) load only when a gate flag, an assertions file, a Code
// Quality file or a CI file asks for them: a plain list reads and prints without them (test/e2e/startup.test.ts).
import type { ApiRecord, Page } from '../../api/model/record.js';
import type { ListSilences } from '../../api/list-silences.js';
import type { RecordKind } from '../../output/index.js';
import type { CiReporter } from '../report-files/reporter.js';
import type { CommandContext } from '../runtime/context.js';
import type { RunRecorder } from '../../history/recorder.js';
import { ExitCode, type ExitCodeValue } from '../runtime/exit-codes.js';
import type { Gate, GateSetup } from '../verdicts/gates.js';
import { checkGateActive } from '../verdicts/check-gate.js';
import { startStatusLine } from '../terminal/status-line.js';

/** A record kind's noun, one and many: `1 report`, `no projects found`. */
export const NOUN: Record<RecordKind, [string, string]> = { report: ['report', 'reports'], project: ['project', 'projects'] };

export interface PageReaderOptions {
  /** The gate's flags: every report is judged; without them nothing is. */
  gate?: GateSetup;
  /** CI files: every report becomes a case. */
  ci?: CiReporter;
  /** What was asked that the service may ignore (src/api/list-silences.ts). */
  silences?: ListSilences;
  /** The run's recorder (--record): every report read is added to the history. */
  recorder?: RunRecorder;
}

/** What a command does with the pages it reads. */
export interface PageVisitor {
  /** Each record, in the order the service sent them. */
  record(record: ApiRecord): void | Promise<void>;
  /** After each page, with the spinner erased (a list sends what the page wrote to stdout here). */
  pageDone?(): Promise<void>;
  /** The spinner's text once a page is read; by default `reading reports: page 2 of 7, 40 so far`. */
  progress?(page: Page, read: number): string;
}

/** Reads pages for one command; then says what was read, what the service ignored, and the gate's verdict. */
export class PageReader {
  /** The gate, made when read() starts; undefined when nothing asked for one (no report is judged then). */
  gate: Gate | undefined;
  /** The first and last pages read; undefined when there was none. */
  first: Page | undefined;
  last: Page | undefined;
  /** Records read. */
  count = 0;
  private readonly silences: ListSilences | undefined;

  constructor(
    private readonly ctx: CommandContext,
    private readonly kind: RecordKind,
    private readonly options: PageReaderOptions = {},
  ) {
    // Nothing asked that could be ignored: the records need not be watched.
    this.silences = options.silences?.idle === false ? options.silences : undefined;
  }

  /** Reads every page `pages` yields, handing each record to the visitor after the silences, gate and CI saw it. */
  async read(pages: AsyncIterable<Page>, visitor: PageVisitor): Promise<void> {
    const [, many] = NOUN[this.kind];
    const progress = visitor.progress ?? ((page: Page, read: number) => `reading ${many}: page ${page.page}${ofLast(page)}, ${read} so far`);
    // A wait for pages shows a spinner on a terminal; what a page writes goes out with it erased.
    await this.makeGate();
    const status = startStatusLine(this.ctx.io, `reading ${many}…`);
    try {
      for await (const page of pages) {
        this.first ??= page;
        for (const record of page.records) {
          this.silences?.see(record);
          const gateFailures = this.gate?.check(record) ?? [];
          this.options.ci?.addReport(record, gateFailures);
          if (this.kind === 'report') this.options.recorder?.add(record);
          await visitor.record(record);
        }
        // The page's reports go to the history as one write, queued: a run killed later keeps them, and a slow or
        // silent store holds back no page.
        this.options.recorder?.flush();
        this.count += page.records.length;
        this.last = page;
        status.update(progress(page, this.count));
        if (visitor.pageDone) {
          status.clear();
          await visitor.pageDone();
        }
      }
    } finally {
      status.stop();
    }
  }

  /**
   * phpRank ignores a sort field or filter value it does not know, and the records it sends look like an answer to
   * what was asked: each such flag is said once. `how` says what was done with the records (printed, counted, judged).
   */
  warnSilences(how: string, options: { sortedHere?: boolean } = {}): void {
    if (!this.silences) return;
    const [one, many] = NOUN[this.kind];
    for (const silence of this.silences.found()) {
      if (silence.kind === 'order' && options.sortedHere === true) {
        // Not a warning: the list was read whole and put in the order asked here.
        this.ctx.note(`rsapi: the service ignored ${silence.flag} (${many} came back in another order); sorted here, all ${this.count} read`);
        continue;
      }
      const why =
        silence.kind === 'order'
          ? `${many} came back in another order`
          : `${silence.misses} of ${silence.checked} ${silence.checked === 1 ? one : many} ${silence.checked === 1 ? 'does' : 'do'} not match it`;
      this.ctx.note(`rsapi: warning: the service ignored ${silence.flag} (${why}); ${how}`);
    }
  }

  /** The gate, when a flag, a file or CI asks for one (loaded then). */
  private async makeGate(): Promise<void> {
    if (this.gate !== undefined || (this.options.ci === undefined && !judges(this.options.gate))) return;
    const { Gate } = await import('../verdicts/gates.js');
    this.gate ??= new Gate(this.options.gate ?? {});
  }

  /** The gate's verdict and the exit code; with CI flags, the baseline's too, and the files written. */
  async finish(code: ExitCodeValue = ExitCode.ok): Promise<ExitCodeValue> {
    await this.makeGate();
    // No gate asked for: nothing was judged and no file is to be written; the exit code is the command's own.
    if (this.gate === undefined) return code;
    const { finishGate } = await import('../report-files/finish-gate.js');
    return finishGate(this.ctx, this.gate, this.options.ci, code);
  }
}

/**
 * Whether the gate's setup asks for any judging or file: a gate flag, an assertions file or --codequality. Without
 * one, Gate would judge nothing and finishGate would return the command's own code (--allow-empty and the selection
 * only word a verdict).
 */
export function judges(setup: GateSetup | undefined): boolean {
  if (setup === undefined) return false;
  return (
    setup.failOn !== undefined || setup.minScore !== undefined || checkGateActive(setup) || setup.assertions !== undefined || setup.codequality !== undefined
  );
}

/** ` of 7` when the service said how many pages there are. */
export function ofLast(page: Page): string {
  return page.lastPage !== undefined ? ` of ${page.lastPage}` : '';
}
