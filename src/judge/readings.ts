// The readings the judge compares, from what a face holds: an API record (a run's report, a baseline file's, a
// baseline run's as snapshotRecord gives it). A history snapshot is read by history/diff.ts (snapshotReading).
import { importanceRank, reportChecks } from '../api/model/checks.js';
import type { ApiRecord } from '../api/model/record.js';
import { readReport } from '../api/model/report-model.js';
import type { CheckReading, PageReading } from './compare.js';

/** A record's reading: its score and result as the record model reads them, its checks most important first. */
export function recordReading(record: ApiRecord): PageReading {
  const { label, score } = readReport(record);
  const outcomes = reportChecks(record);
  const checks = outcomes?.sort((a, b) => importanceRank(a.importance) - importanceRank(b.importance) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { score, label, checks };
}

/** Each check's readings made once (failed, passed: {id, passed} shared by every page's reading that has it), up to a bound. */
const CHECKS = new Map<string, readonly [CheckReading, CheckReading]>();
const MAX_CHECKS = 4_096;
/** Whole lists of check readings made once, up to a bound: pages alike share one list. */
const LISTS = new Map<string, readonly CheckReading[]>();
const MAX_LISTS = 256;

/**
 * A reading as a run holds it beside 50,000 others (a baseline's pages): its checks as shared {id, passed} objects
 * (neither importance, value nor errors: the judge reads none), in the same order, and a list alike another page's
 * shared with it.
 */
export function compactReading(reading: PageReading): PageReading {
  if (reading.checks === undefined) return reading;
  // Joined, not concatenated a check at a time: a key kept in the map is one flat string, not a chain of 72 pieces.
  const key = reading.checks.map((check) => `${check.passed ? '+' : '-'}${check.id}`).join('\n');
  let checks = LISTS.get(key);
  if (checks === undefined) {
    checks = reading.checks.map((check) => sharedCheck(check.id, check.passed));
    if (LISTS.size < MAX_LISTS) LISTS.set(key, checks);
  }
  return { score: reading.score, label: reading.label, checks };
}

/** The check reading {id, passed} shared by every reading that has it (compactReading's). */
export function sharedCheck(id: string, passed: boolean): CheckReading {
  let held = CHECKS.get(id);
  if (held === undefined) {
    held = [Object.freeze({ id, passed: false }), Object.freeze({ id, passed: true })];
    // Past the bound (a service that names checks without end), a reading is made and not kept.
    if (CHECKS.size < MAX_CHECKS) CHECKS.set(id, held);
  }
  return held[passed ? 1 : 0];
}
