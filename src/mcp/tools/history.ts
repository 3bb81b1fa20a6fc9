// history_trend and history_diff: `rsapi history trend` and `rsapi history diff` over the same history (--history,
// RSAPI_HISTORY or the profile's), read through the history's functions; their documents' values as the answer, cut
// to fit; both narrowed to a project or a job.
import { declareDiff, diffDocument, validateHistoryDiff } from '../../cli/commands/history/diff.js';
import { currentService, sinceOf } from '../../cli/commands/history/shared.js';
import { declareTrend, trendDocument, validateHistoryTrend } from '../../cli/commands/history/trend.js';
import { projectName, reportIdentity, reportProject } from '../../api/model/report-url.js';
import { diffSnapshots, runsToCompare } from '../../history/diff.js';
import { projectPoints } from '../../history/trend.js';
import type { Snapshot } from '../../history/types.js';
import { optionArg, positionalArg } from '../arguments.js';
import { argumentOf, declared, flagOf } from '../declarations.js';
import { fitted } from '../results.js';
import { defineTool } from '../tool.js';
import { jobArg, jobSelection, withHistory } from './history-runs.js';

const trend = declared(declareTrend);
const diff = declared(declareDiff);

export const historyTrend = defineTool({
  name: 'history_trend',
  description: `${trend.description()}: one point per recorded run (score, failed checks). Give url or project.`,
  args: [
    positionalArg(argumentOf(trend, 'url'), 'url'),
    optionArg(flagOf(trend, '--project'), 'project'),
    optionArg(flagOf(trend, '--since'), 'since'),
    optionArg(flagOf(trend, '--check'), 'check'),
    jobArg,
    optionArg(flagOf(trend, '--service'), 'service'),
  ],
  writes: false,
  hints: { readOnlyHint: true },
  async run(call, args) {
    const { url, project, check } = args;
    validateHistoryTrend(call.ctx, { url, project });
    const selection = args.job === undefined ? undefined : jobSelection(args.job);
    const since = sinceOf(args.since as number | undefined);
    const subject = url !== undefined ? reportIdentity(url) : projectName(project as string);
    // One service's readings unless told otherwise, as `history trend --service` has it.
    const service = args.service as string | undefined;
    const origin = service === 'all' ? undefined : (service ?? currentService(call.ctx));
    const points = await withHistory(call, async (store) => {
      const ofJob = selection === undefined ? undefined : new Set((await store.runs({ selection })).map((run) => run.id));
      const inJob = (run: number) => ofJob === undefined || ofJob.has(run);
      if (url !== undefined) return (await store.trendOfUrl(subject, { since, check, origin })).filter((point) => inJob(point.run));
      return projectPoints(
        (await store.snapshotsOfProject(subject, { since, origin })).filter((row) => inJob(row.run)),
        check,
      );
    });
    const list = trendDocument(subject, points, check, project !== undefined).value;
    // Cut to fit from the oldest end: the newest points are the ones kept (oldest first, as the CLI gives them).
    return {
      value: fitted([...list].reverse(), (kept, left) => ({
        points: [...kept].reverse(),
        ...(left > 0 ? { more: `${left} earlier points left out; narrow with since (e.g. "30d")` } : {}),
      })),
    };
  },
});

export const historyDiff = defineTool({
  name: 'history_diff',
  description: `${diff.description()}. Without runs: the last two complete runs of the same selection on the same service (of the project or job given).`,
  args: [
    positionalArg(argumentOf(diff, 'a'), 'a'),
    positionalArg(argumentOf(diff, 'b'), 'b'),
    optionArg(flagOf(diff, '--since'), 'since'),
    optionArg(flagOf(trend, '--project'), 'project'),
    jobArg,
  ],
  writes: false,
  hints: { readOnlyHint: true },
  async run(call, args) {
    const run = (id: string | undefined) => (id === undefined ? undefined : Number(id));
    const ids = { a: run(args.a), b: run(args.b) };
    validateHistoryDiff(call.ctx, ids);
    const since = sinceOf(args.since as number | undefined);
    const project = args.project === undefined ? undefined : projectName(args.project);
    const selection = args.job === undefined ? undefined : jobSelection(args.job);
    const inProject = (snapshot: Snapshot) => project === undefined || (snapshot.project ?? reportProject(snapshot.identity)) === project;
    const compared = await withHistory(call, async (store) => {
      const { from, to } = await runsToCompare(store, ids, { since, selection, project });
      const [before, after] = await Promise.all([store.snapshotsOf(from.id, { sorted: false }), store.snapshotsOf(to.id, { sorted: false })]);
      return { from, to, ...diffSnapshots(before.filter(inProject), after.filter(inProject)) };
    });
    const document = diffDocument(compared).value;
    return {
      value: fitted(document.changes, (kept, left) => ({
        ...document,
        changes: kept,
        ...(left > 0 ? { more: `${left} more changed URLs left out; history diff --json in the CLI gives them all` } : {}),
      })),
    };
  },
});
