// `rsapi history html FILE`: one self-contained page over the history (every job's runs, charts over time, the checks
// that fail most week by week, a page's trend, any two runs compared), to open or publish without a server.
import { projectName } from '../../../../api/model/report-url.js';
import { HistoryNotFoundError } from '../../../../history/errors.js';
import { plural } from '../../../../plural.js';
import { collectValues, integerParser } from '../../../flags/options.js';
import type { CommandContext } from '../../../runtime/context.js';
import { handle, type Invocation, type OptionsOf, type ParentCommand } from '../../../runtime/handler.js';
import { checkOutputPath, writeFileAtomically } from '../../../runtime/write.js';
import { selectionKey } from '../../../reading/history-place.js';
import { addHistoryLocationOption, durationParser, openHistoryOf, sinceOf } from '../../history/shared.js';

/** Past this many pages a job is summarised (its runs' figures, no page): 52 runs of 10,000 pages stay near 20 MB. */
export const DEFAULT_MAX_PAGES = 10_000;

export function declareHtml(history: ParentCommand) {
  const command = history
    .command('html')
    .description("Write one self-contained HTML page of every job's runs: charts, failing checks, page trends, any two runs compared")
    .argument('<file>', 'the page to write (index.html to publish it as a site)')
    .option('--job <name>', "only this job (repeat for more; `history runs` shows each run's job)", collectValues)
    .option('--project <name>', "only this project's pages")
    .option('--since <duration>', 'only runs started within this time (90d, 12h, 2w)', durationParser('--since'))
    .option(
      '--max-pages <n>',
      `past this many pages a job is summarised: its runs' figures, no page (default ${DEFAULT_MAX_PAGES})`,
      integerParser('--max-pages', 1),
    );
  return addHistoryLocationOption(command);
}

export type HistoryHtmlOptions = OptionsOf<ReturnType<typeof declareHtml>> & { file: string };

export function registerHtml(history: ParentCommand, invocation: Invocation): void {
  const command = declareHtml(history);
  command.addHelpText(
    'after',
    `
Examples:
  $ rsapi history html history.html
  $ rsapi history html site/index.html --job weekly --since 52w
  $ rsapi history html shop.html --job shop --project shop.example.com --max-pages 2000

The page loads nothing from the network: its data, styles, charts and script are in the file. Exit 4 when the
history holds no run to show (or none of a --job named).`,
  );
  handle(invocation, command, { plan: (ctx, opts, [file]) => planHistoryHtml(ctx, { ...opts, file }), run: runHistoryHtml });
}

/** What `history html` will write, and from which runs. */
export interface HistoryHtmlPlan {
  history: { history?: string };
  file: string;
  jobs?: { name: string; selection: string }[];
  project?: string;
  since?: number;
  maxPages: number;
}

export function planHistoryHtml(_ctx: CommandContext, opts: HistoryHtmlOptions): HistoryHtmlPlan {
  checkOutputPath(opts.file, 'the page');
  return {
    history: { history: opts.history },
    file: opts.file,
    jobs: opts.job?.map((name) => ({ name, selection: selectionKey({ job: name }) })),
    // A project as the history files it (lower case, no www.), as trend and diff take it.
    project: opts.project === undefined ? undefined : projectName(opts.project),
    since: opts.since,
    maxPages: opts.maxPages ?? DEFAULT_MAX_PAGES,
  };
}

export async function runHistoryHtml(ctx: CommandContext, plan: HistoryHtmlPlan) {
  const store = await openHistoryOf(ctx, plan.history, { readOnly: true });
  const { readHistoryPageData } = await import('./encode.js');
  let data: Awaited<ReturnType<typeof readHistoryPageData>>;
  try {
    data = await readHistoryPageData(store, { jobs: plan.jobs, project: plan.project, since: sinceOf(plan.since), maxPages: plan.maxPages });
  } finally {
    await store.close();
  }
  const missing = plan.jobs?.filter((asked) => !data.jobs.some((job) => job.key === asked.name)) ?? [];
  if (data.jobs.length === 0 || missing.length > 0) {
    const what = missing.length > 0 ? `the job ${missing.map((job) => job.name).join(', ')}` : 'any job';
    const scope = [plan.project === undefined ? '' : ` reading ${plan.project}`, plan.since === undefined ? '' : ' within --since'].join('');
    throw new HistoryNotFoundError(`no run of ${what}${scope} in the history`, { hint: "`rsapi history runs` shows each run's job" });
  }
  const { renderHistoryHtml } = await import('../../../report-files/history-html/page.js');
  const page = renderHistoryHtml(data);
  await writeFileAtomically(plan.file, page, ctx.secrets);
  const runs = data.jobs.reduce((sum, job) => sum + job.runs.length, 0);
  const summarised = data.jobs.filter((job) => job.summarised).length;
  ctx.note(
    `rsapi: wrote ${plan.file}: ${plural(data.jobs.length, 'job')}, ${plural(runs, 'run')}, ${(Buffer.byteLength(page) / 1e6).toFixed(1)} MB${
      summarised > 0 ? `; ${plural(summarised, 'job')} summarised (more than ${plan.maxPages} pages)` : ''
    }`,
  );
}
