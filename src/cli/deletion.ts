// Deleting one or many reports or projects: confirmation, N at a time, an outcome line each, a summary, the first failure's code; Ctrl-C and a closed stdout start nothing new.
import { oneLineForStderr } from './stderr.js';
import { RsapiError } from '../api/errors.js';
import { ExitCode, type ExitCodeValue, exitCodeOf, detailLines } from './exit-codes.js';
import type { DeleteResult } from '../api/reports.js';
import type { CommandContext } from './context.js';
import { canPrompt, confirmOrRefuse } from './prompts.js';
import { listLines } from './files.js';
import { readAll } from './terminal.js';
import { runPool } from './bulk/pool.js';
import { holdThroughStdoutGone } from './stdout-gone.js';
import { singleLine, terminalText } from '../output/terminal-text.js';

export interface DeleteRun {
  /** 'report' or 'project', for messages. */
  noun: string;
  /** Arguments as given; `-` reads more from stdin, one a line. */
  args: string[];
  yes: boolean | undefined;
  validate?: (value: string) => string;
  remove: (id: string) => Promise<DeleteResult>;
  /** --dry-run: say what would be deleted, delete nothing, send no DELETE. */
  dryRun?: boolean;
  /**
   * What goes with each item, for a confirmation or a dry run (projects: their reports). Called only when a person
   * is asked or with --dry-run, never with --yes: a script's delete costs no look-up.
   */
  describe?: (ids: string[]) => Promise<Map<string, ItemDescription>>;
  /** Deletes in flight at once (--concurrency); 1 when not given. */
  concurrency?: number;
}

export interface ItemDescription {
  /** `project example.com and its 13 reports`. */
  title: string;
  /** Shown under the title (a few URLs of those reports). */
  lines: string[];
}

export async function deleteEach(ctx: CommandContext, run: DeleteRun): Promise<ExitCodeValue> {
  const ids = await expandStdin(ctx, run.args);
  const validated = ids.map((id) => (run.validate ? run.validate(id) : id));
  const unique = [...new Set(validated)];
  if (run.dryRun) return dryRun(ctx, run, unique);
  let what = unique.length === 1 ? `${run.noun} ${unique[0]}` : `${unique.length} ${run.noun}s (${unique.join(', ')})`;
  if (!run.yes && canPrompt(ctx.io) && run.describe) {
    const described = await run.describe(unique);
    if (unique.length === 1) what = described.get(unique[0] ?? '')?.title ?? what;
    for (const id of unique) {
      const item = described.get(id);
      if (item && (unique.length > 1 || item.lines.length > 0)) ctx.note([...(unique.length > 1 ? [item.title] : []), ...item.lines].join('\n'));
    }
  }
  if (!(await confirmOrRefuse(ctx.io, run.yes, `Delete ${terminalText(what)}? This cannot be undone.`))) {
    // As gh does for a cancelled command: exit 2, so `rsapi reports delete 5 && echo done` prints nothing.
    ctx.note('rsapi: nothing deleted');
    return ExitCode.usage;
  }
  // No new delete after Ctrl-C, nor once the reader of stdout (-q) went away.
  const stdoutGone = ctx.io.stdoutGone;
  const release = stdoutGone ? holdThroughStdoutGone() : () => {};
  const stop = stdoutGone ? AbortSignal.any([ctx.noNewRequests, stdoutGone]) : ctx.noNewRequests;
  let failure: ExitCodeValue | undefined;
  let deleted = 0;
  let failed = 0;
  let interrupted = 0;
  const { started } = await runPool(unique, { concurrency: run.concurrency ?? 1, stop }, async (id) => {
    try {
      const result = await run.remove(id);
      deleted++;
      ctx.note(`deleted ${run.noun} ${id}${result.goneAfterRetry ? ' (confirmed on retry)' : ''}`);
      if (ctx.globals.quiet && !stdoutGone?.aborted) ctx.io.stdout.write(`${ctx.io.stdoutIsTTY ? terminalText(id) : singleLine(id)}\n`);
    } catch (error) {
      if (!(error instanceof RsapiError)) throw error;
      // Cut short by Ctrl-C: it may or may not be gone; said in the summary, exit 130.
      if (exitCodeOf(error) === ExitCode.interrupted) return void interrupted++;
      failed++;
      ctx.note(`rsapi: ${run.noun} ${id}: ${error.message}`);
      // The same field lines and hint as a single failure gets (exit-codes.ts), under the item's line.
      for (const line of detailLines(error)) ctx.note(oneLineForStderr(line));
      failure ??= exitCodeOf(error);
    }
  }).finally(release);
  const notStarted = unique.length - started;
  const readerGone = stdoutGone?.aborted === true;
  if (unique.length > 1) ctx.note(deleteSummary(run.noun, { deleted, failed, failure, interrupted, notStarted }, ctx.signal.aborted ? 'interrupted' : 'stdout was closed'));
  if (ctx.signal.aborted) return ExitCode.interrupted;
  if (readerGone && notStarted > 0) return ExitCode.stdoutClosed;
  return failure ?? ExitCode.ok;
}

/** `deleted 3 reports, failed 2 (exit 4)`, and what was cut short or never started, if anything was. */
function deleteSummary(
  noun: string,
  counts: { deleted: number; failed: number; failure: ExitCodeValue | undefined; interrupted: number; notStarted: number },
  stoppedBy: string,
): string {
  const parts = [`deleted ${counts.deleted} ${noun}${counts.deleted === 1 ? '' : 's'}`, `failed ${counts.failed}${counts.failure === undefined ? '' : ` (exit ${counts.failure})`}`];
  if (counts.interrupted > 0) parts.push(`interrupted ${counts.interrupted} (may be deleted)`);
  if (counts.notStarted > 0) parts.push(`not started ${counts.notStarted} (${stoppedBy})`);
  return parts.join(', ');
}

/** Says on stdout what would be deleted (with -q only the ids), and on stderr that nothing was. */
async function dryRun(ctx: CommandContext, run: DeleteRun, ids: string[]): Promise<ExitCodeValue> {
  const described = !ctx.globals.quiet && run.describe ? await run.describe(ids) : new Map<string, ItemDescription>();
  const shown = (text: string): string => (ctx.io.stdoutIsTTY ? terminalText(text) : singleLine(text));
  for (const id of ids) {
    if (ctx.globals.quiet) {
      ctx.io.stdout.write(`${shown(id)}\n`);
      continue;
    }
    const item = described.get(id);
    ctx.io.stdout.write(`would delete ${shown(item?.title ?? `${run.noun} ${id}`)}\n`);
    for (const line of item?.lines ?? []) ctx.io.stdout.write(`${shown(line)}\n`);
  }
  ctx.note(`dry run: ${ids.length} ${run.noun}${ids.length === 1 ? '' : 's'} would be deleted; nothing was deleted`);
  return ExitCode.ok;
}

async function expandStdin(ctx: CommandContext, args: string[]): Promise<string[]> {
  if (!args.includes('-')) return args;
  const fromStdin = listLines(await readAll(ctx.io.stdin, ctx.signal)).map(({ value }) => value);
  return args.flatMap((arg) => (arg === '-' ? fromStdin : [arg]));
}
