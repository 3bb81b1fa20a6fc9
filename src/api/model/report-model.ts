// The one reading of a report, whatever dialect it came in: its label (good, decent, bad) and its score.
// Seed dialect (the API document): `result` is the label, `score` the number. phpRank 1.x-13: `result` is the score
// (0-100, maybe a float or a numeric string) and there is no `score`; the label comes from phpRank's own thresholds.
// Every human and CI output reads reports through this module; json/ndjson pass records through untouched.
import { toNumber, type ApiRecord } from './record.js';

export const RESULTS = ['good', 'decent', 'bad'] as const;
export type ReportResult = (typeof RESULTS)[number];

/** good > decent > bad: a result "at or worse than" X has a rank >= X's. */
export const RESULT_RANK: ReadonlyMap<ReportResult, number> = new Map(RESULTS.map((result, index) => [result, index]));

/** phpRank's thresholds (those of its `result` list filter): good > 79, decent 49-79, bad < 49. */
export function labelForScore(score: number): ReportResult {
  if (score > 79) return 'good';
  if (score >= 49) return 'decent';
  return 'bad';
}

export type ReportDialect = 'seed' | 'phprank';

export interface ReportReading {
  /** undefined when the report carries neither a label nor a number it can be derived from. */
  label: ReportResult | undefined;
  score: number | undefined;
  /** Which reading applied: `phprank` when `result` was a number. */
  dialect: ReportDialect;
}

function asLabel(value: unknown): ReportResult | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.trim().toLowerCase();
  return (RESULTS as readonly string[]).includes(text) ? (text as ReportResult) : undefined;
}

/** The label and score of one report, from whichever fields the service sent. */
export function readReport(record: ApiRecord): ReportReading {
  const label = asLabel(record.result);
  const score = toNumber(record.score);
  if (label !== undefined || record.result === undefined || record.result === null) {
    return { label, score, dialect: 'seed' };
  }
  const number = toNumber(record.result);
  if (number === undefined) return { label: undefined, score, dialect: 'seed' };
  // phpRank: `result` is the score. It keeps it in an integer column: the 79.3 a create or a refresh answers is
  // stored, listed and filtered as 79 (decent). So the score (and the label) is read as stored, whichever answer
  // carried the report: a create and a later list of the same report never differ (history diff, --baseline last).
  // A `score` field beside it, if some variant sends one, wins as the number.
  const stored = storedScore(number);
  return { label: labelForScore(stored), score: score ?? stored, dialect: 'phprank' };
}

/**
 * A phpRank score as its database keeps it: the integer column rounds a float to the nearest integer, a half away from
 * zero (MySQL converting the number PDO sends it as text), as Math.round does for scores (never negative).
 */
function storedScore(score: number): number {
  return Math.round(score);
}

/** A score as people read it: a float (a seed score, an average: 78.57142857142857) shown to one decimal at most. */
export function formatScore(score: number): string {
  return Number.isInteger(score) ? String(score) : String(Math.round(score * 10) / 10);
}

/**
 * The record as the human and CI renderers show it: `result` the label, `score` the number (formatted), every other
 * field as sent. The record is not changed; a new object is made only when the dialect needs it.
 */
export function modelledRecord(record: ApiRecord): ApiRecord {
  const reading = readReport(record);
  if (reading.dialect === 'seed' && (reading.score === undefined || typeof record.score === 'number')) return record;
  // The score stands right after the result (phpRank sends none: `reports show` lists it beside the label).
  const shown: ApiRecord = {};
  for (const [key, value] of Object.entries(record)) {
    if (key === 'score') continue;
    shown[key] = key === 'result' ? (reading.label ?? value) : value;
    if (key === 'result' && reading.score !== undefined) shown.score = reading.score;
  }
  if (!('result' in shown) && reading.label !== undefined) shown.result = reading.label;
  if (reading.score !== undefined && !('score' in shown)) shown.score = reading.score;
  return shown;
}
