// The history read into the page's data (HistoryPageData): per job its pages and check ids interned, the check states
// of its readings interned, and each run as the readings that changed since the run before it; a job of more pages
// than --max-pages as its runs' totals alone.
import { RESULTS } from '../../../../api/model/report-model.js';
import { newestOfEachUrl } from '../../../../history/diff.js';
import { MINUS, partEnd, SIGN_FROM_END } from '../../../../history/snapshot.js';
import type { HistoryStore, RunInfo, Snapshot } from '../../../../history/types.js';
import { historyModel, type HistoryPageData, type JobData, type RunData } from '../../../report-files/history-html/model.js';
import { describeSelection } from '../../history/shared.js';

export interface HistoryPageQuery {
  /** The jobs' selection keys (`{"job":"shop"}`) and names as given; none: every job. */
  jobs?: { name: string; selection: string }[];
  /** A project as the history files it (projectName). */
  project?: string;
  /** ISO time on the store's clock: runs recorded since then. */
  since?: string;
  maxPages: number;
  /** When the file is written (tests fix it). */
  now?: Date;
}

/** Reads every run the query keeps, job by job, oldest first, into the page's data. */
export async function readHistoryPageData(store: HistoryStore, query: HistoryPageQuery): Promise<HistoryPageData> {
  const selections = query.jobs === undefined ? undefined : new Set(query.jobs.map((job) => job.selection));
  const runs = (await store.runs({ since: query.since })).filter((run) => selections?.has(run.selection) ?? true).reverse();
  const groups = new Map<string, RunInfo[]>();
  for (const run of runs) {
    const key = JSON.stringify([run.selection.startsWith('{"job":') ? '' : run.command, run.selection, run.origin]);
    groups.set(key, [...(groups.get(key) ?? []), run]);
  }
  const labels: string[] = [...RESULTS];
  const jobs: JobData[] = [];
  const keys = new Set<string>();
  for (const group of groups.values()) {
    const job = await readJob(store, group, labels, query.project);
    if (job.runs.length === 0) continue;
    job.key = uniqueKey(job.key, keys);
    jobs.push(job.urls.length > query.maxPages ? summarised(job, labels) : job);
  }
  const asked = {
    ...(query.jobs === undefined ? {} : { jobs: query.jobs.map((job) => job.name) }),
    ...(query.project === undefined ? {} : { project: query.project }),
    ...(query.since === undefined ? {} : { since: query.since }),
    maxPages: query.maxPages,
  };
  return { written: (query.now ?? new Date()).toISOString(), labels, asked, jobs };
}

/** A key not taken yet: `shop`, then `shop-2` (the same job's name on a second service). */
function uniqueKey(key: string, taken: Set<string>): string {
  let unique = key;
  for (let n = 2; taken.has(unique); n++) unique = `${key}-${n}`;
  taken.add(unique);
  return unique;
}

/** What a reading is, to tell whether it changed since the run before. */
interface Held {
  score: number | null;
  label: number;
  state: number;
  report: string | number;
  /** The stored checks text: the same text next run is the same state, not read again. */
  text: string | undefined;
}

