// `--html PATH`: the run as one self-contained page (inline CSS, SVG and script; no request when opened) that a CI
// job keeps as an artifact: verdict, counts, histogram, projects, lowest scores, regressions, failed checks, all reports.
import { formatScore, RESULTS } from '../../../api/model/report-model.js';
import { plural } from '../../../plural.js';
import { VERSION } from '../../../version.js';
import { cappedLines } from '../../../output/capped-list.js';
import type { CheckCount, CheckStats } from '../../../output/stats/check-stats.js';
import { BUCKET_NAMES, histogramSvg, percent, resultShareSvg, sparklineSvg } from './charts.js';
import { hostName, html, type Markup, pageLink, pagePolicy, raw } from './markup.js';
import { buildModel, HTML_LIMITS, tableJson, type BaselineView, type HistoryView, type HtmlModel, type RegressionView, type ReportView } from './model.js';
import { reportPageScript } from './script.js';
import { REPORT_CSS } from './style.js';
import { unauditedLine, unauditedOf, type CiRun, type ErrorCase } from '../run-record.js';
import { describeShare } from '../../bulk/shard.js';
import { capitalise, verdictReasons } from '../summary.js';

/** The page for one run; `exitCode` is the run's own, which the verdict states. */
export function renderHtml(run: CiRun, exitCode: number, checks?: CheckStats): string {
  const model = buildModel(run, checks);
  const script = `(${String(reportPageScript)})();`;
  const policy = pagePolicy(script);
  const site = siteOf(run, model);
  const title = `${site === undefined ? '' : `${site} – `}rsapi ${run.command}: ${exitCode === 0 ? '' : 'failed, '}${plural(model.reports.length, 'report')}`;
  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta http-equiv="Content-Security-Policy" content="${policy}">
<meta name="referrer" content="no-referrer">
<meta name="generator" content="rsapi ${VERSION}">
<title>${title}</title>
<style>${raw(REPORT_CSS)}</style>
</head>
<body>
<main>
${header(run, exitCode, model)}
${resultsSection(model)}
<div class="grid2">
${scoresSection(model)}
${lowestSection(model)}
</div>
${projectsSection(model)}
${historySection(model)}
${baselineSection(model)}
${checksSection(model)}
${notCreatedSection(model)}
${tableSection(model, run.ran?.service !== undefined, run.history !== undefined)}
<footer><p>Written by rsapi ${VERSION}. This file is whole: it loads nothing from the network. Times are shown in your time zone; hover for UTC.</p></footer>
</main>
<script type="application/json" id="rsapi-data">${raw(tableJson(model.reports, run.ran?.service, run.history))}</script>
<script>${raw(script)}</script>
</body>
</html>
`;
  return page.html;
}

function header(run: CiRun, exitCode: number, model: HtmlModel): Markup {
  const share = run.share ? html` ${capitalise(describeShare(run.share))}.` : '';
  return html`<header>
<p class="eyebrow">rsapi report</p>
<h1><code>rsapi ${run.command}</code></h1>
${verdictBox(run, exitCode, model)}
<p class="meta">Started ${timeOf(run.startedAt.getTime())}, took ${formatSeconds(run.seconds)}; ${plural(model.reports.length, 'report')}.${share}</p>
${whatRan(run)}
</header>`;
}

/**
 * The site the page is of, for its title (a browser tab, a list of artifacts): the job's name, else the one project or
 * host every report shares; undefined for a run over several.
 */
function siteOf(run: CiRun, model: HtmlModel): string | undefined {
  if (run.ran?.job !== undefined) return run.ran.job;
  const project = model.projects.length === 1 ? model.projects[0]?.name : undefined;
  if (project) return project;
  const hosts = new Set(model.reports.map((report) => hostOf(report.url)));
  return hosts.size === 1 ? [...hosts][0] || undefined : undefined;
}

/** `example.com` of `https://example.com/a` or of `example.com/a` (a URL as the service stores it). */
function hostOf(url: string): string | undefined {
  try {
    return new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `https://${url}`).host;
  } catch {
    return undefined;
  }
}

