// Where the history lives (flag > RSAPI_HISTORY > the profile's `history` > the default file), whether a run records,
// its job's name and selection key, and opening a history that is there: what every verb that touches the history
// needs, without the run's recording and CI files (recording.ts), so that `history trend` loads neither.
import { originOf } from '../../api/http/base-url.js';
import { hasTerminalControls } from '../../output/terminal-text.js';
import { defaultHistoryPath, historyLocation, urlPasswords, type HistoryLocation } from '../../history/location.js';
import type { HistoryStore } from '../../history/types.js';
import type { CommandContext } from '../runtime/context.js';
import { UsageError } from '../runtime/errors.js';

export interface HistoryFlags {
  record?: true;
  history?: string;
  job?: string;
}

/**
 * --job or RSAPI_JOB, checked: a name people type and read (at most 200 characters, no control character nor a
 * bidirectional override, which would make the name printed read as another: `abc\u202edef` shows as `abcfed`).
 */
export function jobName(ctx: CommandContext, flags: HistoryFlags): string | undefined {
  const given = flags.job ?? (ctx.io.env.RSAPI_JOB?.trim() ? ctx.io.env.RSAPI_JOB.trim() : undefined);
  if (given === undefined) return undefined;
  const source = flags.job !== undefined ? '--job' : 'RSAPI_JOB';
  if (given.trim() === '' || given.length > 200 || hasTerminalControls(given)) {
    throw new UsageError(`${source} ${JSON.stringify(given)}: a job's name is 1 to 200 printable characters`);
  }
  return given.trim();
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

/** The selection as one key: the given filters (undefined ones left out) in a stable order. */
export function selectionKey(selection: Record<string, unknown>): string {
  const entries = Object.entries(selection)
    .filter(([, value]) => value !== undefined && value !== false)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify(Object.fromEntries(entries));
}

/** The service's origin as the history records it (`https://seo.example.net`). */
export function serviceOrigin(ctx: CommandContext): string {
  return originOf(ctx.settings().baseUrl ?? '') ?? ctx.settings().baseUrl ?? 'unknown';
}

/**
 * The history that is there, opened to be read (`readOnly`, the default: a SQLite file opened read-only, so a history on
 * a read-only mount can be read) or, for prune, written. None there yet: exit 4, and no file made. A driver's warning
 * is said on stderr in one line. The one opener of an existing history for the CLI's verbs (`history ...` too).
 */
export async function openExistingHistory(
  ctx: CommandContext,
  flags: Pick<HistoryFlags, 'history'>,
  options: { readOnly?: boolean } = { readOnly: true },
): Promise<HistoryStore> {
  const location = resolveHistoryLocation(ctx, flags);
  const { openHistory } = await import('../../history/open.js');
  return openHistory(location, { readOnly: options.readOnly, mustExist: true, notice: (line) => ctx.note(line) });
}
