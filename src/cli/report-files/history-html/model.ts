// The data `rsapi history html` embeds (every job's runs, its pages and checks interned, each run as the readings that
// changed since the run before it), and the one model that reads it: in the page's script, and in Node for the tests
// and for a job summarised past --max-pages. The comparison of two runs is `history diff`'s (src/history/diff.ts),
// the trend of a page `history trend URL --job NAME`'s, the points of a job `history trend --job NAME`'s.
import type { UrlChange } from '../../../history/diff.js';

/** What the page embeds, as one JSON in a script element. */
export interface HistoryPageData {
  /** When the file was written (ISO). */
  written: string;
  /** The results a reading may have, by index (`good`, `decent`, `bad`, then any other a service sent). */
  labels: string[];
  /** What the command was asked to keep: shown at the top of the page. */
  asked: { jobs?: string[]; project?: string; since?: string; maxPages: number };
  jobs: JobData[];
}

/** One job: the runs of one selection on one service (`history diff`'s comparable runs, incomplete ones too). */
export interface JobData {
  /** Its name in a deep link (`#job=shop`): the job's name, or `run-ID` of its first run when it has none. */
  key: string;
  /** `shop` for `--job shop`; else the command and flags that select it (`reports list --all --project x`). */
  name: string;
  origin: string;
  /** The pages (URL identities), interned: a reading names its page by index. */
  urls: string[];
  projects: string[];
  /** The project index of each page. */
  urlProjects: number[];
  /** The check ids, interned. */
  checks: string[];
  /** The sets of checks a reading carried (check indexes): nearly every reading of a service carries one and the same. */
  present: number[][];
  /** A reading's checks: [index in `present`, then the indexes of the checks that failed], interned. */
  states: number[][];
  runs: RunData[];
  /** Set when the job read more pages than --max-pages: its runs carry totals, and no page. */
  summarised?: { pages: number };
  /** The file's labels (HistoryPageData.labels), handed to each job when the data is read; never written. */
  labelNames?: string[];
}

/** One reading in RunData.changed: [page, score, label index (-1 none), state index (-1 no per-check results), report id]. */
export type Reading = [page: number, score: number | null, label: number, state: number, report: string | number];

export interface RunData {
  id: number;
  started: string;
  complete: boolean;
  exit: number | null;
  /** The reports the run read (all of them, whatever --project kept): a run that read none is never a baseline. */
  reports: number;
  /** The readings that differ from the run before it in this job (or are of pages it did not read), flattened. */
  changed: (number | string | null)[];
  /** The pages the run before read and this one did not. */
  gone: number[];
  /** A summarised job's run: its figures, worked out when the file was written. */
  totals?: RunStats;
}

/** A run's figures over the pages kept (a filter), and what changed since its baseline. */
export interface RunStats {
  pages: number;
  /** The mean score, to one decimal (as `history trend --job` has it). */
  score: number | null;
  /** Failed checks per page that has per-check results, to one decimal; and their sum. */
  failed: number | null;
  failedTotal: number | null;
  /** Per check index: the pages failing it. */
  checkFails: number[];
  /** The index of the run compared with: the job's complete run before it that read reports. */
  baseline: number | null;
  /** Checks newly failing (summed over pages), the pages with any, checks fixed, pages new and vanished. */
  newFailures: number;
  failingPages: number;
  fixed: number;
  newPages: number;
  vanished: number;
}

/** A page's change between two runs: `history diff --json`'s change, by page index. */
export type PageChange = Omit<UrlChange, 'checksLost'> & {
  page: number;
  /** The later run's report (the earlier's for a vanished page): its page on the service. */
  report: string | number | null;
};

/** A point of a page's trend: `history trend URL --json`'s. */
export interface PagePoint {
  run: number;
  started: string;
  score: number | undefined;
  failed: number | undefined;
  label: string | undefined;
}

/** A job's runs laid out as a runs x pages grid (typed arrays: 260,000 readings decode in milliseconds). */
export interface DecodedJob {
  job: JobData;
  pages: number;
  /** NaN: no score (or not read). */
  score: Float64Array;
  /** -2: not read in that run; -1: read, no result. */
  label: Int8Array;
  /** -2: not read; -1: read, no per-check results. */
  state: Int32Array;
  report: (string | number | null)[];
  /** Per state: each check's standing, 1 passed, 0 failed, -1 not carried (made when first asked). */
  standing(state: number): Int8Array;
}

export type HistoryModel = ReturnType<typeof historyModel>;

/**
 * The model's functions. Embedded in the page as its source text (`String(historyModel)`), so it uses nothing from
 * any import (types aside), only the language's globals.
 */