/** What ran: the job, the service, the filters, the input, the CI commit; each only when known. */
function whatRan(run: CiRun): Markup {
  const ran = run.ran;
  const items: [string, Markup | string][] = [];
  if (ran?.job !== undefined) items.push(['Job', ran.job]);
  if (ran?.service) items.push(['Service', html`<a href="${ran.service}" rel="noopener noreferrer">${ran.service}</a>`]);
  if (ran?.filters && ran.filters.length > 0) items.push(['Filters', html`<code>${ran.filters.join(' ')}</code>`]);
  if (ran?.input) items.push(['Input', html`<code>${ran.input}</code>`]);
  if (run.share) items.push(['Shard', `${run.share.index} of ${run.share.count}`]);
  if (ran?.commit) items.push(['Commit', html`<code>${ran.commit}</code>`]);
  if (items.length === 0) return html``;
  return html`<dl class="ran">${items.map(([name, value]) => html`<div><dt>${name}</dt><dd>${value}</dd></div>`)}</dl>`;
}

/** Passed or failed and why; a run nothing judged (no gate, no baseline gate, every URL created) says so instead. */
function verdictBox(run: CiRun, exitCode: number, model: HtmlModel): Markup {
  const judged =
    exitCode !== 0 ||
    run.gate.active ||
    run.baseline?.maxDrop !== undefined ||
    run.baseline?.failOnNewFailures === true ||
    model.errors.length > 0 ||
    run.firstRun !== undefined ||
    run.missingShares !== undefined ||
    run.empty !== undefined;
  if (!judged)
    return html`<div class="verdict neutral"><p>No gate set</p><p class="note">Nothing in this run was judged: every report is shown as read.</p></div>`;
  const passed = exitCode === 0;
  // A first run that no other gate judged passed on nothing compared: shown as neither green nor red.
  const neutral = passed && !run.gate.active && (run.firstRun !== undefined || run.missingShares !== undefined);
  return html`<div class="verdict${neutral ? ' neutral' : passed ? '' : ' failed'}">
<p>${passed ? 'Passed' : `Failed (exit ${exitCode})`}</p>
<ul>${verdictReasons(run).map((reason) => html`<li>${reason}</li>`)}</ul>
</div>`;
}

function resultsSection(model: HtmlModel): Markup {
  const total = model.reports.length;
  const parts = [
    ...RESULTS.map((result) => ({ name: result, className: result, count: model.counts[result] })),
    { name: 'no result', className: 'none', count: model.counts.none },
  ];
  const card = (count: number, label: Markup, of?: string) =>
    html`<li><span class="n">${count}</span>${label}${of === undefined ? '' : html`<span class="of">${of}</span>`}</li>`;
  const cards = [
    ...parts
      .filter((part) => part.count > 0 || part.className !== 'none')
      .map((part) => card(part.count, html`<span class="result ${part.className}">${part.name}</span>`, percent(part.count, total))),
    model.errors.length > 0 ? card(model.errors.length, html`<span class="result error">not audited</span>`) : '',
    model.skipped.length > 0 ? card(model.skipped.length, html`<span>skipped</span>`) : '',
  ];
  const { mean, median } = model.scores;
  const average =
    mean === undefined
      ? ''
      : html`<li><span class="n">${formatScore(mean)}</span><span>average score</span><span class="of">median ${formatScore(median!)}</span></li>`;
  const present = parts.filter((part) => part.count > 0);
  const shares = present.map((part) => `${part.name} ${part.count}`).join(', ');
  const caption = html`<figcaption id="share-caption">Share of each result among ${plural(total, 'report')}: ${shares}.</figcaption>`;
  const figure = total > 0 ? html`<figure>${caption}${resultShareSvg(present, 'share-caption')}</figure>` : html`<p class="note">No reports.</p>`;
  return html`<section aria-labelledby="results-title">
<h2 id="results-title">Results</h2>
<ul class="cards">${cards}${average}</ul>
${figure}
</section>`;
}

