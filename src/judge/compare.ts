// One comparison of two readings of a page, for every face that compares (`--baseline`, `history diff`, `rsapi
// audit`, MCP's history_diff): the score and the result through the one regression rule, and the checks that newly
// fail, the fixed ones, and the checks lost when a page comes back with none at all.
import { readingChange, type ReadingChange } from '../api/model/regression.js';

/** One check of a reading: its id, and whether it passed. */
export interface CheckReading {
  id: string;
  passed: boolean;
}

/** What is compared of a page's reading: its score, its result, its per-check results (undefined: none were sent). */
export interface PageReading {
  score: number | undefined;
  label: string | undefined;
  checks: readonly CheckReading[] | undefined;
  /**
   * Whether check `id` passed (undefined: it has no such check), where the reading answers without a look-up made of
   * its checks (a baseline page's, SignedReading): comparing 50,000 pages made a map of each earlier reading's.
   */
  passed?(id: string): boolean | undefined;
}

/** What changed between two readings of one page. */
export interface PageChange {
  /** The score and result, as the one regression rule reads them (api/model/regression.ts). */
  reading: ReadingChange;
  /**
   * Checks that passed then and fail now, in the order of the later reading's checks; a page that came back with no
   * checks at all, where it had them, is newly failing on each check it passed (nothing shows they still pass).
   */
  newFailures: string[];
  /** Checks that failed then and pass now, in the order of the later reading's checks. */
  fixed: string[];
  /** It had per-check results then and has none now. */
  checksLost: boolean;
  /** Neither reading has per-check results: the page is not judged on checks. */
  notJudgedOnChecks: boolean;
}

/**
 * The change between two readings of a page. A check only one side ran (a newer service) is neither new nor fixed. The
 * history's fast path (history/diff.ts, which compares stored check texts) is held equal to this by a test.
 */
export function comparePage(then: PageReading, now: PageReading): PageChange {
  const reading = readingChange(then, now);
  const base = { reading, checksLost: false, notJudgedOnChecks: false };
  const checksThen = then.checks;
  if (checksThen === undefined) return { ...base, newFailures: [], fixed: [], notJudgedOnChecks: now.checks === undefined };
  if (now.checks === undefined) {
    const newFailures = checksThen.filter((check) => check.passed).map((check) => check.id);
    return { ...base, newFailures, fixed: [], checksLost: true };
  }
  const passedThen = then.passed?.bind(then) ?? lookUp(checksThen);
  const newFailures: string[] = [];
  const fixed: string[] = [];
  for (const check of now.checks) {
    const before = passedThen(check.id);
    if (before === true && !check.passed) newFailures.push(check.id);
    else if (before === false && check.passed) fixed.push(check.id);
  }
  return { ...base, newFailures, fixed };
}

/** Whether each check of a list passed, by id (the later of an id met twice). */
function lookUp(checks: readonly CheckReading[]): (id: string) => boolean | undefined {
  const passed = new Map(checks.map((check) => [check.id, check.passed]));
  return (id) => passed.get(id);
}