/** One job's runs, each as what changed since the run before it (the runs that read none of --project's pages left out). */
async function readJob(store: HistoryStore, runs: readonly RunInfo[], labels: string[], project: string | undefined): Promise<JobData> {
  const first = runs[0]!;
  const named = jobName(first.selection);
  const job: JobData = {
    key: named ?? `run-${first.id}`,
    name: named ?? describeSelection(first.command, first.selection),
    origin: first.origin,
    urls: [],
    projects: [],
    urlProjects: [],
    checks: [],
    present: [],
    states: [],
    runs: [],
  };
  const intern = interner(job);
  let held = new Map<number, Held>();
  for (const run of runs) {
    const snapshots = await store.snapshotsOf(run.id, { sorted: false });
    const kept = project === undefined ? snapshots : snapshots.filter((snapshot) => snapshot.project === project);
    if (project !== undefined && kept.length === 0) continue;
    const now = new Map<number, Held>();
    const changed: RunData['changed'] = [];
    for (const snapshot of newestOfEachUrl(kept).values()) {
      const page = intern.page(snapshot);
      const reading: Held = {
        score: snapshot.score ?? null,
        label: snapshot.label === undefined ? -1 : labelIndex(labels, snapshot.label),
        state: -1,
        report: reportIdOf(snapshot.reportId),
        text: snapshot.checksText,
      };
      const before = held.get(page);
      reading.state = before !== undefined && before.text === reading.text ? before.state : intern.state(reading.text);
      now.set(page, reading);
      if (!before || before.score !== reading.score || before.label !== reading.label || before.state !== reading.state || before.report !== reading.report)
        changed.push(page, reading.score, reading.label, reading.state, reading.report);
    }
    const gone = [...held.keys()].filter((page) => !now.has(page));
    job.runs.push({ id: run.id, started: run.started, complete: run.complete, exit: run.exitCode ?? null, reports: run.reports, changed, gone });
    held = now;
  }
  return job;
}

/** `shop` of a run recorded with `--job shop`; undefined for any other selection. */
function jobName(selection: string): string | undefined {
  if (!selection.startsWith('{"job":')) return undefined;
  try {
    const parsed = JSON.parse(selection) as { job?: unknown };
    return typeof parsed.job === 'string' ? parsed.job : undefined;
  } catch {
    return undefined;
  }
}

function labelIndex(labels: string[], label: string): number {
  const index = labels.indexOf(label);
  if (index >= 0) return index;
  labels.push(label);
  return labels.length - 1;
}

/** A report id as the service sent it: a whole number as a number (shorter in the file), else its text. */
function reportIdOf(id: string): string | number {
  return /^(0|[1-9]\d{0,14})$/.test(id) ? Number(id) : id;
}

/** The job's tables, filled as readings are met: pages, projects, check ids, the sets of checks carried, check states. */
function interner(job: JobData) {
  const pages = new Map<string, number>();
  const projects = new Map<string, number>();
  const checks = new Map<string, number>();
  const presents = new Map<string, number>();
  const states = new Map<string, number>();
  const add = <T>(map: Map<string, number>, list: T[], key: string, value: T) => {
    let index = map.get(key);
    if (index === undefined) {
      index = list.push(value) - 1;
      map.set(key, index);
    }
    return index;
  };
  const check = (id: string) => add(checks, job.checks, id, id);
  return {
    page(snapshot: Snapshot): number {
      const known = pages.get(snapshot.identity);
      if (known !== undefined) return known;
      const projectName = snapshot.project ?? '';
      job.urlProjects.push(add(projects, job.projects, projectName, projectName));
      return add(pages, job.urls, snapshot.identity, snapshot.identity);
    },
    /** A stored checks text as a state index (-1: none), read part by part from its signs (as failedCount does). */
    state(text: string | undefined): number {
      if (text === undefined) return -1;
      const carried: number[] = [];
      const failed: number[] = [];
      for (let start = 0; start < text.length; ) {
        const end = partEnd(text, start);
        const sign = end - SIGN_FROM_END;
        if (sign >= start) {
          const raw = text.slice(start, sign);
          const index = check(raw.includes('%') ? decodeURIComponent(raw) : raw);
          carried.push(index);
          if (text.charCodeAt(sign) === MINUS) failed.push(index);
        }
        start = end + 1;
      }
      const present = add(presents, job.present, carried.join(','), carried);
      return add(states, job.states, `${present}:${failed.join(',')}`, [present, ...failed]);
    },
  };
}

/** A job past --max-pages: its runs' figures worked out here (as the page would), its pages and readings left out. */
function summarised(job: JobData, labels: string[]): JobData {
  const model = historyModel();
  const totals = model.stats(model.decode({ ...job, labelNames: labels }));
  return {
    ...job,
    urls: [],
    projects: [],
    urlProjects: [],
    present: [],
    states: [],
    runs: job.runs.map((run, index) => ({ ...run, changed: [], gone: [], totals: totals[index] })),
    summarised: { pages: job.urls.length },
  };
}
