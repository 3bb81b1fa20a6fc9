// The bulk run's progress on stderr: a live bar on a terminal (cli-progress, loaded only then), plain lines otherwise.
import type { Sink } from '../../../../output/index.js';
import { startStatusLine } from '../../../status-line.js';
import type { Terminal } from '../../../terminal.js';

export interface ProgressCounts {
  created: number;
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

const FORMAT = '{bar} {value}/{total} | created {created} | failed {failed} | in flight {inFlight} | {rate}/s | ETA {eta_formatted}';

export async function createProgress(target: ProgressTarget, total: number): Promise<ProgressDisplay> {
  if (!target.live) return plainProgress(target.stderr);
  const module = await import('cli-progress');
  // cli-progress is CommonJS: bundled, its exports arrive on `default`.
  const { MultiBar, Presets } = (module as unknown as { default?: typeof module }).default ?? module;
  const multibar = new MultiBar(
    {
      stream: target.stderr as NodeJS.WritableStream,
      format: FORMAT,
      barsize: 24,
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
    const done = counts.created + counts.failed;
    return { ...counts, rate: seconds > 0 ? (done / seconds).toFixed(1) : '0.0' };
  };
  const bar = multibar.create(total, 0, payload({ created: 0, failed: 0, inFlight: 0 }));
  let stopped = false;
  return {
    update: (counts) => bar.update(counts.created + counts.failed, payload(counts)),
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
