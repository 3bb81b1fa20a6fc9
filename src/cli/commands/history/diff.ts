// `rsapi history diff [A [B]]`: per URL the checks that newly fail, the fixed ones, score changes, new and vanished
// URLs, between two recorded runs (by default the last two complete runs of one selection on one service); gates.
import { checkName } from '../../../api/model/checks.js';
import { projectName } from '../../../api/model/report-url.js';
import { formatScore } from '../../../api/model/report-model.js';
import { maxDropParser } from '../../report-files/ci-options.js';
import { selectionKey } from '../../reading/history-place.js';
import { inProject, judgeRunDiff, newestOfEachUrl, readRunDiff, type RunDiff, type UrlChange } from '../../../history/diff.js';
import type { ComparisonVerdict } from '../../../judge/verdict.js';
import { snapshotRecord } from '../../../history/snapshot.js';
import type { Snapshot } from '../../../history/types.js';
import { plural } from '../../../plural.js';
import type { CommandContext } from '../../runtime/context.js';
import { DIFF_COLUMNS, diffText } from './diff-text.js';
import { ExitCode } from '../../runtime/exit-codes.js';
import { preferSmallHeapWhileDiffing } from '../../runtime/heap.js';
import { checkRunFiles } from '../../runtime/run-files.js';
import { addVerdictOptions, checkVerdictFlags, verdictFiles } from '../../verdicts/options.js';
import type { AssertionSet } from '../../verdicts/rules.js';
import { handle, type Invocation, type OptionsOf, type ParentCommand } from '../../runtime/handler.js';
import { addHistoryLocationOption, checkDocumentFlags, durationParser, openHistoryOf, runIdParser, sinceOf, writeDocument } from './shared.js';

export function declareDiff(history: ParentCommand) {
  const command = history
    .command('diff')
    .description('What changed between two recorded runs: checks newly failing, fixed, scores, new and vanished URLs')
    .argument('[a]', 'the earlier run (default: the one before the newest complete run of the same selection)', runIdParser)
    .argument('[b]', 'the later run (default: the newest comparable complete run)', runIdParser)
    .option('--since <duration>', 'compare the newest run with the first comparable one within this time (7d, 2w)', durationParser('--since'))
    .option('--job <name>', "compare the last two runs of this job (`history runs` shows each run's job)")
    .option('--project <name>', "compare this project's pages only, in the last two runs that read it")
    .option('--fail-on-new-failures', 'exit 10 when a check that passed in the earlier run fails in the later one')
    .option('--max-drop <points>', 'exit 10 when a score fell by more than this, or a result got worse', maxDropParser);
  return addVerdictOptions(addHistoryLocationOption(command));
}

export type HistoryDiffOptions = OptionsOf<ReturnType<typeof declareDiff>> & { a?: number; b?: number };

export function registerDiff(history: ParentCommand, invocation: Invocation): void {
  const command = declareDiff(history);
  command.addHelpText(
    'after',
    `
Examples:
  $ rsapi history diff                          # the last two complete runs of the same selection
  $ rsapi history diff 12 15 --json
  $ rsapi history diff --since 7d --fail-on-new-failures --max-drop 5   # a weekly gate
  $ rsapi history diff --assert                 # the later run judged by rsapi.config.json

--assert judges the later run's reports by their score, result and checks by id; the history keeps no importance,
so "importance" rules find nothing there.
Exit 4 when there are fewer than two comparable runs or a run id is unknown; exit 10 when a gate fails.`,
  );
  handle(invocation, command, { plan: (ctx, opts, [a, b]) => planHistoryDiff(ctx, { ...opts, a, b }), run: runHistoryDiff });
}

/** What `history diff` will do, decided before the history is opened. */
export interface HistoryDiffPlan {
  /** --history: where the history lives. */
  history: { history?: string };
  /** The runs named (undefined: the last two comparable ones). */
  runs: { a?: number; b?: number };
  /** What narrows a plain diff: the newest run's first comparable one within `since`, a job, a project. */
  scope: { since?: number; job?: string; project?: string };
  gate: { maxDrop?: number; failOnNewFailures: boolean; allowEmpty?: boolean };
  /** --assert, --codequality: the later run's reports judged as `reports list --assert` judges them. */
  verdicts: { assertions?: AssertionSet; allowEmpty?: boolean; codequality?: string };
}

