// history_trend and history_diff: `rsapi history trend` and `rsapi history diff` over the same history (--history,
// RSAPI_HISTORY or the profile's), read through the history's functions; their documents' values as the answer, cut
// to fit; both narrowed to a project or a job.
import { declareDiff, diffDocument, planHistoryDiff } from '../../cli/commands/history/diff.js';
import { sinceOf } from '../../cli/commands/history/shared.js';
import { declareTrend, planHistoryTrend, readTrend, trendDocument, trendOrigin } from '../../cli/commands/history/trend.js';
import { projectName } from '../../api/model/report-url.js';
import { inProject, judgeRunDiff, readRunDiff } from '../../history/diff.js';
import { verdictFindings, type ComparedPage, type ComparisonFinding, type ComparisonVerdict } from '../../judge/verdict.js';
import { holdYoungGeneration, YOUNG_GENERATION_MB } from '../../cli/runtime/heap.js';
import { booleanArg, optionArg, positionalArg } from '../arguments.js';
import { argumentOf, declared, flagOf } from '../declarations.js';
import { fitted, fittedLists } from '../results.js';
import { defineTool } from '../tool.js';
import { jobArg, jobSelection, withHistory } from './history-runs.js';

const trend = declared(declareTrend);
const diff = declared(declareDiff);

export const historyTrend = defineTool({
  name: 'history_trend',
  description: `${trend.description()}: one point per recorded run (score, failed checks). Give url, project or job (a job alone: every page it read, per page).`,
  args: [
    positionalArg(argumentOf(trend, 'url'), 'url'),
    optionArg(flagOf(trend, '--project'), 'project'),
    optionArg(flagOf(trend, '--since'), 'since'),
    optionArg(flagOf(trend, '--check'), 'check'),
    jobArg,
    optionArg(flagOf(trend, '--service'), 'service'),
  ],
  writes: false,
  readsHistory: true,
  hints: { readOnlyHint: true },
  async run(call, args) {
    const { url, project, check } = args;
    planHistoryTrend(call.ctx, { url, project, job: args.job });
    const { subject, points } = await withHistory(call, (store) =>
      readTrend(store, {
        url,
        project,
        since: sinceOf(args.since as number | undefined),
        check,
        // One service's readings unless told otherwise, as `history trend --service` has it.
        origin: trendOrigin(call.ctx, args.service as string | undefined),
        job: args.job,
        jobSelection: args.job === undefined ? undefined : jobSelection(args.job),
      }),
    );
    const list = trendDocument(subject, points, check, url === undefined).value;
    // Cut to fit from the oldest end: the newest points are the ones kept (oldest first, as the CLI gives them).
    return {
      value: fitted([...list].reverse(), (kept, left) => ({
        points: [...kept].reverse(),
        ...(left > 0 ? { more: `${left} earlier points left out; narrow with since (e.g. "30d")` } : {}),
      })),
    };
  },
});

/** How many snapshots of a run a diff reads between two turns of the event loop: a few tens of ms of walking. */
export const SNAPSHOTS_BETWEEN_TURNS = 1_000;

/**
 * The server's heap from its first diff on (V8's flags hold for the whole process): the young generation held as
 * `history diff` holds it, the old one grown by a tenth at a time. Two diffs of two runs of 100,000 reports run at once
 * (HISTORY_CALLS_AT_ONCE), each keeping some 45 MB to its end and making garbage fast: with the old generation grown by
 * half at a time, as `history diff` grows it (preferSmallHeapWhileDiffing), eight such calls peaked at 330-350 MB of
 * RSS; by a fifth, 240-270 MB; by a tenth, 190-250 MB (one call: 180-195 MB, against 200-210), as fast.
 */
const DIFF_HEAP_FLAGS = '--heap-growing-percent=10';

export const historyDiff = defineTool({
  name: 'history_diff',
  description: `${diff.description()}. Without runs: the last two complete runs of the same selection on the same service (of the project or job given).`,
  args: [
    positionalArg(argumentOf(diff, 'a'), 'a'),
    positionalArg(argumentOf(diff, 'b'), 'b'),
    optionArg(flagOf(diff, '--since'), 'since'),
    optionArg(flagOf(diff, '--project'), 'project'),
    jobArg,
    { ...booleanArg('fail_on_new_failures', flagOf(diff, '--fail-on-new-failures')?.description ?? ''), flag: '--fail-on-new-failures' },
    optionArg(flagOf(diff, '--max-drop'), 'max_drop'),
    { ...booleanArg('allow_empty', flagOf(diff, '--allow-empty')?.description ?? ''), flag: '--allow-empty' },
  ],
  writes: false,
  readsHistory: true,
  hints: { readOnlyHint: true },
  async run(call, args) {
    const run = (id: string | undefined) => (id === undefined ? undefined : Number(id));
    const ids = { a: run(args.a), b: run(args.b) };
    planHistoryDiff(call.ctx, ids);
    const since = sinceOf(args.since as number | undefined);
    const project = args.project === undefined ? undefined : projectName(args.project);
    const selection = args.job === undefined ? undefined : jobSelection(args.job);
    await holdYoungGeneration(YOUNG_GENERATION_MB, DIFF_HEAP_FLAGS);
    // The event loop turns as the runs are walked: the server reads and answers other requests meanwhile.
    const walk = { betweenTurns: SNAPSHOTS_BETWEEN_TURNS };
    const compared = await withHistory(call, async (store) => (await readRunDiff(store, ids, { since, selection, project }, inProject(project), walk)).diff);
    const { changes, ...runs } = diffDocument(compared).value;
    // The gate's verdict as a value, judged as `history diff` and --baseline judge the same two readings.
    const gate = { failOnNewFailures: args.fail_on_new_failures === true, maxDrop: args.max_drop as number | undefined, allowEmpty: args.allow_empty === true };
    const verdict = judgeRunDiff(compared, gate);
    const findings = verdictFindings(verdict, gate);
    // Every list cut to fit (a diff of two runs of 100,000 reports has tens of thousands of each), its count kept whole.
    const lists = {
      // Each change with what it has: a new page has no score before, and says so by leaving score_before out.
      changes: { items: each(changes, compactChange), count: changes.length },
      newly_failing: { items: each(verdict.newlyFailing, newlyFailingRow), count: verdict.newlyFailing.length },
      regressions: { items: each(verdict.regressions, regressionRow), count: verdict.regressions.length },
      not_judged_on_checks: { items: verdict.notJudgedOnChecks, count: verdict.notJudgedOnChecks.length },
      findings: { items: findings, count: findings.length },
    };
    const totals = diffTotals(changes);
    return {
      value: fittedLists(lists, (kept, left) => ({
        ...runs,
        totals,
        verdict: verdictValue(verdict, kept, findings.length),
        changes: kept.changes,
        ...moreOf(left),
      })),
    };
  },
});

