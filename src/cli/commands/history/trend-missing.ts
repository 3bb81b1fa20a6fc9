// Why `history trend` found nothing to show, as an exit-4 error worded for what was asked: a URL, project or check no
// run read (with a did-you-mean over what the history holds), or readings all outside --since, the service or the job.
import { HistoryNotFoundError } from '../../../history/errors.js';
import type { HistoryStore } from '../../../history/types.js';
import { nearest } from '../../../suggest.js';

export interface TrendAsked {
  subject: string;
  project: boolean;
  /** --since as the ISO time of the store's clock it starts at. */
  since: string | undefined;
  /** The one service read (undefined: --service all). */
  origin: string | undefined;
  job: string | undefined;
  /** The runs of --job (undefined: no --job). */
  jobRuns: ReadonlySet<number> | undefined;
}

const RUNS_HINT = '`rsapi history runs` lists the runs; `rsapi history show RUN` the pages a run read';

/** The error for a trend with no point: narrowed one filter at a time, so it names the one that left nothing. */
export async function noReadingError(store: HistoryStore, asked: TrendAsked): Promise<HistoryNotFoundError> {
  const what = asked.project ? `the project ${asked.subject}` : asked.subject;
  const readings = async (filter: { since?: string }) =>
    asked.project
      ? (await store.snapshotsOfProject(asked.subject, filter)).map((row) => ({ run: row.run, origin: row.snapshot.origin }))
      : (await store.trendOfUrl(asked.subject, filter)).map((point) => ({ run: point.run, origin: point.origin }));
  const all = await readings({});
  if (all.length === 0) {
    const held = await store.heldNames();
    const near = nearest(asked.subject, asked.project ? held.projects : held.identities);
    // A project's name given as a URL (or the other way round) is read under the other flag.
    const other = asked.project ? held.identities.includes(asked.subject) : held.projects.includes(asked.subject);
    const hint = near
      ? `did you mean ${asked.project ? `--project ${near}` : near}?`
      : other
        ? asked.project
          ? `${asked.subject} is a page the history read: give it without --project`
          : `${asked.subject} is a project the history read: --project ${asked.subject}`
        : RUNS_HINT;
    return new HistoryNotFoundError(`no run in the history read ${what}`, { hint });
  }
  const newest = all[all.length - 1]?.run;
  const inWindow = asked.since === undefined ? all : await readings({ since: asked.since });
  const since = asked.since === undefined ? '' : ` since ${asked.since} (--since)`;
  if (inWindow.length === 0) {
    return new HistoryNotFoundError(`no run${since} read ${what}`, { hint: `its newest reading is of run ${newest}: a longer --since reaches it` });
  }
  const onService = asked.origin === undefined ? inWindow : inWindow.filter((reading) => reading.origin === asked.origin);
  if (onService.length === 0) {
    const services = [...new Set(inWindow.map((reading) => reading.origin))];
    return new HistoryNotFoundError(`no run${since} read ${what} from ${asked.origin}`, {
      hint: `it was read from ${services.join(', ')}: --service ${services.length === 1 ? services[0] : 'all'}`,
    });
  }
  if (asked.jobRuns !== undefined && asked.jobRuns.size === 0) {
    return new HistoryNotFoundError(`no run of the job ${asked.job} in the history`, { hint: "`rsapi history runs` shows each run's job" });
  }
  const service = asked.origin === undefined ? '' : ` from ${asked.origin}`;
  return new HistoryNotFoundError(`no run of the job ${asked.job}${since} read ${what}${service}`, {
    hint: `other runs did (the newest: run ${onService[onService.length - 1]?.run}); without --job the trend shows them`,
  });
}

/** The error for a --check that none of the trend's readings has. */
export async function checkNotReadError(store: HistoryStore, asked: TrendAsked, check: string): Promise<HistoryNotFoundError> {
  const near = nearest(check, (await store.heldNames()).checks);
  const what = asked.project ? `the project ${asked.subject}` : asked.subject;
  return new HistoryNotFoundError(`no reading of ${what} has the check ${check}`, {
    hint: near ? `did you mean --check ${near}?` : 'the checks are those of `rsapi reports show ID`',
  });
}
