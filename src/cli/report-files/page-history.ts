// What the --html page shows of a history: the earlier runs of the same command with the same selection on the same
// service (the runs `--baseline last` compares with), read once when the page is written. From them: the changes
// since the last one, each project's average score run by run, and each URL's scores for its sparkline.
import { snapshotRecord } from '../../history/snapshot.js';
import type { HistoryStore, RunQuery, Snapshot } from '../../history/types.js';
import { newestByUrl, type Baseline } from './baseline.js';

/** How many earlier runs the page reads: a quarter of weekly runs. */
export const PAGE_HISTORY_RUNS = 12;

export interface HistoryRun {
  id: number;
  /** ISO time. */
  started: string;
}

export interface PageHistory {
  /** The earlier complete runs read, oldest first; the last is the one the page compares with. */
  runs: HistoryRun[];
  /** The newest of them as a baseline: the page's "changed since the last run" (listed, never a gate). */
  last: Baseline;
  /** Per report identity (reportIdentity), its score in each of `runs` (null: not read in that run, or no score). */
  scores: Map<string, (number | null)[]>;
  /** Per project, its average score in each of `runs` (null: none of its reports had a score then). */
  projects: Map<string, (number | null)[]>;
}

/** The earlier runs like `same` (command, selection, origin), complete ones only; undefined when there is none. */
export async function readPageHistory(store: HistoryStore, same: RunQuery): Promise<PageHistory | undefined> {
  const found = await store.runs({ ...same, completeOnly: true, limit: PAGE_HISTORY_RUNS });
  if (found.length === 0) return undefined;
  const runs = found.reverse().map((run) => ({ id: run.id, started: run.started }));
  const rows: { run: number; started: string; snapshot: Snapshot }[] = [];
  let newest: Snapshot[] = [];
  for (const run of runs) {
    newest = await store.snapshotsOf(run.id);
    for (const snapshot of newest) rows.push({ run: run.id, started: run.started, snapshot });
  }
  const records = newest.map(snapshotRecord);
  const last = runs.at(-1)!;
  const byUrl = scoresByUrl(rows, runs);
  return {
    runs,
    last: { path: `run ${last.id} of the history`, byUrl: newestByUrl(records), hasChecks: records.some((record) => record.results !== undefined) },
    scores: new Map([...byUrl].map(([identity, { scores }]) => [identity, scores])),
    projects: averagesByProject(byUrl, runs),
  };
}

/** Each identity's score per run (the newest reading where a run read a URL twice), and its project. */
function scoresByUrl(rows: readonly { run: number; snapshot: Snapshot }[], runs: readonly HistoryRun[]) {
  const column = new Map(runs.map((run, index) => [run.id, index]));
  const byUrl = new Map<string, { project: string; generatedAt: string[]; scores: (number | null)[] }>();
  for (const { run, snapshot } of rows) {
    let entry = byUrl.get(snapshot.identity);
    if (!entry) {
      entry = { project: '', generatedAt: runs.map(() => ''), scores: runs.map(() => null) };
      byUrl.set(snapshot.identity, entry);
    }
    const index = column.get(run)!;
    if (snapshot.generatedAt < entry.generatedAt[index]!) continue;
    entry.generatedAt[index] = snapshot.generatedAt;
    entry.scores[index] = snapshot.score ?? null;
    entry.project = snapshot.project ?? '';
  }
  return byUrl;
}

/**
 * Each project's mean score per run over its URLs' scores then, as `history trend --project` works it out (worked out
 * from the scores alone: no check of 10,000 reports x 12 runs is decoded for it).
 */
function averagesByProject(byUrl: ReturnType<typeof scoresByUrl>, runs: readonly HistoryRun[]): Map<string, (number | null)[]> {
  const sums = new Map<string, { total: number[]; count: number[] }>();
  for (const { project, scores } of byUrl.values()) {
    let sum = sums.get(project);
    if (!sum) {
      sum = { total: runs.map(() => 0), count: runs.map(() => 0) };
      sums.set(project, sum);
    }
    scores.forEach((score, index) => {
      if (score === null) return;
      sum.total[index]! += score;
      sum.count[index]!++;
    });
  }
  const mean = (total: number, count: number) => (count === 0 ? null : Math.round((total / count) * 10) / 10);
  return new Map([...sums].map(([project, { total, count }]) => [project, total.map((value, index) => mean(value, count[index]!))]));
}