type DiffChange = ReturnType<typeof diffDocument>['value']['changes'][number];

/** A change without its empty fields (null, or an empty list): 30 new pages were 6.7 KB of nulls. */
function compactChange(change: DiffChange): Partial<DiffChange> {
  return Object.fromEntries(Object.entries(change).filter(([, value]) => value !== null && !(Array.isArray(value) && value.length === 0)));
}

/** How many pages changed, by status, and how many checks newly fail and were fixed over them all. */
function diffTotals(changes: readonly DiffChange[]) {
  const statuses: Record<string, number> = {};
  for (const change of changes) statuses[change.status] = (statuses[change.status] ?? 0) + 1;
  return {
    changed_pages: changes.length,
    ...statuses,
    pages_newly_failing: changes.filter((change) => change.new_failures.length > 0).length,
    new_failures: changes.reduce((sum, change) => sum + change.new_failures.length, 0),
    fixed: changes.reduce((sum, change) => sum + change.fixed.length, 0),
  };
}

/** Each item of `items` as `row` makes it, made only when read. */
function* each<T, Row>(items: readonly T[], row: (item: T) => Row): Iterable<Row> {
  for (const item of items) yield row(item);
}

/** A page whose checks newly fail: its URL and those checks. */
function newlyFailingRow({ url, change }: ComparedPage) {
  return { url, checks: change.newFailures, ...(change.checksLost ? { checks_lost: true } : {}) };
}

/** A page that regressed: its score and result in either run. */
function regressionRow({ url, before, after }: ComparedPage) {
  return {
    url,
    score_before: before?.score ?? null,
    score_after: after?.score ?? null,
    result_before: before?.label ?? null,
    result_after: after?.label ?? null,
  };
}

/** What each list is called in a `more` note. */
const LEFT_OUT = {
  changes: 'changed URLs',
  newly_failing: 'pages newly failing',
  regressions: 'regressions',
  not_judged_on_checks: 'URLs not judged on checks',
  findings: 'findings',
} as const;

/** `{more}`: how many of each list were left out (`51234 more changed URLs and 41848 more pages newly failing left out`), and how to get them all. */
function moreOf(left: Record<keyof typeof LEFT_OUT, number>) {
  const parts = Object.entries(LEFT_OUT).flatMap(([list, words]) => {
    const count = left[list as keyof typeof LEFT_OUT];
    return count > 0 ? [`${count} more ${words}`] : [];
  });
  if (parts.length === 0) return {};
  const listed = parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
  return { more: `${listed} left out; history diff --json in the CLI gives them all` };
}

/**
 * The verdict of a diff as an agent reads it: whether the gate failed and the exit code `history diff` gives, what it
 * compared, how many pages newly fail and regressed, and of its lists (cut to fit: `kept`) the pages and the findings
 * (`findings`: each page and what failed on it, as every face states them).
 */
function verdictValue(
  verdict: ComparisonVerdict,
  kept: { newly_failing: unknown[]; regressions: unknown[]; not_judged_on_checks: string[]; findings: ComparisonFinding[] },
  findings: number,
) {
  const exit = !verdict.gated ? 0 : verdict.empty ? 10 : verdict.checksUnjudged ? 8 : verdict.failed ? 10 : 0;
  return {
    gated: verdict.gated,
    failed: verdict.failed || verdict.checksUnjudged,
    exit_code: exit,
    compared: verdict.compared,
    counts: {
      newly_failing: verdict.newlyFailing.length,
      regressions: verdict.regressions.length,
      findings,
      ...(verdict.notJudgedOnChecks.length > 0 ? { not_judged_on_checks: verdict.notJudgedOnChecks.length } : {}),
    },
    ...(verdict.empty ? { empty: 'no page of the earlier run was read again: a gate over nothing fails unless allow_empty' } : {}),
    ...(verdict.checksUnjudged ? { not_judged: 'the later run holds no per-check results: fail_on_new_failures cannot be judged' } : {}),
    newly_failing: kept.newly_failing,
    regressions: kept.regressions,
    ...(verdict.notJudgedOnChecks.length > 0 ? { not_judged_on_checks: kept.not_judged_on_checks } : {}),
    findings: kept.findings,
  };
}