function scoresSection(model: HtmlModel): Markup {
  const { count, mean, median } = model.scores;
  if (count === 0) return html``;
  const figures = `${plural(count, 'score')}; mean ${formatScore(mean!)}, median ${formatScore(median!)}`;
  const rows = model.histogram.map((n, index) => html`<tr><th scope="row">${BUCKET_NAMES[index]}</th><td class="num">${n}</td></tr>`);
  return html`<section aria-labelledby="scores-title">
<h2 id="scores-title">Scores</h2>
<figure>
${histogramSvg(model.histogram, 'histogram-caption')}
<figcaption id="histogram-caption">Reports per score bucket (${figures}), cut where the results are: bad below 49, decent 49–79, good above 79.</figcaption>
</figure>
<details><summary>The numbers</summary><table class="compact"><caption>Reports per score bucket</caption>${tableHead(
    ['score', 'reports'],
    ['reports'],
  )}<tbody>${rows}</tbody></table></details>
</section>`;
}

function projectsSection(model: HtmlModel): Markup {
  if (model.projects.length === 0) return html``;
  const shown = model.projects.slice(0, HTML_LIMITS.projects);
  const rows = shown.map((project) => {
    const shareBad = project.reports === 0 ? 0 : project.bad / project.reports;
    const name = project.name === '' ? html`<span class="note">(none)</span>` : hostName(project.name);
    const average = project.average === undefined ? '–' : html`${formatScore(project.average)}${meter(project.average / 100)}`;
    const bad = html`${percent(project.bad, project.reports)}${meter(shareBad, 'bad')}`;
    return html`<tr><th scope="row">${name}</th><td class="num">${project.reports}</td><td class="num">${average}</td><td class="num">${bad}</td></tr>`;
  });
  const caption = `${plural(model.projects.length, 'project')}, most reports first${more(model.projects.length, shown.length)}`;
  return html`<section aria-labelledby="projects-title">
<h2 id="projects-title">Projects</h2>
<div class="table-wrap"><table><caption>${caption}</caption>
${tableHead(['project', 'reports', 'average score', 'share bad'], ['reports', 'average score', 'share bad'])}
<tbody>${rows}</tbody></table></div>
</section>`;
}

/** The projects' average scores over the history's earlier runs and this one: a line each, and the numbers. */
function historySection(model: HtmlModel): Markup {
  const history = model.history;
  if (!history || history.projects.length === 0) return html``;
  const runs = history.runs.length;
  const shown = (value: number | null | undefined) => (value === null || value === undefined ? '–' : formatScore(value));
  const row = (project: HistoryView['projects'][number]) => {
    const name = project.name === '' ? html`<span class="note">(none)</span>` : hostName(project.name);
    const values = project.averages.map(shown).join(', ');
    const first = project.averages.find((value) => value !== null);
    const now = project.averages.at(-1);
    const change = first === undefined || first === null || now === null || now === undefined ? '–' : signed(now - first);
    const label = `Average score of ${project.name || 'no project'} over ${plural(runs, 'earlier run')} and now: ${values}`;
    return html`<tr><th scope="row">${name}</th><td>${sparklineSvg(project.averages, label)}</td><td class="num">${shown(first)}</td><td class="num">${shown(now)}</td><td class="num">${change}</td></tr>`;
  };
  const projects = history.projects;
  const when = [...history.runs.map((ms) => timeOf(ms)), html`now`];
  const numbers = html`<details><summary>The numbers</summary><div class="table-wrap"><table class="compact"><caption>Average score per run, oldest first</caption>
<thead><tr><th scope="col">run started</th>${projects.map((project) => html`<th scope="col" class="num">${project.name || '(none)'}</th>`)}</tr></thead>
<tbody>${when.map(
    (started, index) =>
      html`<tr><th scope="row">${started}</th>${projects.map((project) => html`<td class="num">${shown(project.averages[index])}</td>`)}</tr>`,
  )}</tbody></table></div></details>`;
  const caption = `Average score per project over the last ${plural(runs, 'run')} of this job (the history), and now${
    model.projects.length > projects.length ? `; the ${projects.length} projects with most reports` : ''
  }`;
  return html`<section aria-labelledby="history-title">
<h2 id="history-title">Over time</h2>
<div class="table-wrap"><table><caption>${caption}</caption>
${tableHead(['project', 'trend', 'first', 'now', 'change'], ['first', 'now', 'change'])}
<tbody>${projects.map(row)}</tbody></table></div>
${numbers}
</section>`;
}

