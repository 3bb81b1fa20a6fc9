// --record and --history on the commands that read reports: whether this run records, where the history lives
// (flag > RSAPI_HISTORY > the profile's `history` > the default file), and the run's recorder on its context.
import type { Command, OptionValues } from '@commander-js/extra-typings';
import { originOf } from '../../api/http/base-url.js';
import { reportIdentity } from '../../api/model/report-url.js';
import { defaultHistoryPath, historyLocation, urlPasswords, type HistoryLocation } from '../../history/location.js';
import type { RunRecorder } from '../../history/recorder.js';
import type { CommandContext } from '../runtime/context.js';
import { existsSync } from 'node:fs';
import { HistoryError, HistoryNotFoundError } from '../../history/errors.js';
import type { HistoryStore, RunInfo, RunQuery } from '../../history/types.js';
import type { Baseline, HistoryBaselineSpec } from '../report-files/baseline.js';
import { sinceOf } from '../flags/history-values.js';
import { UsageError } from '../runtime/errors.js';
import type { PageHistory } from '../report-files/page-history.js';
import type { CiReporter } from '../report-files/reporter.js';

export function addHistoryOptions<Args extends unknown[], Opts extends OptionValues, GlobalOpts extends OptionValues>(
  command: Command<Args, Opts, GlobalOpts>,
) {
  return command
    .option('--record', 'keep a snapshot of every report read in the history (also RSAPI_RECORD=1, `config set record true`)')
    .option('--history <path|url>', 'the history: a SQLite file or a postgres:// URL (env RSAPI_HISTORY; default ~/.local/share/rsapi/history.db)');
}

export interface HistoryFlags {
  record?: true;
  history?: string;
}

/** Where the history lives, as given (flag, environment, profile) or by default. Throws a HistoryError for a malformed URL. */
export function resolveHistoryLocation(ctx: CommandContext, flags: HistoryFlags): HistoryLocation {
  const env = ctx.io.env;
  const given = flags.history ?? (env.RSAPI_HISTORY?.trim() ? env.RSAPI_HISTORY : undefined) ?? ctx.settings().stored.history;
  for (const password of urlPasswords(given)) ctx.secrets.register(password);
  return historyLocation(given ?? defaultHistoryPath(env), env.HOME || undefined);
}

/** Whether this run records: --record, RSAPI_RECORD=1, or the profile's `record`. */
export function recordingAsked(ctx: CommandContext, flags: HistoryFlags): boolean {
  if (flags.record) return true;
  const env = ctx.io.env.RSAPI_RECORD?.trim().toLowerCase();
  if (env === '1' || env === 'true') return true;
  if (env === '0' || env === 'false') return false;
  // A value read as neither (`yes`) was taken for "no" without a word: a run meant to be kept was not.
  if (env !== undefined && env !== '') throw new UsageError(`RSAPI_RECORD=${ctx.io.env.RSAPI_RECORD} is not 1, true, 0 or false`);
  return ctx.settings().stored.record === true;
}

/**
 * Starts recording this run when asked: the run's row is written now, each report the command reads is added to it
 * (ctx.history), and its end is written when the command ends (handler.ts). A history that cannot be used is said on
 * one line and costs the run nothing but its exit code (11).
 */
export async function startRecording(
  ctx: CommandContext,
  flags: HistoryFlags,
  run: { command: string; selection: Record<string, unknown>; shard?: string },
  ci?: CiReporter,
): Promise<void> {
  // The baseline is the last run before this one: read before this one is recorded. A history that cannot be used
  // costs the run its baseline, not its output: said on one line, and the run ends 11 (unless it fails otherwise).
  if (ci?.historyBaseline) {
    try {
      ci.useBaseline(await historyBaseline(ctx, flags, ci.historyBaseline, run));
    } catch (error) {
      if (!(error instanceof HistoryError)) throw error;
      ctx.note(`rsapi: history: ${error.message}; --baseline ${baselineName(ci.historyBaseline)} is not compared${error.hint ? ` (${error.hint})` : ''}`);
      ctx.historyUnusable = true;
    }
  }
  if (ci?.writesPage) ci.pageHistory = () => pageHistory(ctx, flags, run);
  if (!recordingAsked(ctx, flags)) return;
  const [{ RunRecorder, writeTimeoutOf }, { openHistory }, { ciContextOf }] = await Promise.all([
    import('../../history/recorder.js'),
    import('../../history/open.js'),
    import('../../history/ci-context.js'),
  ]);
  const location = () => resolveHistoryLocation(ctx, flags);
  const origin = serviceOrigin(ctx);
  const say = (error: HistoryError) => ctx.note(`rsapi: history: ${error.message}; this run is not recorded${error.hint ? ` (${error.hint})` : ''}`);
  const recorder: RunRecorder = RunRecorder.start(
    () => openHistory(location()),
    {
      started: new Date().toISOString(),
      command: run.command,
      selection: selectionKey(run.selection),
      origin,
      shard: run.shard,
      ci: ciContextOf(ctx.io.env),
    },
    say,
    { signal: ctx.signal, timeoutMs: writeTimeoutOf(ctx.io.env) },
  );
  ctx.history = recorder;
}

