// `rsapi history html`'s page: one self-contained file (inline CSS, data and script; no request when opened) with the
// per-run report's look, escaping and policy: the jobs, then the chosen job's runs, charts, checks by week, two runs
// compared and a page's trend, drawn by the page's script from the embedded data (model.ts).
import { plural } from '../../../plural.js';
import { escapeRegExp, globRegExp } from '../../../url-glob.js';
import { VERSION } from '../../../version.js';
import { jsonForScript } from '../../../output/escape.js';
import { html, type Markup, pagePolicy, raw } from '../html/markup.js';
import { REPORT_CSS } from '../html/style.js';
import { historyModel, type HistoryPageData, type JobData } from './model.js';
import { historyPageScript } from './script.js';
import { HISTORY_CSS } from './style.js';

/** The page over `data`. */
export function renderHistoryHtml(data: HistoryPageData): string {
  // The script is the model, the URL glob of --include (url-glob.ts) and the page's own code, each as its source text.
  const script = `(function(){${String(escapeRegExp)}\n${String(globRegExp)}\n(${String(historyPageScript)})((${String(historyModel)})(), ${globRegExp.name});})();`;
  const policy = pagePolicy(script);
  const runs = data.jobs.reduce((sum, job) => sum + job.runs.length, 0);
  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta http-equiv="Content-Security-Policy" content="${policy}">
<meta name="referrer" content="no-referrer">
<meta name="generator" content="rsapi ${VERSION}">
<title>rsapi history: ${plural(data.jobs.length, 'job')}, ${plural(runs, 'run')}</title>
<style>${raw(REPORT_CSS)}${raw(HISTORY_CSS)}</style>
</head>
<body>
<a class="skip" href="#job-title">Skip to the job</a>
<main>
${header(data, runs)}
${jobsSection(data)}
<section aria-labelledby="job-title" id="job">
<h2 id="job-title">Job</h2>
<div class="controls" role="search">
<label>Job<select id="filter-job">${data.jobs.map((job) => html`<option value="${job.key}">${job.name}</option>`)}</select></label>
<label>Project<select id="filter-project"><option value="">all projects</option></select></label>
<label>Pages (URL glob)<input type="search" id="filter-url" autocomplete="off" spellcheck="false" placeholder="example.com/blog/**" aria-describedby="filter-help"></label>
</div>
<p id="filter-help" class="note">A glob over the page's URL without its scheme: <code>**</code> any characters, <code>*</code> within one folder; a word alone matches any URL holding it.</p>
<p id="status" role="status" aria-live="polite"></p>
<p id="summarised" class="note" hidden></p>
</section>
<section aria-labelledby="time-title">
<h2 id="time-title">Over time</h2>
<div class="grid2">
<figure><div id="chart-score"></div><figcaption id="chart-score-caption">Average score of the pages, run by run (0–100).</figcaption></figure>
<figure><div id="chart-failed"></div><figcaption id="chart-failed-caption">Failed checks per page, run by run.</figcaption></figure>
</div>
</section>
<section aria-labelledby="runs-title">
<h2 id="runs-title">Runs</h2>
<div class="table-wrap"><table id="runs"><caption>Each run of the job, newest first, compared with the complete run before it; a run's button compares the two below</caption>
<thead><tr><th scope="col">run</th><th scope="col">started</th><th scope="col" class="num">pages</th><th scope="col" class="num">score</th><th scope="col">verdict</th><th scope="col">changes</th></tr></thead>
<tbody></tbody></table></div>
</section>
<section aria-labelledby="weeks-title">
<h2 id="weeks-title">Checks failing most, week by week</h2>
<div class="table-wrap"><table id="weeks" class="compact"><caption></caption><thead></thead><tbody></tbody></table></div>
</section>
<section aria-labelledby="compare-title" id="compare">
<h2 id="compare-title">Two runs compared</h2>
<div class="controls">
<label>Earlier run<select id="compare-from"></select></label>
<label>Later run<select id="compare-to"></select></label>
</div>
<p id="compare-summary"></p>
<div class="table-wrap"><table id="changes"><caption class="visually-hidden">What changed between the two runs, page by page: new failures first, then fixes, falls in score, new and vanished pages</caption>
<thead><tr><th scope="col">page</th><th scope="col">status</th><th scope="col">score</th><th scope="col">checks newly failing, fixed</th></tr></thead>
<tbody></tbody></table></div>
<div id="changes-more" hidden><button type="button">Show more</button></div>
</section>
<section aria-labelledby="page-title" id="page">
<h2 id="page-title">A page over time</h2>
<div class="controls"><label>Find a page (part of its URL)<input type="search" id="page-find" autocomplete="off" spellcheck="false" aria-controls="page-matches"></label></div>
<ul id="page-matches" class="matches"></ul>
<div id="page-view" hidden>
<h3 id="page-url"></h3>
<figure><div id="chart-page"></div><figcaption id="chart-page-caption">The page's score, run by run.</figcaption></figure>
<div class="table-wrap"><table id="page-runs"><caption>The page in each run that read it, oldest first</caption>
<thead><tr><th scope="col">run</th><th scope="col">started</th><th scope="col" class="num">score, result</th><th scope="col" class="num">failed</th><th scope="col">checks newly failing, fixed</th></tr></thead>
<tbody></tbody></table></div>
</div>
</section>
<noscript><p>The runs, charts and comparisons are drawn by the page's script from the data in this file; it needs JavaScript.</p></noscript>
<footer><p>Written by rsapi ${VERSION}. This file is whole: it loads nothing from the network. Times are shown in your time zone; hover for UTC. A view's address (after #) opens it again.</p></footer>
</main>
<script type="application/json" id="rsapi-history">${raw(jsonForScript(data))}</script>
<script>${raw(script)}</script>
</body>
</html>
`;
  return page.html;
}

function header(data: HistoryPageData, runs: number): Markup {
  const starts = data.jobs.flatMap((job) => job.runs.map((run) => Date.parse(run.started))).filter((ms) => !Number.isNaN(ms));
  const span = starts.length === 0 ? '' : html`, from ${timeOf(Math.min(...starts))} to ${timeOf(Math.max(...starts))}`;
  const { asked } = data;
  const kept = [
    asked.jobs ? html` Jobs asked for: ${asked.jobs.join(', ')}.` : '',
    asked.project ? html` Only the pages of ${asked.project}.` : '',
    asked.since ? html` Runs since ${timeOf(Date.parse(asked.since))}.` : '',
  ];
  const summarised = data.jobs.filter((job) => job.summarised);
  const note =
    summarised.length === 0
      ? ''
      : html`<p class="verdict neutral">${summarised.map((job) => `${job.name}: ${job.summarised!.pages} pages`).join('; ')}: more than --max-pages ${
          asked.maxPages
        }, so ${summarised.length === 1 ? 'this job is' : 'these jobs are'} summarised: each run's figures, no page's trend and no comparison of two runs.</p>`;
  return html`<header>
<p class="eyebrow">rsapi history</p>
<h1>${plural(data.jobs.length, 'job')}, ${plural(runs, 'run')}</h1>
<p class="meta">Written ${timeOf(Date.parse(data.written))}${span}.${kept}</p>
${note}
</header>`;
}

/** Every job, with its last run: a link opens the job below. */
function jobsSection(data: HistoryPageData): Markup {
  const row = (job: JobData) => {
    const last = job.runs.at(-1)!;
    const pages = job.summarised ? job.summarised.pages : job.urls.length;
    return html`<tr><th scope="row"><a href="#job=${encodeURIComponent(job.key)}">${job.name}</a></th><td>${job.origin}</td><td class="num">${job.runs.length}</td><td class="num">${pages}</td><td>${timeOf(Date.parse(last.started))}</td><td>${verdictText(last)}</td></tr>`;
  };
  return html`<section aria-labelledby="jobs-title">
<h2 id="jobs-title">Jobs</h2>
<div class="table-wrap"><table id="jobs"><caption>Every job the history holds (as asked), with its last run</caption>
<thead><tr><th scope="col">job</th><th scope="col">service</th><th scope="col" class="num">runs</th><th scope="col" class="num">pages</th><th scope="col">last run</th><th scope="col">verdict</th></tr></thead>
<tbody>${data.jobs.map(row)}</tbody></table></div>
</section>`;
}

/** A run's end as people read it: passed, failed (exit N), or still incomplete. */
export function verdictText(run: { complete: boolean; exit: number | null }): string {
  if (!run.complete) return 'incomplete';
  return run.exit === 0 || run.exit === null ? 'passed' : `failed (exit ${run.exit})`;
}

/** A time shown in UTC here and in the reader's zone once the script runs; UTC on hover (as the per-run report). */
function timeOf(ms: number): Markup {
  if (Number.isNaN(ms)) return html``;
  const iso = new Date(ms).toISOString();
  const utc = `${iso.slice(0, 19).replace('T', ' ')} UTC`;
  return html`<time datetime="${iso}" data-ms="${ms}" title="${utc}">${utc}</time>`;
}
