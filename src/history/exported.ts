// One line of `history export` as `history import` takes it: every field a store writes checked first, so a line
// made by hand or cut by another tool is refused with its reason instead of poisoning the history (a selection that
// is not JSON broke every later `history runs`; a missing origin reached SQLite as "cannot be bound").
import { isObject as isFields } from '../api/model/record.js';

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
/** encodeChecks's text: `id+hash` or `id-hash` (8 hex digits) parts, one space apart; empty for none. */
const CHECKS_TEXT = /^(\S+[+-][0-9a-f]{8}( \S+[+-][0-9a-f]{8})*)?$/;

/** Why `value` is not a run of `history export` (the first reason found), or undefined when it is one. */
export function exportedRunProblem(value: unknown): string | undefined {
  if (!isFields(value) || !isFields(value.run) || !Array.isArray(value.snapshots)) return 'a line is { "run": {...}, "snapshots": [...] }';
  const { run, snapshots } = value;
  const problem =
    time(run.started, 'run.started') ??
    optional(run.recorded, 'run.recorded', time) ??
    optional(run.finished, 'run.finished', time) ??
    filled(run.command, 'run.command') ??
    selection(run.selection) ??
    filled(run.origin, 'run.origin') ??
    optional(run.exitCode, 'run.exitCode', (item, name) => (Number.isInteger(item) ? undefined : `${name} is not a whole number`)) ??
    optional(run.shard, 'run.shard', text) ??
    optional(run.ci, 'run.ci', (item, name) => (isFields(item) ? undefined : `${name} is not an object`)) ??
    (typeof run.complete === 'boolean' ? undefined : 'run.complete is not true or false');
  if (problem) return problem;
  for (const [index, snapshot] of snapshots.entries()) {
    const found = snapshotProblem(snapshot, `snapshots[${index}]`);
    if (found) return found;
  }
  return undefined;
}

function snapshotProblem(snapshot: unknown, at: string): string | undefined {
  if (!isFields(snapshot)) return `${at} is not an object`;
  return (
    filled(snapshot.origin, `${at}.origin`) ??
    filled(snapshot.identity, `${at}.identity`) ??
    text(snapshot.reportId, `${at}.reportId`) ??
    optional(snapshot.project, `${at}.project`, text) ??
    optional(snapshot.score, `${at}.score`, (item, name) => (typeof item === 'number' && Number.isFinite(item) ? undefined : `${name} is not a number`)) ??
    optional(snapshot.label, `${at}.label`, text) ??
    text(snapshot.generatedAt, `${at}.generatedAt`) ??
    optional(snapshot.checksText, `${at}.checksText`, (item, name) =>
      typeof item === 'string' && CHECKS_TEXT.test(item) ? undefined : `${name} is not the checks as export writes them`,
    ) ??
    optional(snapshot.checks, `${at}.checks`, checks)
  );
}

function checks(value: unknown, name: string): string | undefined {
  if (!Array.isArray(value)) return `${name} is not a list`;
  const bad = value.findIndex(
    (check) => !isFields(check) || typeof check.id !== 'string' || typeof check.passed !== 'boolean' || typeof check.hash !== 'string',
  );
  return bad >= 0 ? `${name}[${bad}] is not { "id", "passed", "hash" }` : undefined;
}

/** A string without NUL (PostgreSQL refuses one in text); empty where a record lacked it (a report's id, generated_at). */
function text(value: unknown, name: string): string | undefined {
  if (typeof value !== 'string') return `${name} is missing or not a string`;
  return value.includes('\u0000') ? `${name} holds a NUL character` : undefined;
}

/** A string as `text`, and not empty: what names a run or a page (its command, service, URL). */
function filled(value: unknown, name: string): string | undefined {
  return value === '' ? `${name} is empty` : text(value, name);
}

function time(value: unknown, name: string): string | undefined {
  return typeof value === 'string' && ISO_TIME.test(value) && !Number.isNaN(Date.parse(value))
    ? undefined
    : `${name} is not a time such as 2026-01-31T09:00:00.000Z`;
}

/** The command's filters as export writes them: a JSON object in a string. */
function selection(value: unknown): string | undefined {
  if (typeof value !== 'string') return 'run.selection is not a string';
  try {
    if (isFields(JSON.parse(value))) return undefined;
  } catch {
    // said below
  }
  return 'run.selection is not a JSON object in a string, such as "{\\"all\\":true}"';
}

/** Absent (undefined or null), or as `check` wants it. */
function optional(value: unknown, name: string, check: (value: unknown, name: string) => string | undefined): string | undefined {
  return value === undefined || value === null ? undefined : check(value, name);
}
