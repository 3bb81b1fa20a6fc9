// `rsapi history html`'s script, run in the reader's browser: the chosen job's runs, charts, checks by week, two runs
// compared and a page's trend, drawn from the embedded data through the model (model.ts), filtered by project and URL
// glob, the view kept in the address's fragment (`#job=shop&run=12&page=…`) so a reload or a link opens it again.
import type { DecodedJob, HistoryModel, HistoryPageData, JobData, PageChange, RunStats } from './model.js';

/**
 * Embedded in the page as its source text (`String(historyPageScript)`), handed the model and the URL glob compiler,
 * so it must stay self-contained: only the browser's globals. Text from the service is written with textContent only,
 * and links only to http(s).
 */
export function historyPageScript(model: HistoryModel, globRegExp: (glob: string) => RegExp): void {
  const SVG = 'http://www.w3.org/2000/svg';
  const CHANGES_CHUNK = 200;
  const source = document.getElementById('rsapi-history');
  if (!source) return;
  const data = JSON.parse(source.textContent ?? '{}') as HistoryPageData;
  for (const job of data.jobs) job.labelNames = data.labels;
  const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
  const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
  const compact = new Intl.DateTimeFormat(undefined, { dateStyle: 'short', timeStyle: 'short' });
  const number = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });
  const utc = (ms: number) =>
    new Date(ms)
      .toISOString()
      .replace('T', ' ')
      .replace(/\.\d+Z$/, ' UTC');
  const plural = (n: number, noun: string) => `${n} ${n === 1 ? noun : `${noun}s`}`;
  const shown = (n: number | null | undefined) => (n === null || n === undefined || Number.isNaN(n) ? '–' : number.format(n));

  for (const time of document.querySelectorAll<HTMLTimeElement>('time[data-ms]')) {
    const ms = Number(time.dataset.ms);
    time.textContent = dateTime.format(ms);
    time.title = utc(ms);
  }

  const controls = {
    job: byId<HTMLSelectElement>('filter-job'),
    project: byId<HTMLSelectElement>('filter-project'),
    url: byId<HTMLInputElement>('filter-url'),
    from: byId<HTMLSelectElement>('compare-from'),
    to: byId<HTMLSelectElement>('compare-to'),
    find: byId<HTMLInputElement>('page-find'),
  };
  const status = byId('status');

  /** The view: which job, filters, the two runs compared, the page followed. Kept in the fragment. */
  const view = { job: '', project: '', url: '', from: '', run: '', page: '' };
  let job: JobData = data.jobs[0]!;
  let decoded: DecodedJob = model.decode(job);
  let mask: Uint8Array | undefined;
  let stats: RunStats[] = [];
  let changesShown = 0;
  let changes: PageChange[] = [];

  function element<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, className?: string): HTMLElementTagNameMap[K] {
    const made = document.createElement(tag);
    if (text !== undefined) made.textContent = text;
    if (className) made.className = className;
    return made;
  }

  function timeElement(started: string, format: Intl.DateTimeFormat = dateTime): HTMLTimeElement {
    const time = element('time');
    const ms = Date.parse(started);
    time.dateTime = started;
    time.textContent = Number.isNaN(ms) ? started : format.format(ms);
    if (!Number.isNaN(ms)) time.title = utc(ms);
    return time;
  }

  /** A page's URL as a link when it is an http(s) page (a cleaned URL is linked over https), else as text. */
  function pageLink(url: string): HTMLElement {
    const candidate = /^[a-z][a-z0-9+.-]*:/i.test(url) ? url : `https://${url}`;
    let href: string | undefined;
    try {
      const parsed = new URL(candidate);
      if (parsed.protocol === 'https:' || parsed.protocol === 'http:') href = parsed.href;
    } catch {
      href = undefined;
    }
    if (href === undefined || /[\u0000-\u001f\s\\]/.test(url)) return element('span', url, 'url');
    const link = element('a', url, 'url');
    link.href = href;
    link.rel = 'noopener noreferrer';
    return link;
  }

  /** The report's page on the service, as the per-run report links a report's id. */
  function reportLink(report: string | number | null): HTMLElement | undefined {
    if (report === null || !/^https?:\/\//.test(job.origin)) return undefined;
    const link = element('a', `#${report}`, 'report');
    link.href = `${job.origin}/reports/${encodeURIComponent(String(report))}`;
    link.rel = 'noopener noreferrer';
    link.title = 'This report on the service';
    return link;
  }

  /** The checks newly failing and fixed, each list on its line (classes new-failures and fixed). */
  function checksCell(newFailures: readonly string[], fixed: readonly string[]): HTMLTableCellElement {
    const td = element('td', undefined, 'checks');
    if (newFailures.length > 0) td.append(element('span', `newly failing: ${newFailures.join(', ')}`, 'new-failures'));
    if (fixed.length > 0) td.append(element('span', `fixed: ${fixed.join(', ')}`, 'fixed'));
    if (newFailures.length === 0 && fixed.length === 0) td.textContent = '–';
    return td;
  }

  function verdict(run: JobData['runs'][number]): string {
    if (!run.complete) return 'incomplete';
    return run.exit === 0 || run.exit === null ? 'passed' : `failed (exit ${run.exit})`;
  }

  // The fragment: `#job=shop&run=12&from=10&page=example.com%2Fa&project=x&url=glob`.
  function readFragment(): void {
    const params = new URLSearchParams(location.hash.slice(1));
    for (const key of Object.keys(view) as (keyof typeof view)[]) view[key] = params.get(key) ?? '';
  }

  function writeFragment(): void {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(view)) if (value !== '') params.set(key, value);
    const hash = `#${params.toString()}`;
    if (location.hash !== hash) history.replaceState(null, '', hash);
  }

  /** Opens the view the fragment names (or the first job), then draws it all. */
  function applyView(): void {
    job = data.jobs.find((each) => each.key === view.job) ?? data.jobs[0]!;
    view.job = job.key;
    decoded = model.decode(job);
    controls.job.value = job.key;
    controls.project.replaceChildren(element('option', 'all projects'));
    (controls.project.options[0] as HTMLOptionElement).value = '';
    job.projects
      .map((name, index) => ({ name, index }))
      .sort((a, b) => (a.name < b.name ? -1 : 1))
      .forEach(({ name, index }) => {
        const option = element('option', name === '' ? '(none)' : name);
        option.value = String(index);
        controls.project.append(option);
      });
    const project = job.projects.indexOf(view.project);
    controls.project.value = project < 0 ? '' : String(project);
    if (project < 0) view.project = '';
    controls.url.value = view.url;
    const summarised = byId('summarised');
    summarised.hidden = !job.summarised;
    summarised.textContent = job.summarised
      ? `This job read ${job.summarised.pages} pages, more than --max-pages ${data.asked.maxPages}: its runs are summarised. The filters, two runs compared and a page's trend need its pages.`
      : '';
    for (const id of ['filter-project', 'filter-url', 'page-find']) byId<HTMLInputElement>(id).disabled = Boolean(job.summarised);
    byId('compare').hidden = Boolean(job.summarised);
    byId('page').hidden = Boolean(job.summarised);
    fillRunChoices();
    refresh();
  }

  /** The URL filter as a test of a page's URL: a glob, or (no glob character) any URL holding the text. */
  function urlTest(text: string): ((url: string) => boolean) | undefined | 'bad' {
    const glob = text.trim();
    if (glob === '') return undefined;
    if (!/[*?[{]/.test(glob)) return (url) => url.includes(glob);
    try {
      const pattern = globRegExp(glob.replace(/^https?:\/\/(www\.)?/i, ''));
      return (url) => pattern.test(url);
    } catch {
      return 'bad';
    }
  }

  /** Filters applied: the pages kept, every figure worked out again, everything drawn. */
  function refresh(): void {
    const start = performance.now();
    const test = urlTest(view.url);
    const project = view.project === '' ? -1 : job.projects.indexOf(view.project);
    mask = test === undefined && project < 0 ? undefined : model.pageMask(job, project, test === 'bad' ? () => false : test);
    stats = model.stats(decoded, mask);
    const kept = mask ? mask.reduce((sum, keep) => sum + keep, 0) : job.urls.length;
    status.textContent =
      test === 'bad'
        ? `"${view.url}" is not a glob this page reads: no page kept.`
        : job.summarised
          ? `${job.name}: ${plural(job.runs.length, 'run')}, summarised.`
          : `${job.name}: ${plural(job.runs.length, 'run')}, ${mask ? `${kept} of ${plural(job.urls.length, 'page')} kept` : plural(job.urls.length, 'page')}.`;
    drawRuns();
    drawCharts();
    drawWeeks();
    if (!job.summarised) {
      drawComparison();
      drawPage();
    }
    writeFragment();
    // How long a filter took to draw (the budget test reads it).
    performance.measure('rsapi-history-refresh', { start });
  }

  function drawRuns(): void {
    const body = byId<HTMLTableElement>('runs').tBodies[0] as HTMLTableSectionElement;
    const rows: HTMLTableRowElement[] = [];
    for (let r = job.runs.length - 1; r >= 0; r--) {
      const run = job.runs[r]!;
      const figures = stats[r]!;
      const tr = element('tr');
      tr.id = `run-${run.id}`;
      const head = element('th');
      head.scope = 'row';
      if (job.summarised || figures.baseline === null) head.textContent = String(run.id);
      else {
        const button = element('button', String(run.id), 'run');
        button.type = 'button';
        button.setAttribute('aria-label', `Run ${run.id}: compare with run ${job.runs[figures.baseline]!.id}`);
        button.addEventListener('click', () => {
          view.from = String(job.runs[figures.baseline!]!.id);
          view.run = String(run.id);
          refresh();
          byId('compare').scrollIntoView({ block: 'start' });
          controls.to.focus();
        });
        head.append(button);
      }
      const started = element('td', undefined, 'date');
      started.append(timeElement(run.started, compact));
      const parts: string[] = [];
      if (figures.baseline === null) parts.push(r === 0 ? 'first run' : 'nothing to compare with');
      else {
        parts.push(`${figures.newFailures} newly failing${figures.failingPages > 0 ? ` (${plural(figures.failingPages, 'page')})` : ''}`);
        parts.push(`${figures.fixed} fixed`);
        parts.push(`${plural(figures.newPages, 'new page')}`);
        parts.push(`${figures.vanished} vanished`);
      }
      const changesCell = element('td', undefined, 'changes');
      parts.forEach((part, index) => {
        if (index > 0) changesCell.append(' · ');
        // Only the new failures in the colour of a failure: the rest is news, not bad news.
        changesCell.append(index === 0 && figures.newFailures > 0 ? element('span', part, 'worse') : part);
      });
      tr.append(
        head,
        started,
        element('td', String(figures.pages), 'num'),
        element('td', shown(figures.score), 'num'),
        element('td', verdict(run), run.complete && run.exit !== 0 && run.exit !== null ? 'failed' : ''),
        changesCell,
      );
      if (String(run.id) === view.run) tr.classList.add('chosen');
      rows.push(tr);
    }
    body.replaceChildren(...rows);
  }

  /** A line chart of one value per run (a gap where a run has none), its own scale, the first and last runs' dates below. */
  function lineChart(target: HTMLElement, values: (number | null | undefined)[], label: string, scale: { min: number; max: number }, dates: string[]): void {
    // Drawn at the width it is shown (a phone's too), so its text keeps its size.
    const width = Math.max(280, Math.min(720, Math.round(target.clientWidth || 640)));
    const [height, left, right, top, bottom] = [Math.round(Math.min(220, width * 0.45)), 40, 12, 12, 30];
    const svg = document.createElementNS(SVG, 'svg');
    svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
    svg.setAttribute('class', 'line-chart');
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', label);
    const span = scale.max - scale.min || 1;
    const x = (index: number) => left + (values.length > 1 ? (index * (width - left - right)) / (values.length - 1) : (width - left - right) / 2);
    const y = (value: number) => top + (1 - (value - scale.min) / span) * (height - top - bottom);
    const add = (name: string, attributes: Record<string, string | number>, text?: string) => {
      const made = document.createElementNS(SVG, name);
      for (const [key, value] of Object.entries(attributes)) made.setAttribute(key, String(value));
      if (text !== undefined) made.textContent = text;
      svg.append(made);
      return made;
    };
    for (const tick of [scale.min, (scale.min + scale.max) / 2, scale.max]) {
      add('line', { class: 'grid', x1: left, x2: width - right, y1: y(tick), y2: y(tick) });
      add('text', { class: 'axis', x: left - 6, y: y(tick) + 4, 'text-anchor': 'end' }, number.format(tick));
    }
    let path = '';
    values.forEach((value, index) => {
      if (value === null || value === undefined) return;
      const lone = (values[index - 1] ?? null) === null && (values[index + 1] ?? null) === null;
      path += `${path === '' || (values[index - 1] ?? null) === null ? 'M' : 'L'}${x(index).toFixed(1)},${y(value).toFixed(1)}`;
      if (lone || index === values.length - 1) add('circle', { cx: x(index).toFixed(1), cy: y(value).toFixed(1), r: 3.5 });
    });
    const line = document.createElementNS(SVG, 'path');
    line.setAttribute('d', path);
    svg.insertBefore(line, svg.querySelector('circle'));
    if (dates.length > 0) {
      add('text', { class: 'axis', x: left, y: height - 8, 'text-anchor': 'start' }, dateOnly.format(Date.parse(dates[0]!)));
      if (dates.length > 1) add('text', { class: 'axis', x: width - right, y: height - 8, 'text-anchor': 'end' }, dateOnly.format(Date.parse(dates.at(-1)!)));
    }
    target.replaceChildren(svg);
  }

  /** `71.2 → 73 over 12 runs`: what a chart shows, for its name. */
  function describeSeries(values: (number | null | undefined)[]): string {
    const known = values.filter((value): value is number => value !== null && value !== undefined);
    if (known.length === 0) return 'no value';
    return `${shown(known[0])} → ${shown(known.at(-1))} over ${plural(values.length, 'run')} (lowest ${shown(Math.min(...known))}, highest ${shown(Math.max(...known))})`;
  }

  function drawCharts(): void {
    const dates = job.runs.map((run) => run.started);
    const scores = stats.map((figures) => figures.score);
    lineChart(byId('chart-score'), scores, `Average score per run: ${describeSeries(scores)}`, { min: 0, max: 100 }, dates);
    const failed = stats.map((figures) => figures.failed);
    const highest = Math.max(1, ...failed.filter((value): value is number => value !== null));
    lineChart(byId('chart-failed'), failed, `Failed checks per page per run: ${describeSeries(failed)}`, { min: 0, max: Math.ceil(highest) }, dates);
  }

  /** `2026-W03`: the ISO week of a time, in UTC (its Thursday's year, the week holding 4 January the first). */
  function weekOf(started: string): string {
    const date = new Date(Date.parse(started));
    const thursday = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + 4 - (date.getUTCDay() || 7)));
    const yearStart = Date.UTC(thursday.getUTCFullYear(), 0, 1);
    const week = Math.ceil(((thursday.getTime() - yearStart) / 86_400_000 + 1) / 7);
    return `${thursday.getUTCFullYear()}-W${String(week).padStart(2, '0')}`;
  }

  /**
   * Checks x weeks: each week's last run, the pages failing each check; the checks failing most over the weeks shown
   * first. As many of the latest weeks as the screen holds (a phone: a few), saying how many.
   */
  function drawWeeks(): void {
    const table = byId<HTMLTableElement>('weeks');
    const room = table.parentElement?.clientWidth ?? 640;
    // As many of the latest weeks as fit: a first guess from the width, then one fewer until the table fits.
    let weeks = Math.max(3, Math.floor((room - 150) / 46));
    drawWeeksTable(table, weeks);
    while (weeks > 3 && table.offsetWidth > room) drawWeeksTable(table, --weeks);
  }

  function drawWeeksTable(table: HTMLTableElement, room: number): void {
    const weeks = new Map<string, number>();
    job.runs.forEach((run, r) => {
      if (stats[r]!.pages > 0) weeks.set(weekOf(run.started), r);
    });
    const all = [...weeks.entries()];
    const shownWeeks = all.slice(-room);
    const totals = job.checks.map((_, c) => shownWeeks.reduce((sum, [, r]) => sum + (stats[r]!.checkFails[c] ?? 0), 0));
    const top = totals
      .map((total, c) => ({ total, c }))
      .filter((entry) => entry.total > 0)
      .sort((a, b) => b.total - a.total || (job.checks[a.c]! < job.checks[b.c]! ? -1 : 1))
      .slice(0, 15);
    const caption = table.caption!;
    caption.textContent =
      top.length === 0
        ? 'No check failed in the weeks shown.'
        : `Pages failing each check in the last run of each week: the ${plural(top.length, 'check')} failing most${
            shownWeeks.length < all.length
              ? `, the last ${shownWeeks.length} of ${plural(all.length, 'week')} (a wider screen shows more)`
              : `, ${plural(all.length, 'week')}`
          }`;
    const headRow = element('tr');
    headRow.append(element('th', 'check'));
    (headRow.cells[0] as HTMLTableCellElement).scope = 'col';
    for (const [week, r] of shownWeeks) {
      const th = element('th', week.slice(5), 'num');
      th.scope = 'col';
      th.title = `${week}: run ${job.runs[r]!.id}`;
      headRow.append(th);
    }
    table.tHead!.replaceChildren(headRow);
    const rows = top.map(({ c }) => {
      const tr = element('tr');
      const name = element('th', job.checks[c]);
      name.scope = 'row';
      tr.append(name);
      for (const [, r] of shownWeeks) {
        const count = stats[r]!.checkFails[c] ?? 0;
        const share = stats[r]!.pages === 0 ? 0 : count / stats[r]!.pages;
        const td = element('td', String(count), 'num heat');
        td.style.setProperty('--share', share.toFixed(2));
        td.title = `${count} of ${plural(stats[r]!.pages, 'page')}`;
        tr.append(td);
      }
      return tr;
    });
    table.tBodies[0]!.replaceChildren(...rows);
  }

  function runOption(index: number): HTMLOptionElement {
    const run = job.runs[index]!;
    const ms = Date.parse(run.started);
    const option = element('option', `run ${run.id}, ${Number.isNaN(ms) ? run.started : dateTime.format(ms)}${run.complete ? '' : ' (incomplete)'}`);
    option.value = String(run.id);
    return option;
  }

  /** The two runs' lists; by default the newest run against the run before it that it is compared with. */
  function fillRunChoices(): void {
    const options = job.runs.map((_, index) => index).reverse();
    controls.from.replaceChildren(...options.map(runOption));
    controls.to.replaceChildren(...options.map(runOption));
  }

  function runIndex(id: string): number {
    return job.runs.findIndex((run) => String(run.id) === id);
  }

  function drawComparison(): void {
    let to = runIndex(view.run);
    if (to < 0) to = job.runs.length - 1;
    let from = runIndex(view.from);
    if (from < 0) from = model.baselineOf(job, to) ?? Math.max(0, to - 1);
    controls.from.value = String(job.runs[from]!.id);
    controls.to.value = String(job.runs[to]!.id);
    const result = model.compare(decoded, from, to, mask);
    changes = result.changes;
    const count = (test: (change: PageChange) => boolean) => changes.filter(test).length;
    const failing = changes.reduce((sum, change) => sum + change.newFailures.length, 0);
    const fixed = changes.reduce((sum, change) => sum + change.fixed.length, 0);
    byId('compare-summary').textContent =
      `Runs ${job.runs[from]!.id} → ${job.runs[to]!.id}: ${plural(result.compared, 'page')} compared; ${failing} checks newly failing, ${fixed} fixed, ${plural(
        count((change) => change.status === 'new'),
        'new page',
      )}, ${count((change) => change.status === 'vanished')} vanished.`;
    changesShown = 0;
    byId<HTMLTableElement>('changes').tBodies[0]!.replaceChildren();
    showMoreChanges();
  }

  function showMoreChanges(): void {
    const body = byId<HTMLTableElement>('changes').tBodies[0]!;
    const next = changes.slice(changesShown, changesShown + CHANGES_CHUNK);
    for (const change of next) {
      const tr = element('tr');
      tr.dataset.status = change.status;
      const page = element('td', undefined, 'url');
      const followed = element('button', 'trend', 'trend-button');
      followed.type = 'button';
      // The accessible name begins with the visible word (WCAG 2.5.3, label in name), then says whose trend it opens.
      followed.setAttribute('aria-label', `trend of ${change.url}`);
      followed.addEventListener('click', () => follow(change.url));
      page.append(pageLink(change.url), ' ');
      const report = reportLink(change.report);
      if (report) page.append(report, ' ');
      page.append(followed);
      const before = change.scoreBefore === undefined ? '–' : shown(change.scoreBefore);
      const after = change.scoreAfter === undefined ? '–' : shown(change.scoreAfter);
      const score = change.status === 'new' ? `new: ${after}` : change.status === 'vanished' ? `gone: ${before}` : `${before} → ${after}`;
      const label =
        change.labelBefore !== change.labelAfter && change.status === 'changed' ? `, ${change.labelBefore ?? 'none'} → ${change.labelAfter ?? 'none'}` : '';
      tr.append(page, element('td', change.status), element('td', `${score}${label}`), checksCell(change.newFailures, change.fixed));
      body.append(tr);
    }
    changesShown += next.length;
    const more = byId('changes-more');
    more.hidden = changesShown >= changes.length;
    (more.firstElementChild as HTMLButtonElement).textContent = `Show more (${changes.length - changesShown} left)`;
  }

  function follow(url: string): void {
    view.page = url;
    controls.find.value = url;
    drawPage();
    writeFragment();
    byId('page').scrollIntoView({ block: 'start' });
    byId<HTMLElement>('page-url').focus();
  }

  /** The pages whose URL holds the text typed (the filters' pages), at most 20, as buttons that open the page's trend. */
  function drawMatches(): void {
    const list = byId('page-matches');
    const text = controls.find.value.trim();
    if (text === '') {
      list.replaceChildren();
      return;
    }
    const found: string[] = [];
    let total = 0;
    job.urls.forEach((url, p) => {
      if ((mask && mask[p] === 0) || !url.includes(text)) return;
      total++;
      if (found.length < 20) found.push(url);
    });
    const items = found.map((url) => {
      const li = element('li');
      const button = element('button', url, 'match');
      button.type = 'button';
      if (url === view.page) button.setAttribute('aria-current', 'true');
      button.addEventListener('click', () => follow(url));
      li.append(button);
      return li;
    });
    if (total > found.length) items.push(element('li', `and ${total - found.length} more: type more of the URL`, 'note'));
    if (total === 0) items.push(element('li', 'No page of this job holds that text.', 'note'));
    list.replaceChildren(...items);
  }

  function drawPage(): void {
    drawMatches();
    const page = job.urls.indexOf(view.page);
    const box = byId('page-view');
    box.hidden = page < 0;
    if (page < 0) return;
    const heading = byId('page-url');
    heading.tabIndex = -1;
    heading.replaceChildren(pageLink(view.page));
    const points = model.trend(decoded, page);
    const scores = points.map((point) => point.score);
    lineChart(
      byId('chart-page'),
      scores,
      `Score of ${view.page} per run: ${describeSeries(scores)}`,
      { min: 0, max: 100 },
      points.map((point) => point.started),
    );
    const rows: HTMLTableRowElement[] = [];
    let previous = -1;
    points.forEach((point) => {
      const r = runIndex(String(point.run));
      const cell = r * decoded.pages + page;
      const state = decoded.state[cell]!;
      const worse: string[] = [];
      const better: string[] = [];
      if (previous >= 0 && state >= 0 && decoded.state[previous]! >= 0 && state !== decoded.state[previous]) {
        const [before, after] = [decoded.standing(decoded.state[previous]!), decoded.standing(state)];
        for (let c = 0; c < after.length; c++) {
          if (before[c] === 1 && after[c] === 0) worse.push(job.checks[c]!);
          else if (before[c] === 0 && after[c] === 1) better.push(job.checks[c]!);
        }
      }
      previous = cell;
      const tr = element('tr');
      const head = element('th', String(point.run));
      head.scope = 'row';
      const started = element('td', undefined, 'date');
      started.append(timeElement(point.started, compact));
      const score = element('td', `${shown(point.score)} `, 'num');
      score.append(element('span', point.label ?? 'none', `result ${point.label ?? 'none'}`));
      tr.append(head, started, score, element('td', shown(point.failed), 'num'), checksCell(worse.sort(), better.sort()));
      rows.push(tr);
    });
    byId<HTMLTableElement>('page-runs').tBodies[0]!.replaceChildren(...rows);
  }

  controls.job.addEventListener('change', () => {
    Object.assign(view, { job: controls.job.value, project: '', url: '', from: '', run: '', page: '' });
    controls.find.value = '';
    applyView();
  });
  controls.project.addEventListener('change', () => {
    view.project = controls.project.value === '' ? '' : (job.projects[Number(controls.project.value)] ?? '');
    refresh();
  });
  let typing: ReturnType<typeof setTimeout> | undefined;
  controls.url.addEventListener('input', () => {
    clearTimeout(typing);
    typing = setTimeout(() => {
      view.url = controls.url.value;
      refresh();
    }, 120);
  });
  for (const [select, key] of [
    [controls.from, 'from'],
    [controls.to, 'run'],
  ] as const)
    select.addEventListener('change', () => {
      view[key] = select.value;
      drawComparison();
      drawRuns();
      writeFragment();
    });
  byId('changes-more').firstElementChild!.addEventListener('click', showMoreChanges);
  controls.find.addEventListener('input', drawMatches);
  controls.find.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter') return;
    const first = byId('page-matches').querySelector('button');
    if (first) first.click();
  });
  window.addEventListener('hashchange', () => {
    readFragment();
    controls.find.value = view.page;
    applyView();
  });
  let resized: ReturnType<typeof setTimeout> | undefined;
  window.addEventListener('resize', () => {
    clearTimeout(resized);
    resized = setTimeout(() => {
      drawCharts();
      drawWeeks();
      if (!job.summarised) drawPage();
    }, 150);
  });

  readFragment();
  controls.find.value = view.page;
  applyView();
  document.documentElement.classList.add('scripted');
  performance.mark('rsapi-history-ready');
}