/** `+4.5`, `−3`, `0`: a change in points. */
function signed(points: number): string {
  const rounded = Math.round(points * 10) / 10;
  return rounded > 0 ? `+${formatScore(rounded)}` : rounded < 0 ? `−${formatScore(-rounded)}` : '0';
}

/** A small bar beside a number; decorative (the number is the text), so hidden from screen readers. */
function meter(fraction: number, className = ''): Markup {
  const width = Math.round(Math.min(1, Math.max(0, fraction)) * 100);
  return html`<span class="meter ${className}" aria-hidden="true"><span style="width:${width}%"></span></span>`;
}

function lowestSection(model: HtmlModel): Markup {
  if (model.lowest.length === 0) return html``;
  return html`<section aria-labelledby="lowest-title">
<h2 id="lowest-title">Lowest scores</h2>
<div class="table-wrap"><table><caption>The ${plural(model.lowest.length, 'report')} with the lowest scores</caption>
${tableHead(['score', 'result', 'URL'], ['score'])}
<tbody>${model.lowest.map(
    (report) => html`<tr><td class="num">${scoreText(report)}</td><td>${resultLabel(report)}</td><td class="url">${pageLink(report.url)}</td></tr>`,
  )}</tbody></table></div>
</section>`;
}

function baselineSection(model: HtmlModel): Markup {
  const view = model.baseline;
  if (!view) return html``;
  const { comparison } = view;
  const rule =
    comparison.maxDrop === undefined
      ? 'any fall is listed, not a gate'
      : `a fall of more than ${comparison.maxDrop} points or a worse result fails (--max-drop)`;
  const regressions = view.regressions.slice(0, HTML_LIMITS.regressions);
  const regressed = `${comparison.regressions.length} of ${plural(comparison.compared, 'report')} regressed`;
  const others = `${comparison.newUrls.length} new, ${comparison.vanished.length} vanished (listed, not failed)`;
  const row = (r: RegressionView) =>
    html`<tr><td class="url">${pageLink(r.url)}</td><td>${standing(r.before)}</td><td>${standing(r.now)}</td><td>${r.changes.join(', ')}</td></tr>`;
  const since = view.sinceLast ? 'the last run' : 'the baseline';
  const compared = view.sinceLast
    ? html`<p>Compared with run ${view.sinceLast.id} of the history (started ${timeOf(Date.parse(view.sinceLast.started))}), the last run of this job (listed, not judged: <code>--baseline last</code> makes it a gate): ${regressed}; ${others}.</p>`
    : html`<p>Compared with <code>${comparison.path}</code> (${rule}): ${regressed}; ${others}.</p>`;
  // New failures first, then checks fixed, then falls in score or result.
  return html`<section aria-labelledby="baseline-title">
<h2 id="baseline-title">${view.sinceLast ? 'Changed since the last run' : 'Against the baseline'}</h2>
${compared}
${checkChanges(view.checkChanges, comparison.failOnNewFailures, view.sinceLast !== undefined)}
${
  regressions.length > 0
    ? html`<div class="table-wrap"><table><caption>Regressions, worst first${more(view.regressions.length, regressions.length)}</caption>
${tableHead(['URL', 'before', 'now', 'what got worse'])}
<tbody>${regressions.map(row)}</tbody></table></div>`
    : ''
}
${urlList(`New since ${since}`, comparison.newUrls)}
${urlList(`Vanished since ${since}`, comparison.vanished)}
</section>`;
}

