// The values the history's flags take, read one way wherever they are given: durations (`--since 90d`, `--keep 2w`,
// `--baseline since:7d`) and run ids (`history show 12`, `--baseline run:12`).

import { Option } from '@commander-js/extra-typings';

/** `--history`, declared here once for every verb that takes it (recording verbs, `history ...`, `audit`). */
export function historyOption() {
  return new Option('--history <path|url>', 'the history: a SQLite file or a postgres:// URL (env RSAPI_HISTORY; default ~/.local/share/rsapi/history.db)');
}

const UNITS: Readonly<Record<string, number>> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/**
 * The largest run id either store can hold (PostgreSQL's integer): a larger one names no run, and is refused as such
 * rather than sent (PostgreSQL answered "out of range", and 20 digits lost their last ones as a JavaScript number).
 */
export const MAX_RUN_ID = 2_147_483_647;

/** `90d`, `12h`, `2w`, `30m` as milliseconds; undefined for anything else. */
export function durationMs(value: string): number | undefined {
  const match = /^\s*(\d+)\s*([mhdw])\s*$/.exec(value);
  return match ? Number(match[1]) * (UNITS[match[2] as string] as number) : undefined;
}

/**
 * The moment a duration back from now, as the history stores times. A duration reaching before 1970 (`--since
 * 99999999999d`) means every run: it starts at 1970, not at a date JavaScript cannot write (that was a crash).
 */
export function sinceOf(ms: number | undefined): string | undefined {
  return ms === undefined ? undefined : new Date(Date.now() - Math.min(ms, Date.now())).toISOString();
}

/** A run id: a whole number from 1 to MAX_RUN_ID; undefined for anything else. */
export function runIdOf(value: string): number | undefined {
  if (!/^\d+$/.test(value)) return undefined;
  const id = Number(value);
  return id >= 1 && id <= MAX_RUN_ID ? id : undefined;
}