/** Every check of `history diff` that needs no history, once, and what the run will do. */
export function planHistoryDiff(ctx: CommandContext, opts: HistoryDiffOptions): HistoryDiffPlan {
  checkDocumentFlags(ctx, 'diff');
  checkRunFiles(verdictFiles(opts, ctx.io.env));
  const { assertions } = checkVerdictFlags(ctx, opts);
  return {
    history: { history: opts.history },
    runs: { a: opts.a, b: opts.b },
    // A project as the history files it (lower case, no www.), as trend and MCP's history_diff take it.
    scope: { since: opts.since, job: opts.job, project: opts.project === undefined ? undefined : projectName(opts.project) },
    gate: { maxDrop: opts.maxDrop, failOnNewFailures: opts.failOnNewFailures === true, allowEmpty: opts.allowEmpty },
    verdicts: { assertions, allowEmpty: opts.allowEmpty, codequality: opts.codequality },
  };
}

export async function runHistoryDiff(ctx: CommandContext, plan: HistoryDiffPlan) {
  const { scope, verdicts } = plan;
  const store = await openHistoryOf(ctx, plan.history, { readOnly: true });
  let read: { diff: RunDiff; after: Snapshot[] };
  try {
    const selection = scope.job === undefined ? undefined : selectionKey({ job: scope.job });
    await preferSmallHeapWhileDiffing();
    // --project: the last two runs that read it, and of them only its pages (as MCP's history_diff compares them).
    // The later run's snapshots are kept only for the verdicts that judge them as records.
    const keepAfter = verdicts.assertions !== undefined || verdicts.codequality !== undefined;
    read = await readRunDiff(store, plan.runs, { since: sinceOf(scope.since), selection, project: scope.project }, inProject(scope.project), { keepAfter });
  } finally {
    await store.close();
  }
  const { diff, after } = read;
  await writeDocument(ctx, diffDocument(diff));
  const verdict = judgeRunDiff(diff, plan.gate);
  const code = judge(ctx, diff, verdict, plan.gate);
  if (!verdicts.assertions && verdicts.codequality === undefined) return code;
  // The later run's reports, newest of each URL, as records: judged as `reports list --assert` judges what it reads;
  // the Code Quality file holds what the comparison failed on beside what the rules did.
  const { judgeRecords } = await import('../../report-files/finish-gate.js');
  const { comparisonIssues } = await import('../../report-files/codequality.js');
  const records = [...newestOfEachUrl(after).values()].map(snapshotRecord);
  const issues = comparisonIssues(verdict, plan.gate, `run ${diff.from.id}`);
  return judgeRecords(ctx, records, { assertions: verdicts.assertions, allowEmpty: verdicts.allowEmpty, codequality: verdicts.codequality }, code, issues);
}