/** `sinceLast`: the changes since the history's last run, which the page lists and never judges. */
function checkChanges(entries: BaselineView['checkChanges'], failOnNewFailures: boolean, sinceLast: boolean): Markup {
  if (entries.length === 0) return html``;
  const shown = entries.slice(0, HTML_LIMITS.regressions);
  const since = sinceLast ? 'the last run' : 'the baseline';
  const rule = sinceLast
    ? 'listed, not judged'
    : failOnNewFailures
      ? 'new failures fail the run (--fail-on-new-failures)'
      : 'listed, not a gate without --fail-on-new-failures';
  const caption = `Checks that changed since ${since} on ${plural(entries.length, 'URL')}: ${rule}${more(entries.length, shown.length)}`;
  const row = (entry: BaselineView['checkChanges'][number]) =>
    html`<tr><td class="url">${pageLink(entry.url)}</td><td>${entry.newFailures.join(', ') || '–'}</td><td>${entry.fixed.join(', ') || '–'}</td></tr>`;
  return html`<div class="table-wrap"><table><caption>${caption}</caption>
${tableHead(['URL', 'newly failing', 'fixed'])}
<tbody>${shown.map(row)}</tbody></table></div>`;
}

function urlList(title: string, urls: string[]): Markup {
  if (urls.length === 0) return html``;
  return html`<details><summary>${title} (${urls.length})</summary><ul class="urls">${cappedLines(
    urls,
    HTML_LIMITS.urls,
    (url) => html`<li>${pageLink(url)}</li>`,
    (rest) => html`<li>${rest}</li>`,
  )}</ul></details>`;
}

function checksSection(model: HtmlModel): Markup {
  const checks = model.checks;
  if (!checks) return html``;
  const failing = checks.failed;
  if (failing.length === 0) {
    const passed = html`<p>Every check passed in all ${plural(checks.reports, 'report')} that carry per-check results.</p>`;
    return html`<section aria-labelledby="checks-title"><h2 id="checks-title">Checks failed most</h2>${passed}</section>`;
  }
  const [first, rest] = [failing.slice(0, HTML_LIMITS.checks), failing.slice(HTML_LIMITS.checks)];
  const row = (check: CheckCount) => {
    const failed = html`${check.failed} (${percent(check.failed, check.reports)})${meter(check.share, 'bad')}`;
    return html`<tr><th scope="row">${check.name}</th><td>${check.importance ?? '–'}</td><td class="num">${failed}</td></tr>`;
  };
  const table = (rows: CheckCount[], caption: string) => html`<div class="table-wrap"><table><caption>${caption}</caption>
${tableHead(['check', 'importance', 'reports failing'], ['reports failing'])}
<tbody>${rows.map(row)}</tbody></table></div>`;
  const firstCaption = `Of the ${plural(checks.reports, 'report')} that carry per-check results, how many fail each check${
    rest.length > 0 ? `: the ${first.length} failed most` : ''
  }`;
  const others = html`<details><summary>The other ${plural(rest.length, 'failing check')}</summary>${table(rest, 'The other failing checks')}</details>`;
  return html`<section aria-labelledby="checks-title">
<h2 id="checks-title">Checks failed most</h2>
${table(first, firstCaption)}
${rest.length > 0 ? others : ''}
</section>`;
}

function notCreatedSection(model: HtmlModel): Markup {
  if (model.errors.length === 0 && model.skipped.length === 0) return html``;
  const errors = model.errors.slice(0, HTML_LIMITS.urls);
  const row = (e: ErrorCase) => {
    const message = html`${e.message}${e.hint ? html`<br><span class="note">${e.hint}</span>` : ''}`;
    return html`<tr><td class="url">${pageLink(e.url)}</td><td class="message">${message}</td><td class="num">${e.exitCode}</td></tr>`;
  };
  const caption = `${unauditedLine(unauditedOf(model.errors))}${more(model.errors.length, errors.length)}`;
  const skipped = model.skipped.slice(0, HTML_LIMITS.urls).map((s) => html`<li>${pageLink(s.url)}: ${s.reason}</li>`);
  return html`<section aria-labelledby="errors-title">
<h2 id="errors-title">Not audited</h2>
${
  errors.length > 0
    ? html`<div class="table-wrap"><table><caption>${caption}</caption>
${tableHead(['URL', 'error', 'exit'], ['exit'])}
<tbody>${errors.map(row)}</tbody></table></div>`
    : ''
}
${model.skipped.length > 0 ? html`<details><summary>Skipped (${model.skipped.length})</summary><ul class="urls">${skipped}</ul></details>` : ''}
</section>`;
}

