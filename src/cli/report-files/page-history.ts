// What the --html page shows of a history: the earlier runs of the same command with the same selection on the same
// service (the runs `--baseline last` compares with), read once when the page is written. From them: the changes
// since the last one, each project's average score run by run, and each URL's scores for its sparkline.
import { snapshotRecord } from '../../history/snapshot.js';
import { projectPoints } from '../../history/trend.js';
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
  return {
    runs,
    last: { path: `run ${last.id} of the history`, byUrl: newestByUrl(records), hasChecks: records.some((record) => record.results !== undefined) },
    scores: scoresByUrl(rows, runs),
    projects: averagesByProject(rows, runs),
  };
}

/** Each identity's score per run; the newest reading where a run read a URL twice. */
function scoresByUrl(rows: readonly { run: number; snapshot: Snapshot }[], runs: readonly HistoryRun[]): Map<string, (number | null)[]> {
  const column = new Map(runs.map((run, index) => [run.id, index]));
  const newest = new Map<string, { generatedAt: string[]; scores: (number | null)[] }>();
  for (const { run, snapshot } of rows) {
    let entry = newest.get(snapshot.identity);
    if (!entry) {
      entry = { generatedAt: runs.map(() => ''), scores: runs.map(() => null) };
      newest.set(snapshot.identity, entry);
    }
    const index = column.get(run)!;
    if (snapshot.generatedAt < entry.generatedAt[index]!) continue;
    entry.generatedAt[index] = snapshot.generatedAt;
    entry.scores[index] = snapshot.score ?? null;
  }
  return new Map([...newest].map(([identity, { scores }]) => [identity, scores]));
}

/** Each project's mean score per run, as `history trend --project` works it out. */
function averagesByProject(rows: readonly { run: number; started: string; snapshot: Snapshot }[], runs: readonly HistoryRun[]): Map<string, (number | null)[]> {
  const byProject = new Map<string, { run: number; started: string; snapshot: Snapshot }[]>();
  for (const row of rows) {
    const project = row.snapshot.project ?? '';
    const list = byProject.get(project) ?? [];
    list.push(row);
    byProject.set(project, list);
  }
  return new Map(
    [...byProject].map(([project, projectRows]) => {
      const points = new Map(projectPoints(projectRows).map((point) => [point.run, point.score ?? null]));
      return [project, runs.map((run) => points.get(run.id) ?? null)];
    }),
  );
}
