// Deleting one or many reports or projects: confirmation, N at a time, an outcome line each, a summary, the first
// failure's code; Ctrl-C and a closed stdout start nothing new.
import { plural } from '../../plural.js';
import { oneLineForStderr } from '../terminal/stderr.js';
import { RsapiError } from '../../api/errors.js';
import { UsageError } from '../runtime/errors.js';
import { ExitCode, type ExitCodeValue, exitCodeOf, detailLines } from '../runtime/exit-codes.js';
import type { DeleteResult } from '../../api/reports.js';
import type { CommandContext } from '../runtime/context.js';
import { canPrompt, confirmOrRefuse, refuseWhereNobodyCanBeAsked } from '../terminal/prompts.js';
import { listLines } from '../runtime/files.js';
import { readAll, type Terminal } from '../terminal/terminal.js';
import { runPool } from '../bulk/pool.js';
import { singleLine, terminalText } from '../../output/terminal-text.js';
import type { RecordKind } from '../../output/types.js';
import { namedList } from '../../output/capped-list.js';
import { dryRunRows, printDryRun, writeDryRunRows, type ItemDescription } from './dry-run.js';

export type { ItemDescription };

export interface DeleteRun {
  /** 'report' or 'project', for messages and a dry run's format. */
  noun: RecordKind;
  /** Arguments as given; `-` reads more from stdin, one a line. */
  args: string[];
  yes: boolean | undefined;
  /** Checks one item and gives it in its normal form (`042` -> `42`): those given as arguments and those read from stdin. */
  checkItem: (value: string) => string;
  remove: (id: string) => Promise<DeleteResult>;
  /** --dry-run: look each item up (reads only), say what the real run would do, delete nothing, send no DELETE. */
  dryRun?: boolean;
  /**
   * What each item is (reports: their URL; projects: their reports), for a confirmation or a dry run. Called only
   * when a person is asked or with --dry-run, never with --yes: a script's delete costs no look-up. A dry run's
   * look-up covers every item and lets a failure other than "not found" end the run; a confirmation's may skip items.
   */
  describe?: (ids: string[], purpose: 'confirm' | 'dry-run') => Promise<Map<string, ItemDescription>>;
  /** A dry run's columns in table, csv and tsv, after id and action. */
  dryRunColumns?: readonly string[];
  /** Deletes in flight at once (--concurrency); 1 when not given. */
  concurrency?: number;
}

/**
 * The deletion's part of a verb's plan: nobody to ask and no --yes is refused before stdin (`-`) is read or
 * anything looked up; the items given as arguments are checked now (those read from stdin once they are read).
 */
export function planDeletion(io: Terminal, flags: DeletionFlags, args: string[], check: (value: string) => string): DeletionPlan {
  if (!flags.dryRun) refuseWhereNobodyCanBeAsked(io, flags.yes);
  for (const arg of args) if (arg !== '-') check(arg);
  return { args, yes: flags.yes, dryRun: flags.dryRun, concurrency: flags.concurrency };
}

/** The flags every delete verb has. */
export interface DeletionFlags {
  yes?: boolean;
  dryRun?: boolean;
  concurrency?: number;
}

/** What a delete verb will do: its items as given (`-` reads more from stdin) and how it goes about them. */
export type DeletionPlan = Pick<DeleteRun, 'args' | 'yes' | 'dryRun' | 'concurrency'>;