const COLUMNS = [
  ['id', ''],
  ['URL', ''],
  ['project', ''],
  ['result', ''],
  ['score', 'num'],
  ['generated', ''],
] as const;

function tableSection(model: HtmlModel, linked: boolean, trend: boolean): Markup {
  const failing = model.reports.filter((report) => report.failures.length > 0).length;
  const results = [...RESULTS.map((result) => [result, result]), ['none', 'no result']];
  const options = results.map(([value, name]) => html`<option value="${value}">${name}</option>`);
  return html`<section aria-labelledby="all-title">
<h2 id="all-title">All reports</h2>
<div class="controls" role="search">
<label>Find (URL, project or id)<input type="search" id="filter-text" autocomplete="off" spellcheck="false"></label>
<label>Result<select id="filter-result"><option value="">all results</option>${options}</select></label>
${failing > 0 ? html`<label class="check"><input type="checkbox" id="filter-failing"> Failing only (${failing})</label>` : ''}
</div>
<p class="note">Open a row (click it, or Enter on its button) for the checks it failed${failing > 0 ? ' and why it fails the run' : ''}${
    linked ? '; the id links to the report on the service, the URL to the page audited' : ''
  }.</p>
<p id="table-status" role="status" aria-live="polite">${plural(model.reports.length, 'report')}.</p>
<div class="table-wrap" id="reports-wrap"><table id="reports"><caption class="visually-hidden">Every report of the run; the column buttons sort it</caption>
<thead><tr>${COLUMNS.map(([name, className]) => html`<th scope="col" class="${className}"><button type="button">${name}</button></th>`)}${
    trend ? html`<th scope="col" title="score in the history's earlier runs, then now">trend</th>` : ''
  }</tr></thead>
<tbody></tbody></table></div>
<div id="table-more" hidden><button type="button">Show more</button></div>
<noscript><p>The table of every report needs JavaScript; the sections above do not.</p></noscript>
</section>`;
}

function standing(report: ReportView): Markup {
  return html`${scoreText(report)} ${resultLabel(report)}`;
}

function scoreText(report: ReportView): string {
  return report.score === undefined ? '–' : formatScore(report.score);
}

function resultLabel(report: ReportView): Markup {
  return html`<span class="result ${report.label ?? 'none'}">${report.label ?? 'none'}</span>`;
}

/** A time shown in UTC here and in the reader's zone once the script runs; UTC on hover. */
function timeOf(ms: number): Markup {
  const iso = new Date(ms).toISOString();
  const utc = `${iso.slice(0, 19).replace('T', ' ')} UTC`;
  return html`<time datetime="${iso}" data-ms="${ms}" title="${utc}">${utc}</time>`;
}

function formatSeconds(seconds: number): string {
  return seconds < 60 ? `${Math.round(seconds * 10) / 10} s` : `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;
}

/** A table's `<thead>`: a column heading a name, the `numeric` ones right-aligned. */
function tableHead(names: readonly string[], numeric: readonly string[] = []): Markup {
  const heading = (name: string) => (numeric.includes(name) ? html`<th scope="col" class="num">${name}</th>` : html`<th scope="col">${name}</th>`);
  return html`<thead><tr>${names.map(heading)}</tr></thead>`;
}

function more(total: number, shown: number): string {
  return total > shown ? `; the first ${shown} shown` : '';
}