export function historyModel() {
  const NOT_READ = -2;
  const TUPLE = 5;

  /** Replays a job's runs into one grid: each run starts as the run before it, then its changes and its gone pages. */
  function decode(job: JobData): DecodedJob {
    const pages = job.urls.length;
    const cells = job.runs.length * pages;
    const score = new Float64Array(cells).fill(Number.NaN);
    const label = new Int8Array(cells).fill(NOT_READ);
    const state = new Int32Array(cells).fill(NOT_READ);
    const report: (string | number | null)[] = new Array<string | number | null>(cells).fill(null);
    job.runs.forEach((run, r) => {
      const at = r * pages;
      if (r > 0) {
        score.copyWithin(at, at - pages, at);
        label.copyWithin(at, at - pages, at);
        state.copyWithin(at, at - pages, at);
        for (let p = 0; p < pages; p++) report[at + p] = report[at - pages + p] as string | number | null;
      }
      for (const p of run.gone) {
        score[at + p] = Number.NaN;
        label[at + p] = NOT_READ;
        state[at + p] = NOT_READ;
        report[at + p] = null;
      }
      const changed = run.changed;
      for (let i = 0; i < changed.length; i += TUPLE) {
        const cell = at + (changed[i] as number);
        const value = changed[i + 1];
        score[cell] = value === null ? Number.NaN : (value as number);
        label[cell] = changed[i + 2] as number;
        state[cell] = changed[i + 3] as number;
        report[cell] = changed[i + 4] as string | number;
      }
    });
    const standings = new Map<number, Int8Array>();
    const standing = (index: number) => {
      let known = standings.get(index);
      if (!known) {
        known = new Int8Array(job.checks.length).fill(-1);
        const entry = job.states[index] ?? [];
        for (const check of job.present[entry[0] ?? -1] ?? []) known[check] = 1;
        for (let i = 1; i < entry.length; i++) known[entry[i] as number] = 0;
        standings.set(index, known);
      }
      return known;
    };
    return { job, pages, score, label, state, report, standing };
  }

  /** The failed checks of a reading's state (undefined: no per-check results). */
  function failedOf(job: JobData, state: number): number | undefined {
    return state < 0 ? undefined : (job.states[state]?.length ?? 1) - 1;
  }

  /** Which pages a filter keeps: a project (index, or -1 for any) and a test of the URL. */
  function pageMask(job: JobData, project: number, matches: ((url: string) => boolean) | undefined): Uint8Array {
    const mask = new Uint8Array(job.urls.length);
    job.urls.forEach((url, p) => {
      mask[p] = (project < 0 || job.urlProjects[p] === project) && (matches === undefined || matches(url)) ? 1 : 0;
    });
    return mask;
  }

  /** The run a run is compared with: the nearest complete run before it that read reports, as `history diff` picks. */
  function baselineOf(job: JobData, r: number): number | null {
    for (let q = r - 1; q >= 0; q--) {
      const run = job.runs[q]!;
      if (run.complete && run.reports > 0) return q;
    }
    return null;
  }

  /**
   * Runs `a` and `b` compared page by page, as `history diff A B` compares them (src/history/diff.ts's diffSnapshots):
   * checks newly failing and fixed (by id, among the checks both readings carry), score and result changes, new and
   * vanished pages; in its order.
   */
  function compare(decoded: DecodedJob, a: number, b: number, mask?: Uint8Array): { compared: number; changes: PageChange[] } {
    const { job, pages, score, label, state, report } = decoded;
    const changes: PageChange[] = [];
    let compared = 0;
    const round = (n: number) => Math.round(n * 100) / 100;
    const known = (n: number) => (Number.isNaN(n) ? undefined : n);
    const labelName = (index: number) => (index < 0 ? undefined : job.labelNames?.[index]);
    for (let p = 0; p < pages; p++) {
      if (mask && mask[p] === 0) continue;
      const then = a * pages + p;
      const now = b * pages + p;
      const readThen = label[then] !== NOT_READ;
      const readNow = label[now] !== NOT_READ;
      if (!readThen && !readNow) continue;
      const entry = (status: PageChange['status'], from: number | undefined, to: number | undefined): PageChange => {
        const before = from === undefined ? undefined : known(score[from]!);
        const after = to === undefined ? undefined : known(score[to]!);
        return {
          page: p,
          url: job.urls[p]!,
          status,
          scoreBefore: before,
          scoreAfter: after,
          labelBefore: from === undefined ? undefined : labelName(label[from]!),
          labelAfter: to === undefined ? undefined : labelName(label[to]!),
          scoreChange: before !== undefined && after !== undefined ? round(after - before) : undefined,
          newFailures: [],
          fixed: [],
          report: report[to ?? (from as number)] ?? null,
        };
      };
      if (!readThen) {
        changes.push(entry('new', undefined, now));
        continue;
      }
      if (!readNow) {
        changes.push(entry('vanished', then, undefined));
        continue;
      }
      compared++;
      const change = entry('changed', then, now);
      const [stateThen, stateNow] = [state[then]!, state[now]!];
      if (stateThen !== stateNow && stateThen >= 0 && stateNow >= 0) {
        const [before, after] = [decoded.standing(stateThen), decoded.standing(stateNow)];
        for (let c = 0; c < after.length; c++) {
          if (before[c] === 1 && after[c] === 0) change.newFailures.push(job.checks[c]!);
          else if (before[c] === 0 && after[c] === 1) change.fixed.push(job.checks[c]!);
        }
        change.newFailures.sort();
        change.fixed.sort();
      }
      const lostScore = change.scoreBefore !== undefined && change.scoreAfter === undefined;
      if (change.newFailures.length > 0 || change.fixed.length > 0 || (change.scoreChange ?? 0) !== 0 || change.labelBefore !== change.labelAfter || lostScore)
        changes.push(change);
    }
    const rank = (c: PageChange) => (c.status === 'new' ? 1 : c.status === 'vanished' ? 2 : 0);
    changes.sort(
      (x, y) =>
        rank(x) - rank(y) ||
        y.newFailures.length - x.newFailures.length ||
        y.fixed.length - x.fixed.length ||
        (x.scoreChange ?? 0) - (y.scoreChange ?? 0) ||
        (x.url < y.url ? -1 : x.url > y.url ? 1 : 0),
    );
    return { compared, changes };
  }

  /** Every run's figures over the pages the mask keeps, each compared with its baseline (a summarised job's as written). */
  function stats(decoded: DecodedJob, mask?: Uint8Array): RunStats[] {
    const { job, pages, score, label, state } = decoded;
    if (job.summarised) return job.runs.map((run) => run.totals!);
    return job.runs.map((_, r) => {
      const checkFails = new Array<number>(job.checks.length).fill(0);
      let [read, scored, sum, withChecks, failedTotal] = [0, 0, 0, 0, 0];
      for (let p = 0; p < pages; p++) {
        if (mask && mask[p] === 0) continue;
        const cell = r * pages + p;
        if (label[cell] === NOT_READ) continue;
        read++;
        if (!Number.isNaN(score[cell]!)) {
          scored++;
          sum += score[cell]!;
        }
        const s = state[cell]!;
        if (s >= 0) {
          withChecks++;
          const entry = job.states[s]!;
          failedTotal += entry.length - 1;
          for (let i = 1; i < entry.length; i++) checkFails[entry[i] as number]!++;
        }
      }
      const baseline = baselineOf(job, r);
      const totals: RunStats = {
        pages: read,
        score: scored > 0 ? Math.round((sum / scored) * 10) / 10 : null,
        failed: withChecks > 0 ? Math.round((failedTotal / withChecks) * 10) / 10 : null,
        failedTotal: withChecks > 0 ? failedTotal : null,
        checkFails,
        baseline,
        newFailures: 0,
        failingPages: 0,
        fixed: 0,
        newPages: 0,
        vanished: 0,
      };
      if (baseline !== null) {
        for (const change of compare(decoded, baseline, r, mask).changes) {
          totals.newFailures += change.newFailures.length;
          totals.failingPages += change.newFailures.length > 0 ? 1 : 0;
          totals.fixed += change.fixed.length;
          totals.newPages += change.status === 'new' ? 1 : 0;
          totals.vanished += change.status === 'vanished' ? 1 : 0;
        }
      }
      return totals;
    });
  }

  /** A page's readings over the job's runs, oldest first: `history trend URL --job NAME --json`'s points. */
  function trend(decoded: DecodedJob, page: number): PagePoint[] {
    const { job, pages, score, label, state } = decoded;
    const points: PagePoint[] = [];
    job.runs.forEach((run, r) => {
      const cell = r * pages + page;
      if (label[cell] === NOT_READ) return;
      points.push({
        run: run.id,
        started: run.started,
        score: Number.isNaN(score[cell]!) ? undefined : score[cell],
        failed: failedOf(job, state[cell]!),
        label: label[cell]! < 0 ? undefined : job.labelNames?.[label[cell]!],
      });
    });
    return points;
  }

  return { decode, pageMask, baselineOf, compare, stats, trend, failedOf };
}