/** Deletes the items, the verb's plan (planDeletion) made. */
export async function deleteEach(ctx: CommandContext, run: DeleteRun): Promise<ExitCodeValue> {
  const ids = await expandStdin(ctx, run);
  const unique = [...new Set(ids.map(run.checkItem))];
  // `-` read nothing from a pipe or file: a list with nothing in it (a scheduled job's "changed only"), no mistake.
  // Typed at a terminal, nothing is one: asking "Delete 0 reports?" would hide it.
  if (unique.length === 0 && !ctx.io.stdinIsTTY) {
    ctx.note(`rsapi: stdin held no ${run.noun} ${run.noun === 'report' ? 'ids' : 'names'}; nothing to delete`);
    // A dry run writes its empty list (`[]` in json), as it would write rows.
    if (run.dryRun) await writeDryRunRows(ctx, { kind: run.noun, columns: ['id', 'action'], quietField: 'id', acted: ['delete'] }, []);
    return ExitCode.ok;
  }
  if (unique.length === 0)
    throw new UsageError(`no ${run.noun} ${run.noun === 'report' ? 'ids' : 'names'} given`, { hint: `\`-\` read none from stdin (one a line)` });
  if (run.dryRun) {
    const described = run.describe ? await run.describe(unique, 'dry-run') : new Map<string, ItemDescription>();
    // Ctrl-C during the look-ups: the items never looked up would pass for found.
    if (ctx.signal.aborted) return ExitCode.interrupted;
    return printDryRun(ctx, { kind: run.noun, columns: run.dryRunColumns ?? [] }, dryRunRows(unique, described));
  }
  let described = new Map<string, ItemDescription>();
  if (!run.yes && canPrompt(ctx.io) && run.describe) {
    described = await run.describe(unique, 'confirm');
    for (const id of unique) {
      const item = described.get(id);
      if (item && item.lines.length > 0) ctx.note([...(unique.length > 1 ? [item.title] : []), ...item.lines].join('\n'));
    }
  }
  const what = confirmationSubject(run.noun, unique, described);
  const stdinRead = ctx.io.stdinIsTTY && run.args.includes('-');
  if (!(await confirmOrRefuse(ctx.io, run.yes, `Delete ${terminalText(what)}? This cannot be undone.`, { stdinRead }))) {
    // As gh does for a cancelled command: exit 2, so `rsapi reports delete 5 && echo done` prints nothing.
    ctx.note('rsapi: nothing deleted');
    return ExitCode.usage;
  }
  // No new delete after Ctrl-C, nor once the reader of stdout (-q) went away.
  const stdoutGone = ctx.stdoutState.gone;
  const release = ctx.stdoutState.hold();
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
  if (unique.length > 1)
    ctx.note(deleteSummary(run.noun, { deleted, failed, failure, interrupted, notStarted }, ctx.signal.aborted ? 'interrupted' : 'stdout was closed'));
  if (ctx.signal.aborted) return ExitCode.interrupted;
  if (readerGone && notStarted > 0) return ExitCode.stdoutClosed;
  return failure ?? ExitCode.ok;
}

/** Items named in a confirmation of many; the rest are counted. */
const NAMED_IN_QUESTION = 3;

/** `report 42 (example.com/pricing)`, or `5 reports (42 example.com/a, 43 example.com/b, 44 example.com/c and 2 more)`. */
function confirmationSubject(noun: string, ids: readonly string[], described: ReadonlyMap<string, ItemDescription>): string {
  if (ids.length === 1) return described.get(ids[0] ?? '')?.title ?? `${noun} ${ids[0]}`;
  return `${ids.length} ${noun}s (${namedList(ids, NAMED_IN_QUESTION, (id) => described.get(id)?.label ?? id)})`;
}

/** `deleted 3 reports, failed 2 (exit 4)`, and what was cut short or never started, if anything was. */
function deleteSummary(
  noun: string,
  counts: { deleted: number; failed: number; failure: ExitCodeValue | undefined; interrupted: number; notStarted: number },
  stoppedBy: string,
): string {
  const parts = [`deleted ${plural(counts.deleted, noun)}`, `failed ${counts.failed}${counts.failure === undefined ? '' : ` (exit ${counts.failure})`}`];
  if (counts.interrupted > 0) parts.push(`interrupted ${counts.interrupted} (may be deleted)`);
  if (counts.notStarted > 0) parts.push(`not started ${counts.notStarted} (${stoppedBy})`);
  return parts.join(', ');
}

async function expandStdin(ctx: CommandContext, run: DeleteRun): Promise<string[]> {
  const { args } = run;
  if (!args.includes('-')) return args;
  // Waiting on a person who may not know `-` means stdin: say how to end.
  if (ctx.io.stdinIsTTY) ctx.note(`reading ${run.noun} ${run.noun === 'report' ? 'ids' : 'names'} from stdin, one a line (Ctrl-D to end)`);
  // Report ids may come several a line (`printf '81 82\n'`); a project name is a whole line.
  const fromStdin = listLines(await readAll(ctx.io.stdin, ctx.signal)).flatMap(({ value }) => (run.noun === 'report' ? value.split(/\s+/) : [value]));
  return args.flatMap((arg) => (arg === '-' ? fromStdin : [arg]));
}
