// The gate over a comparison of two runs (or a run and a baseline file): one verdict value that every face words in
// its own way (stderr, annotations, JUnit, HTML, summary, Code Quality, MCP answers) and none judges again.
import { regressed } from '../api/model/regression.js';
import type { PageChange, PageReading } from './compare.js';

/** The flags that gate a comparison. */
export interface ComparisonGate {
  /** --max-drop: a fall by more than this, a worse result or a vanished score or result fails. */
  maxDrop?: number;
  /** --fail-on-new-failures: a check that passed then and fails now fails. */
  failOnNewFailures?: boolean;
  /** --allow-empty: a gate that compared no page passes. */
  allowEmpty?: boolean;
}

/** A page read in both: its URL (as the later reading has it) and what changed. */
export interface ComparedPage {
  url: string;
  change: PageChange;
  /** The two readings compared, where the face has them at hand (for the words of a finding). */
  before?: PageReading;
  after?: PageReading;
}

export interface ComparisonVerdict {
  /** A gate was asked (--max-drop or --fail-on-new-failures). */
  gated: boolean;
  /** Pages read in both. */
  compared: number;
  /** A gate that compared no page, without --allow-empty: it fails (a gate over nothing proves nothing). */
  empty: boolean;
  /** Pages with checks newly failing (lost checks included), most first, then by URL. */
  newlyFailing: ComparedPage[];
  /** Pages that regressed by the one rule at --max-drop (0 without it: every fall is listed, failed only with it). */
  regressions: ComparedPage[];
  /** Pages read with per-check results in neither reading. */
  notJudgedOnChecks: string[];
  /**
   * --fail-on-new-failures where one side has no per-check results at all (the later run, or the earlier reading of
   * every page compared): it cannot be judged, and says so (exit 8), never passes silently.
   */
  checksUnjudged: boolean;
  /** Which side had none, when checksUnjudged. */
  uncheckedSide?: 'earlier' | 'later';
  /** What the gate decided. */
  failed: boolean;
}

/** What the gate needs to know of a comparison besides the pages that changed. */
export interface ComparisonFacts {
  /** Pages read in both (changed or not). */
  compared: number;
  /** Whether any page of the later reading carries per-check results (a page only it read counts too). */
  laterHasChecks: boolean;
  /** Whether any page read in both carried per-check results in the earlier reading. */
  earlierHasChecks: boolean;
  /** Pages read in both with per-check results in neither. */
  notJudgedOnChecks: readonly string[];
}

/**
 * The verdict over a comparison: `pages`, the pages read in both runs (those unchanged may be left out), and the facts
 * of the whole comparison.
 */
export function judgeComparison(pages: readonly ComparedPage[], facts: ComparisonFacts, gate: ComparisonGate): ComparisonVerdict {
  const gated = gate.maxDrop !== undefined || gate.failOnNewFailures === true;
  const byUrl = (a: ComparedPage, b: ComparedPage) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0);
  const newlyFailing = pages
    .filter((page) => page.change.newFailures.length > 0)
    .sort((a, b) => b.change.newFailures.length - a.change.newFailures.length || byUrl(a, b));
  const regressions = pages.filter((page) => regressed(page.change.reading, gate.maxDrop ?? 0)).sort(byUrl);
  const uncheckedSide = !facts.laterHasChecks ? 'later' : !facts.earlierHasChecks ? 'earlier' : undefined;
  const checksUnjudged = gate.failOnNewFailures === true && facts.compared > 0 && uncheckedSide !== undefined;
  const empty = gated && facts.compared === 0 && gate.allowEmpty !== true;
  const failed =
    empty || (gate.maxDrop !== undefined && regressions.length > 0) || (gate.failOnNewFailures === true && !checksUnjudged && newlyFailing.length > 0);
  return {
    gated,
    compared: facts.compared,
    empty,
    newlyFailing,
    regressions,
    notJudgedOnChecks: [...facts.notJudgedOnChecks].sort(),
    checksUnjudged,
    ...(checksUnjudged ? { uncheckedSide } : {}),
    failed,
  };
}

/** One finding of a verdict, as every face states it: a page and what failed on it. */
export interface ComparisonFinding {
  url: string;
  /** `checks/ID` for a check newly failing, `score` for a regression. */
  subject: string;
}

/** The findings that failed the gate (those its flags ask for), in a stable order: what every face must agree on. */
export function verdictFindings(verdict: ComparisonVerdict, gate: ComparisonGate): ComparisonFinding[] {
  const findings: ComparisonFinding[] = [];
  if (gate.failOnNewFailures === true && !verdict.checksUnjudged) {
    for (const page of verdict.newlyFailing) for (const id of page.change.newFailures) findings.push({ url: page.url, subject: `checks/${id}` });
  }
  if (gate.maxDrop !== undefined) for (const page of verdict.regressions) findings.push({ url: page.url, subject: 'score' });
  return findings;
}