/** The verdict (src/judge) on stderr, in the words of `history diff`, and its exit code. */
function judge(ctx: CommandContext, diff: RunDiff, verdict: ComparisonVerdict, gate: HistoryDiffPlan['gate']) {
  const byUrl = new Map(diff.changes.map((change) => [change.url, change]));
  const failures: string[] = [];
  if (gate.failOnNewFailures && !verdict.checksUnjudged && verdict.newlyFailing.length > 0) {
    failures.push(`${plural(verdict.newlyFailing.length, 'URL')} with checks newly failing (--fail-on-new-failures)`);
    for (const { url, change } of verdict.newlyFailing.slice(0, 20)) {
      const lost = change.checksLost ? ' (no per-check results now)' : '';
      ctx.note(`rsapi:   new failures: ${url}: ${change.newFailures.map((id) => `${id} (${checkName(id)})`).join(', ')}${lost}`);
    }
  }
  if (gate.maxDrop !== undefined && verdict.regressions.length > 0) {
    failures.push(`${plural(verdict.regressions.length, 'URL')} fell by more than ${gate.maxDrop} points or got a worse result (--max-drop ${gate.maxDrop})`);
    for (const { url } of verdict.regressions.slice(0, 20)) ctx.note(`rsapi:   dropped: ${url}: ${scoreText(byUrl.get(url) as UrlChange)}`);
  }
  if (!verdict.gated) return ExitCode.ok;
  if (verdict.empty) {
    ctx.note(
      `rsapi: diff failed: no page of run ${diff.from.id} was read again in run ${diff.to.id}: a gate over nothing proves nothing (--allow-empty lets it pass)`,
    );
    return ExitCode.gate;
  }
  if (gate.failOnNewFailures && verdict.notJudgedOnChecks.length > 0 && !verdict.checksUnjudged) {
    ctx.note(`rsapi: ${plural(verdict.notJudgedOnChecks.length, 'URL')} not judged on checks: neither run has their per-check results`);
  }
  if (verdict.checksUnjudged) {
    const run = verdict.uncheckedSide === 'earlier' ? diff.from.id : diff.to.id;
    ctx.note(`rsapi: diff not judged: run ${run} holds no per-check results, so --fail-on-new-failures cannot be judged`);
  }
  ctx.note(failures.length > 0 ? `rsapi: diff failed: ${failures.join('; ')}` : `rsapi: diff passed: runs ${diff.from.id} → ${diff.to.id}`);
  return verdict.checksUnjudged ? ExitCode.server : verdict.failed ? ExitCode.gate : ExitCode.ok;
}

/** `58 → 61 (+3)`, `76 → 41 (-35), good → bad`; a page on one side only: `new page: 76, decent`, `vanished: was 29, bad`. */
function scoreText(c: UrlChange): string {
  if (c.status === 'new') return `new page: ${standing(c.scoreAfter, c.labelAfter)}`;
  if (c.status === 'vanished') return `vanished: was ${standing(c.scoreBefore, c.labelBefore)}`;
  const before = c.scoreBefore === undefined ? 'none' : formatScore(c.scoreBefore);
  const after = c.scoreAfter === undefined ? 'none' : formatScore(c.scoreAfter);
  const delta = c.scoreChange === undefined || c.scoreChange === 0 ? '' : ` (${c.scoreChange > 0 ? '+' : ''}${formatScore(c.scoreChange)})`;
  const label = c.labelBefore !== c.labelAfter ? `, ${c.labelBefore ?? 'none'} → ${c.labelAfter ?? 'none'}` : '';
  return `${before} → ${after}${delta}${label}`;
}

/** A reading on one side of the diff: `76, decent`, `no score, bad`. */
function standing(score: number | undefined, label: string | undefined): string {
  return `${score === undefined ? 'no score' : formatScore(score)}${label === undefined ? '' : `, ${label}`}`;
}

/** The diff's document; its rows (a score text per URL) are built only when the format reads them. */
export function diffDocument(diff: RunDiff) {
  const run = (r: RunDiff['from']) => ({ id: r.id, started: r.started, command: r.command, selection: JSON.parse(r.selection) as unknown, service: r.origin });
  const changes = diff.changes.map((c) => ({
    url: c.url,
    status: c.status,
    score_before: c.scoreBefore ?? null,
    score_after: c.scoreAfter ?? null,
    score_change: c.scoreChange ?? null,
    result_before: c.labelBefore ?? null,
    result_after: c.labelAfter ?? null,
    new_failures: c.newFailures,
    fixed: c.fixed,
  }));
  const value = { from: run(diff.from), to: run(diff.to), compared: diff.compared, changes };
  let rows: string[][] | undefined;
  const tableRows = () => {
    rows ??= diff.changes.map((c) => [c.url, c.status, scoreText(c), c.newFailures.join(','), c.fixed.join(',')]);
    return rows;
  };
  const text = (width?: number) => diffText(diff, tableRows(), width);
  return {
    value,
    lines: changes,
    get rows() {
      return { columns: DIFF_COLUMNS, rows: tableRows() };
    },
    text,
  };
}