/** The selection as one key: the given filters (undefined ones left out) in a stable order. */
export function selectionKey(selection: Record<string, unknown>): string {
  const entries = Object.entries(selection)
    .filter(([, value]) => value !== undefined && value !== false)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify(Object.fromEntries(entries));
}

/** A create's selection: its whole input (before any --shard), as one hash of the URLs' identities, and the share. */
export function inputSelection(urls: readonly string[], shard: { index: number; count: number } | undefined): Record<string, unknown> {
  const identities = [...new Set(urls.map(reportIdentity))].sort();
  return {
    // node:crypto on first use: every list and show loads this module, and importing it costs their start-up (~6 ms).
    input: process.getBuiltinModule('node:crypto').createHash('sha256').update(identities.join('\n')).digest('hex').slice(0, 16),
    urls: identities.length,
    shard: shard && `${shard.index}/${shard.count}`,
  };
}

/** The complete runs of this command with this selection on this service: what a run is compared with. */
function sameRuns(ctx: CommandContext, run: { command: string; selection: Record<string, unknown> }): RunQuery {
  return { command: run.command, selection: selectionKey(run.selection), origin: serviceOrigin(ctx), completeOnly: true };
}

function serviceOrigin(ctx: CommandContext): string {
  return originOf(ctx.settings().baseUrl ?? '') ?? ctx.settings().baseUrl ?? 'unknown';
}

/** The history, opened to be read. A SQLite file that does not exist is no history yet: exit 4, and no file made. */
export async function openExistingHistory(ctx: CommandContext, flags: HistoryFlags): Promise<HistoryStore> {
  const location = resolveHistoryLocation(ctx, flags);
  if (location.kind === 'sqlite' && !existsSync(location.path)) {
    throw new HistoryNotFoundError(`no history at ${location.path} yet`, {
      hint: 'record one with --record (`rsapi reports list --all --record`), or point to one with --history or RSAPI_HISTORY',
    });
  }
  const { openHistory } = await import('../../history/open.js');
  return openHistory(location);
}

/**
 * The earlier runs of this command and selection that --html shows, read when the page is written (this run, not yet
 * complete, is not among them). No history (a SQLite file not there): none, and no file made.
 */
async function pageHistory(
  ctx: CommandContext,
  flags: HistoryFlags,
  run: { command: string; selection: Record<string, unknown> },
): Promise<PageHistory | undefined> {
  const location = resolveHistoryLocation(ctx, flags);
  if (location.kind === 'sqlite' && !existsSync(location.path)) return undefined;
  const [{ openHistory }, { readPageHistory }] = await Promise.all([import('../../history/open.js'), import('../report-files/page-history.js')]);
  const store = await openHistory(location);
  try {
    return await readPageHistory(store, sameRuns(ctx, run));
  } finally {
    await store.close();
  }
}

/**
 * --baseline last|run:ID|since:D: the reports of a recorded run, as a baseline. `last` is the newest complete run of
 * the same command and selection on the same service; `since:D` the oldest such run within D. None: exit 4.
 */
async function historyBaseline(
  ctx: CommandContext,
  flags: HistoryFlags,
  spec: HistoryBaselineSpec,
  run: { command: string; selection: Record<string, unknown> },
): Promise<Baseline> {
  const { runBaseline } = await import('../report-files/page-history.js');
  const store = await openExistingHistory(ctx, flags);
  try {
    const same = sameRuns(ctx, run);
    let found: RunInfo | undefined;
    if (spec.kind === 'run') found = await store.run(spec.id);
    else if (spec.kind === 'last') found = (await store.runs({ ...same, limit: 1 }))[0];
    else found = (await store.runs({ ...same, since: sinceOf(spec.ms) })).at(-1);
    if (!found) {
      const what =
        spec.kind === 'run'
          ? `no run ${spec.id} in the history`
          : `no earlier complete run of \`${run.command}\` with this selection (${same.selection}) on ${same.origin}`;
      throw new HistoryNotFoundError(`--baseline ${baselineName(spec)}: ${what}`, {
        hint: 'record a run of the same selection first (add --record; a gate reads every page, so record with --all), or give a baseline file',
      });
    }
    return runBaseline(found.id, await store.snapshotsOf(found.id));
  } finally {
    await store.close();
  }
}

/** `last`, `run:12`, `since:7d`: the --baseline value as given. */
function baselineName(spec: HistoryBaselineSpec): string {
  return spec.kind === 'run' ? `run:${spec.id}` : spec.kind === 'last' ? 'last' : `since:${spec.text}`;
}
