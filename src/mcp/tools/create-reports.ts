// create_reports: `reports create` for a list of URLs, its journal under the data directory keyed by the URL set, so
// a call made again (a retry after a lost answer, a timeout) resumes that journal and never creates a report twice.
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ApiRecord } from '../../api/model/record.js';
import { PRIVACY, type Privacy } from '../../api/list-params.js';
import { reportIdentity, reportUrlProblem } from '../../api/model/report-url.js';
import { runReportsCreate } from '../../cli/commands/reports/create/create.js';
import { planReportsCreate } from '../../cli/commands/reports/create/plan.js';
import { Journal, readJournalHistory } from '../../cli/commands/reports/create/journal.js';
import type { UrlOutcome } from '../../cli/commands/reports/create/run-create.js';
import { runPool } from '../../cli/bulk/pool.js';
import type { CommandContext } from '../../cli/runtime/context.js';
import { NotFoundError } from '../../api/errors.js';
import { dataDir } from '../../config/paths.js';
import { argumentError, listArg, type ToolArg } from '../arguments.js';
import { reportRow } from '../report-rows.js';
import { defineTool } from '../tool.js';
import { fitted } from '../results.js';

/** URLs in one call: each is a synchronous audit of seconds, and a call should end before the client gives up on it. */
const MAX_URLS = 100;

const url: ToolArg<'url', string> = {
  name: 'url',
  schema: { type: 'string' },
  check(value) {
    if (typeof value !== 'string') throw argumentError('url', 'must be text');
    const problem = reportUrlProblem(value);
    if (problem) throw argumentError('url', `${JSON.stringify(value)} ${problem}`);
    return value;
  },
};

const privacy: ToolArg<'privacy', Privacy> = {
  name: 'privacy',
  schema: {
    type: 'string',
    description: 'report page privacy (a password-protected report: `rsapi reports create --privacy password`)',
    enum: ['public', 'private'],
  },
  check(value) {
    if (value !== 'public' && value !== 'private') {
      // A password given to a tool would sit in the conversation: it goes only through the CLI's file or stdin.
      throw argumentError(
        'privacy',
        `${JSON.stringify(value)} is not one of public, private`,
        'a password-protected report: `rsapi reports create URL --privacy password --password-file PATH`',
      );
    }
    return PRIVACY[value];
  },
};

/** Where the journal of this set of URLs lives: the same set, however ordered or written, is the same journal. */
export function journalPathOf(env: NodeJS.ProcessEnv, urls: readonly string[]): string {
  const identities = [...new Set(urls.map(reportIdentity))].sort();
  const key = createHash('sha256').update(identities.join('\n')).digest('hex').slice(0, 32);
  return join(dataDir(env), 'mcp', `create-${key}.journal`);
}

export const createReports = defineTool({
  name: 'create_reports',
  description:
    'Audit pages: one new report per URL (seconds each). Calling again with the same urls resumes and never creates a report twice; ' +
    'to audit a page that has a report again, use refresh_reports.',
  args: [listArg('urls', 'absolute http(s) URLs', url, { min: 1, max: MAX_URLS, tooMany: 'split them over several calls' }), privacy],
  writes: true,
  hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  async run(call, args) {
    const urls = args.urls ?? [];
    const journal = journalPathOf(call.ctx.io.env, urls);
    call.hidePath(journal, '<the journal of these urls>');
    mkdirSync(join(journal, '..'), { recursive: true, mode: 0o700 });
    await forgetGoneReports(call.ctx, journal, urls);
    const plan = planReportsCreate(call.ctx, { urls, journal, keepJournal: true, concurrency: 4, privacy: args.privacy });
    const { code, urls: ran } = await runReportsCreate(call.ctx, plan);
    const outcomes = answersOf(urls, ran);
    const notes = call.notes();
    const count = (status: string) => outcomes.filter((outcome) => outcome.status === status).length;
    const notStarted = count('not started');
    const summary =
      `created ${count('created')}, created by an earlier call ${count('created earlier')}, unsettled ${count('unsettled')}, failed ${count('failed')}` +
      (notStarted > 0 ? `, not started ${notStarted}` : '');
    return {
      value: fitted(outcomes, (kept, left) => ({
        summary,
        reports: kept,
        ...(left > 0 ? { more: `${left} more URLs left out of this answer; call again with the same urls to see them (nothing is created twice)` } : {}),
        ...(count('unsettled') > 0
          ? { unsettled: 'their answer was lost and no report showed up yet: call again with the same urls later; they are looked up before anything is sent' }
          : {}),
        ...(notes.length > 0 ? { notes } : {}),
      })),
      isError: code !== 0,
    };
  },
});

/**
 * A report the journal says an earlier call created, but which the service no longer has (deleted since, here or
 * elsewhere), stands for nothing: each is looked up, and a gone one's URL is marked failed in the journal (its last
 * line then says "not created"), so this call creates it anew rather than answer "created earlier" with an id that 404s.
 */
async function forgetGoneReports(ctx: CommandContext, path: string, urls: readonly string[]): Promise<void> {
  const history = readJournalHistory(path);
  const wanted = new Set(urls.map(reportIdentity));
  const earlier = history.taken.filter((taken) => wanted.has(reportIdentity(taken.url)) && history.created.has(reportIdentity(taken.url)));
  // The newest report of each URL: the one the journal stands for.
  const newest = [...new Map(earlier.map((taken) => [reportIdentity(taken.url), taken])).values()];
  const gone: typeof newest = [];
  const client = ctx.client();
  await runPool(newest, { concurrency: 4, stop: ctx.noNewRequests }, async (taken) => {
    try {
      await client.reports.show(String(taken.id));
    } catch (error) {
      // Any other failure leaves the entry standing: only a report known to be gone is created again.
      if (error instanceof NotFoundError) gone.push(taken);
    }
  });
  if (gone.length === 0) return;
  const open = await Journal.open(path, ctx);
  try {
    for (const taken of gone) await open.record({ url: taken.url, status: 'failed', error: `report ${taken.id} is no longer on the service` });
  } finally {
    open.close();
  }
}

/** Each distinct URL's outcome as the run gave it, under the form first given (the run names it as it sent it, normalised). */
function answersOf(urls: readonly string[], ran: readonly UrlOutcome[]): Record<string, unknown>[] {
  const byIdentity = new Map(ran.map((outcome) => [reportIdentity(outcome.url), outcome]));
  const seen = new Set<string>();
  const answers: Record<string, unknown>[] = [];
  for (const given of urls) {
    const identity = reportIdentity(given);
    if (seen.has(identity)) continue;
    seen.add(identity);
    answers.push(answerOf(given, byIdentity.get(identity) ?? { url: given, status: 'not started' }));
  }
  return answers;
}

function answerOf(given: string, outcome: UrlOutcome): Record<string, unknown> {
  switch (outcome.status) {
    case 'created':
    case 'refreshed':
    case 'kept':
      return reportAnswer(given, outcome.status, outcome.report);
    case 'created earlier': {
      // The report read back is the URL's newest: shown only when it is the one the journal names.
      const { id, report } = outcome;
      return report !== undefined && id !== undefined && String(report.id) === String(id)
        ? reportAnswer(given, outcome.status, report)
        : { url: given, status: outcome.status, id: id ?? null };
    }
    default:
      return { url: given, status: outcome.status };
  }
}

/** The report's own url is the one the service stored (cleaned, after redirects): said beside the one given. */
function reportAnswer(given: string, status: string, report: ApiRecord): Record<string, unknown> {
  const { url: stored, ...row } = reportRow(report);
  return { url: given, status, ...row, stored_url: stored };
}
