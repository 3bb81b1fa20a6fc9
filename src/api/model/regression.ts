// The one judge of a regression: two readings of a page (its score and result then and now), compared by one rule
// that `--baseline`, `history diff`, the HTML, the summary, JUnit, Code Quality and MCP all use. A score that fell
// by more than the allowed drop, a worse result, or a score or result that vanished (a re-audit that failed) is a
// regression. Checks are compared beside it (passed then, failed now: newly failing), by the callers' own walks.
import { RESULT_RANK, type ReportResult } from './report-model.js';

/** What is judged of a report: its score and its result (label), either of which a failed re-audit may lack. */
export interface Reading {
  score: number | undefined;
  label: string | undefined;
}

export interface ReadingChange {
  /** Points lost (then - now), when both have a score; negative for a rise. */
  drop: number | undefined;
  /** The result is worse, or gone where there was one. */
  worseResult: boolean;
  /** A score is gone where there was one. */
  lostScore: boolean;
}

export function readingChange(then: Reading, now: Reading): ReadingChange {
  const rankThen = rankOf(then.label);
  const rankNow = rankOf(now.label);
  return {
    drop: then.score !== undefined && now.score !== undefined ? then.score - now.score : undefined,
    worseResult: rankThen !== undefined && (rankNow === undefined || rankNow > rankThen),
    lostScore: then.score !== undefined && now.score === undefined,
  };
}

/** The rule: a fall by more than `maxDrop` points (0: any fall), a worse or vanished result, a vanished score. */
export function regressed(change: ReadingChange, maxDrop = 0): boolean {
  return (change.drop !== undefined && change.drop > maxDrop) || change.worseResult || change.lostScore;
}

function rankOf(label: string | undefined): number | undefined {
  return label === undefined ? undefined : RESULT_RANK.get(label as ReportResult);
}
