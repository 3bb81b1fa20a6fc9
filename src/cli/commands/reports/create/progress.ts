// The bulk run's progress on stderr: a live bar on a terminal (cli-progress, loaded only then), plain lines otherwise.
import type { Sink } from '../../../../output/index.js';
import { startStatusLine } from '../../../terminal/status-line.js';
import type { Terminal } from '../../../terminal/terminal.js';

export interface ProgressCounts {
  created: number;
  /** Had a report, re-audited (--existing refresh) or kept as it was (--existing skip): never counted as created. */
  refreshed?: number;
  kept?: number;
  failed: number;
  inFlight: number;
}

export interface ProgressDisplay {
  update(counts: ProgressCounts): void;
  /** A line on stderr that must not tear the bar (a failed URL, a note). */
  log(line: string): void;
  /** Writes on the bar's terminal by other means (stdout on the same screen): the bar is cleared first, then redrawn. */
  above(write: () => void): void;
  /** Removes the bar; lines logged meanwhile are written first. */
  stop(): void;
}

export interface ProgressTarget {
  stderr: Sink;
  /** Only a terminal gets a bar. */
  live: boolean;
}

/** Plain lines, no bar: stderr is not a terminal, or --quiet. */
export function plainProgress(stderr: Sink): ProgressDisplay {
  return { update: () => {}, log: (line) => void stderr.write(`${line}\n`), above: (write) => write(), stop: () => {} };
}

/**
 * One URL: a spinner naming it while the service audits the page (a terminal only, after half a second), with the
 * seconds waited; notes are written with it erased, and it is gone for good before the record is printed.
 */
export function spinnerProgress(io: Terminal, url: string): ProgressDisplay {
  const status = startStatusLine(io, `auditing ${url}`, { elapsed: true });
  return {
    update: () => {},
    log: (line) => status.pause(() => io.stderr.write(`${line}\n`)),
    above: (write) => {
      status.stop();
      write();
    },
    stop: () => status.stop(),
  };
}

/** One part of the bar's line: its text, and its rank in what stays when the width is short (1 goes last). */
interface LinePart {
  text: string;
  keep: number;
}

const BAR_WIDTH = 24;
const MIN_BAR_WIDTH = 10;

/** The parts of the bar's line in the order shown, ranked as the table ranks columns: counts first, the ETA before the rate. */
function lineParts(counts: ProgressCounts & { rate: string }, done: number, total: number, eta: string): LinePart[] {
  const { created, refreshed = 0, kept = 0 } = counts;
  // What became of the URLs done: created, and refreshed or kept when there were any (created alone when nothing was).
  const outcomes = [
    created > 0 || refreshed + kept === 0 ? `created ${created}` : undefined,
    refreshed > 0 ? `refreshed ${refreshed}` : undefined,
    kept > 0 ? `kept ${kept}` : undefined,
  ].flatMap((text) => (text === undefined ? [] : [{ text, keep: 2 }]));
  return [
    { text: '{bar}', keep: 5 },
    { text: `${done}/${total}`, keep: 1 },
    ...outcomes,
    { text: `failed ${counts.failed}`, keep: 3 },
    { text: `in flight ${counts.inFlight}`, keep: 7 },
    { text: `${counts.rate}/s`, keep: 6 },
    { text: `ETA ${eta}`, keep: 4 },
  ];
}

/** The width the separators between shown parts take: one space after the bar, ` | ` elsewhere. */
function separators(shown: LinePart[]): number {
  return shown.slice(1).reduce((sum, _part, index) => sum + (shown[index]?.text === '{bar}' ? 1 : 3), 0);
}

/**
 * The bar's line fitted to `width` (cli-progress cuts a line too long at the terminal's edge, mid-word): the bar
 * narrows to MIN_BAR_WIDTH first, then whole parts are left out, the least wanted first (in flight, the rate, the
 * bar, the ETA, failed, created), never the count done. Two columns stay free, as cli-progress keeps them.
 */
export function fitProgressLine(
  counts: ProgressCounts & { rate: string },
  progress: { done: number; total: number; eta: string; fraction: number },
  width: number,
): string {
  const parts = lineParts(counts, progress.done, progress.total, progress.eta);
  const room = Math.max(1, width - 2);
  const length = (shown: LinePart[], bar: number) => shown.reduce((sum, part) => sum + (part.text === '{bar}' ? bar : part.text.length), 0) + separators(shown);
  let shown = parts;
  let bar = BAR_WIDTH;
  while (length(shown, bar) > room) {
    if (bar > MIN_BAR_WIDTH && shown.some((part) => part.text === '{bar}')) {
      bar = Math.max(MIN_BAR_WIDTH, bar - (length(shown, bar) - room));
      continue;
    }
    if (shown.length === 1) break;
    const least = Math.max(...shown.map((part) => part.keep));
    shown = shown.filter((part) => part.keep !== least);
  }
  const drawn = Math.round(Math.min(1, Math.max(0, progress.fraction)) * bar);
  // The bar and the count done read as one (`███░░ 5/16`); the other parts are set apart by bars.
  return shown
    .map((part, index) => {
      const text = part.text === '{bar}' ? '\u2588'.repeat(drawn) + '\u2591'.repeat(bar - drawn) : part.text;
      return index === 0 ? text : `${shown[index - 1]?.text === '{bar}' ? ' ' : ' | '}${text}`;
    })
    .join('');
}

/** The URLs done: created, refreshed, kept or failed. */
function doneOf(counts: ProgressCounts): number {
  return counts.created + (counts.refreshed ?? 0) + (counts.kept ?? 0) + counts.failed;
}

export async function createProgress(target: ProgressTarget, total: number): Promise<ProgressDisplay> {
  if (!target.live) return plainProgress(target.stderr);
  const module = await import('cli-progress');
  // cli-progress is CommonJS: bundled, its exports arrive on `default`.
  const { MultiBar, Presets, Format } = (module as unknown as { default?: typeof module }).default ?? module;
  const multibar = new MultiBar(
    {
      stream: target.stderr as NodeJS.WritableStream,
      // Fitted to the terminal's width (cli-progress's maxWidth: the stream's columns, 80 when it does not say).
      format: (options, params, payload: ProgressCounts & { rate: string }) =>
        fitProgressLine(
          payload,
          { done: params.value, total: params.total, eta: Format.TimeFormat(params.eta, options, 5), fraction: params.progress },
          params.maxWidth ?? 80,
        ),
      hideCursor: null,
      // Trimmed to the terminal's width rather than turning line wrap off (a hard exit would leave it off).
      linewrap: true,
      clearOnComplete: true,
      gracefulExit: false,
      etaBuffer: 50,
      fps: 10,
    },
    Presets.shades_classic,
  );
  const started = performance.now();
  const payload = (counts: ProgressCounts) => {
    const seconds = (performance.now() - started) / 1000;
    const done = doneOf(counts);
    return { ...counts, rate: seconds > 0 ? (done / seconds).toFixed(1) : '0.0' };
  };
  const bar = multibar.create(total, 0, payload({ created: 0, failed: 0, inFlight: 0 }));
  let stopped = false;
  return {
    update: (counts) => bar.update(doneOf(counts), payload(counts)),
    log: (line) => multibar.log(`${line}\n`),
    above: (write) => {
      if (stopped) return write();
      target.stderr.write('\r\u001b[2K');
      write();
      multibar.update();
    },
    stop: () => {
      if (stopped) return;
      stopped = true;
      multibar.update(); // flushes the logged lines above the bar
      multibar.stop();
    },
  };
}
