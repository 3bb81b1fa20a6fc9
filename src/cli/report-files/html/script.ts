// The HTML report's own script, run in the reader's browser: local times, and the table of every report built from
// the embedded JSON, sorted and filtered there, rows added as they scroll into view (10,000 reports open at once).
import type { RowData as Row, TableData } from './model.js';

/**
 * Embedded in the page as its source text (`String(reportPageScript)`), so it must stay self-contained: it may use
 * nothing from this module or any import (types aside: they are erased), only the browser's globals. It writes
 * service text with textContent only.
 */
export function reportPageScript(): void {
  const CHUNK = 200;
  const source = document.getElementById('rsapi-data');
  const table = document.getElementById('reports') as HTMLTableElement | null;
  const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  const utc = (ms: number) =>
    new Date(ms)
      .toISOString()
      .replace('T', ' ')
      .replace(/\.\d+Z$/, ' UTC');

  for (const time of document.querySelectorAll<HTMLTimeElement>('time[data-ms]')) {
    const ms = Number(time.dataset.ms);
    time.textContent = dateFormat.format(ms);
    time.title = utc(ms);
  }
  if (!source || !table) return;
  const data = JSON.parse(source.textContent ?? '{}') as TableData;
  const rows = data.rows;
  const body = table.tBodies[0]!;
  const search = document.getElementById('filter-text') as HTMLInputElement;
  const resultFilter = document.getElementById('filter-result') as HTMLSelectElement;
  const failingFilter = document.getElementById('filter-failing') as HTMLInputElement | null;
  const status = document.getElementById('table-status')!;
  const more = document.getElementById('table-more')!;
  const headers = Array.from(table.tHead!.rows[0]!.cells);
  const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
  let haystacks: string[] | undefined;
  let shown: number[] = [];
  let rendered = 0;
  let sortColumn = -1;
  let descending = false;

  const resultRank = (row: Row) => (row[4] < 0 ? data.results.length : row[4]);
  // Sort keys per column (id, url, project, result, score, generated); missing values go last either way.
  const compare = [
    (a: Row, b: Row) => collator.compare(a[0], b[0]),
    (a: Row, b: Row) => collator.compare(a[1], b[1]),
    (a: Row, b: Row) => collator.compare(data.projects[a[3]]!, data.projects[b[3]]!),
    (a: Row, b: Row) => resultRank(a) - resultRank(b),
    (a: Row, b: Row) => (a[5] ?? 0) - (b[5] ?? 0),
    (a: Row, b: Row) => (a[6] ?? 0) - (b[6] ?? 0),
  ];
  const missing = (row: Row) => (sortColumn === 4 && row[5] === null) || (sortColumn === 5 && row[6] === null) || (sortColumn === 3 && row[4] < 0);

  function cell(text: string, className?: string): HTMLTableCellElement {
    const td = document.createElement('td');
    td.textContent = text;
    if (className) td.className = className;
    return td;
  }

  /** The row's detail: why it fails the run, then its failed checks (name, importance, value, what was wrong), as `reports show` says them. */
  function detailElement(row: Row): HTMLTableRowElement {
    const tr = document.createElement('tr');
    tr.className = 'detail';
    const td = document.createElement('td');
    td.colSpan = headers.length;
    if (row[8].length > 0) {
      const why = document.createElement('ul');
      why.className = 'why';
      for (const index of row[8]) {
        const li = document.createElement('li');
        li.textContent = data.texts[index]!;
        why.append(li);
      }
      td.append(why);
    }
    const summary = document.createElement('p');
    if (row[9] === 0) summary.textContent = 'No per-check results: the service sent none with this report.';
    else {
      summary.textContent = `checks: ${row[10]} of ${row[11]} passed`;
      const list = document.createElement('ul');
      list.className = 'checks';
      for (const failure of row[9]) {
        const [check, valueIndex, wrongIndex] = data.failed[failure]!;
        const [id, name, importance] = data.checks[check]!;
        const value = data.texts[valueIndex]!;
        const wrong = data.texts[wrongIndex]!;
        const li = document.createElement('li');
        const level = document.createElement('span');
        level.className = `importance ${importance || 'unknown'}`;
        level.textContent = importance || '?';
        const title = document.createElement('strong');
        title.textContent = name;
        title.title = id;
        li.append(level, ' ', title);
        if (value !== '') li.append(`: ${value}`);
        if (wrong !== '') li.append(` — ${wrong}`);
        list.append(li);
      }
      td.append(summary, list);
    }
    if (row[9] === 0) td.append(summary);
    tr.append(td);
    return tr;
  }

  function toggle(tr: HTMLTableRowElement, row: Row, button: HTMLButtonElement): void {
    const open = button.getAttribute('aria-expanded') === 'true';
    button.setAttribute('aria-expanded', String(!open));
    if (open) tr.nextElementSibling?.remove();
    else tr.after(detailElement(row));
  }

  function rowElement(row: Row): HTMLTableRowElement {
    const tr = document.createElement('tr');
    if (row[7] === 1) tr.className = 'failing';
    const idCell = cell('', 'id');
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'open';
    button.setAttribute('aria-expanded', 'false');
    button.setAttribute('aria-label', `Failed checks of report ${row[0]}`);
    button.addEventListener('click', (event) => {
      event.stopPropagation();
      toggle(tr, row, button);
    });
    idCell.append(button);
    if (data.service !== undefined && row[0] !== '') {
      const link = document.createElement('a');
      link.href = `${data.service}/reports/${encodeURIComponent(row[0])}`;
      link.rel = 'noopener noreferrer';
      link.textContent = row[0];
      link.title = 'This report on the service';
      idCell.append(link);
    } else idCell.append(row[0]);
    if (row[7] === 1) {
      const mark = document.createElement('span');
      mark.className = 'failing-mark';
      mark.textContent = 'failing';
      idCell.append(mark);
    }
    tr.append(idCell);
    tr.addEventListener('click', (event) => {
      if ((event.target as Element).closest('a')) return;
      toggle(tr, row, button);
    });
    const urlCell = document.createElement('td');
    urlCell.className = 'url';
    // A URL of thousands of characters shows its first lines; the whole is in the title.
    const url = document.createElement(row[2] === 0 ? 'span' : 'a');
    url.className = 'clamp';
    if (url instanceof HTMLAnchorElement) {
      url.href = row[2] === 1 ? row[1] : row[2] === 2 ? `https://${row[1]}` : (row[2] as string);
      url.rel = 'noopener noreferrer';
    }
    url.textContent = row[1];
    if (row[1].length > 120) url.title = row[1];
    urlCell.append(url);
    tr.append(urlCell, cell(data.projects[row[3]]!));
    const result = data.results[row[4]];
    const resultCell = cell('');
    const label = document.createElement('span');
    label.className = `result ${result ?? 'none'}`;
    label.textContent = result ?? 'none';
    resultCell.append(label);
    tr.append(resultCell, cell(row[5] === null ? '' : String(Math.round(row[5] * 10) / 10), 'num'));
    const generated = cell('', 'date');
    if (row[6] !== null) {
      const time = document.createElement('time');
      time.dateTime = new Date(row[6]).toISOString();
      time.textContent = dateFormat.format(row[6]);
      time.title = utc(row[6]);
      generated.append(time);
    }
    tr.append(generated);
    if (data.trendRuns !== undefined) tr.append(trendCell(row[12] ?? 0));
    return tr;
  }

  /** The row's scores in the history's earlier runs and now, as a line (charts.ts sparklineSvg draws the projects' alike). */
  function trendCell(trend: (number | null)[] | 0): HTMLTableCellElement {
    const td = cell('', 'trend');
    const scores = trend === 0 ? [] : trend;
    if (scores.length === 0) {
      td.textContent = '–';
      td.title = 'No earlier run of the history read this URL.';
      return td;
    }
    const [width, height, pad] = [96, 24, 3];
    const step = (width - 2 * pad) / Math.max(1, scores.length - 1);
    const y = (score: number) => (pad + (1 - Math.min(100, Math.max(0, score)) / 100) * (height - 2 * pad)).toFixed(1);
    const svgNs = 'http://www.w3.org/2000/svg';
    const svg = document.createElementNS(svgNs, 'svg');
    svg.setAttribute('class', 'spark');
    svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
    svg.setAttribute('width', String(width));
    svg.setAttribute('height', String(height));
    svg.setAttribute('role', 'img');
    const said = scores.map((score) => (score === null ? '–' : String(score))).join(', ');
    svg.setAttribute('aria-label', `Scores in ${scores.length - 1} earlier runs and now: ${said}`);
    const circle = (cx: string, cy: string, r: string, className?: string) => {
      const dot = document.createElementNS(svgNs, 'circle');
      dot.setAttribute('cx', cx);
      dot.setAttribute('cy', cy);
      dot.setAttribute('r', r);
      if (className) dot.setAttribute('class', className);
      svg.append(dot);
    };
    let points: [string, string][] = [];
    const line = (atEnd: boolean) => {
      if (points.length > 1) {
        const polyline = document.createElementNS(svgNs, 'polyline');
        polyline.setAttribute('points', points.map((point) => point.join(',')).join(' '));
        svg.append(polyline);
      } else if (points.length === 1 && !atEnd) {
        // A point with a gap on both sides has no line to be part of: a dot, so a missing run is a gap, not a lost one.
        circle(points[0]![0], points[0]![1], '1.75', 'lone');
      }
      points = [];
    };
    scores.forEach((score, index) => {
      if (score === null) line(false);
      else points.push([(pad + index * step).toFixed(1), y(score)]);
    });
    const last = scores[scores.length - 1];
    line(last !== null && last !== undefined);
    if (last !== null && last !== undefined) circle((pad + (scores.length - 1) * step).toFixed(1), y(last), '2.5');
    td.title = said;
    td.append(svg);
    return td;
  }

  function renderMore(all = false): void {
    const end = all ? shown.length : Math.min(shown.length, rendered + CHUNK);
    if (end <= rendered) return;
    const fragment = document.createDocumentFragment();
    for (let index = rendered; index < end; index++) fragment.append(rowElement(rows[shown[index]!]!));
    body.append(fragment);
    rendered = end;
    more.hidden = rendered >= shown.length;
  }

  function apply(): void {
    const text = search.value.trim().toLowerCase();
    const result = resultFilter.value;
    if (text !== '' && !haystacks) haystacks = rows.map((row) => `${row[0]}\n${row[1]}\n${data.projects[row[3]]}`.toLowerCase());
    shown = [];
    for (let index = 0; index < rows.length; index++) {
      const row = rows[index]!;
      if (result !== '' && (data.results[row[4]] ?? 'none') !== result) continue;
      if (failingFilter?.checked && row[7] !== 1) continue;
      if (text !== '' && !haystacks![index]!.includes(text)) continue;
      shown.push(index);
    }
    if (sortColumn >= 0) {
      const byColumn = compare[sortColumn]!;
      const direction = descending ? -1 : 1;
      shown.sort((a, b) => {
        const [ra, rb] = [rows[a]!, rows[b]!];
        const [ma, mb] = [missing(ra), missing(rb)];
        if (ma !== mb) return ma ? 1 : -1;
        return direction * byColumn(ra, rb) || a - b;
      });
    }
    body.textContent = '';
    rendered = 0;
    renderMore();
    status.textContent = shown.length === rows.length ? `All ${rows.length} reports.` : `${shown.length} of ${rows.length} reports match.`;
  }

  headers.forEach((header, column) => {
    header.querySelector('button')?.addEventListener('click', () => {
      descending = sortColumn === column ? !descending : false;
      sortColumn = column;
      for (const other of headers) other.removeAttribute('aria-sort');
      header.setAttribute('aria-sort', descending ? 'descending' : 'ascending');
      apply();
    });
  });
  search.addEventListener('input', apply);
  resultFilter.addEventListener('change', apply);
  failingFilter?.addEventListener('change', apply);
  more.querySelector('button')?.addEventListener('click', () => renderMore());
  window.addEventListener('beforeprint', () => {
    renderMore(true);
    for (const details of document.querySelectorAll('details')) details.open = true;
  });
  if ('IntersectionObserver' in window) {
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        renderMore();
        // Observed afresh: a screen tall enough to still show the end gets another chunk, not a table that stops.
        observer.unobserve(more);
        observer.observe(more);
      },
      { rootMargin: '800px' },
    );
    observer.observe(more);
  }
  apply();
  document.documentElement.classList.add('scripted');
  // When the table became usable, counted from the navigation: what the tests hold to the budget for 10,000 reports.
  performance.mark('rsapi-table-ready');
}
