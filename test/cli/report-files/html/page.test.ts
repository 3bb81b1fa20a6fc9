// The HTML report's renderer in-process: the html template's escaping, links only to http(s) pages, phpRank's numeric results and checks, regressions with new check failures, the CSP hash.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApiRecord } from '../../../../src/api/model/record.js';
import { compareWithBaseline, newestByUrl, type Baseline } from '../../../../src/cli/report-files/baseline.js';
import { renderHtml } from '../../../../src/cli/report-files/html/page.js';
import { displayUrl, html, pageHref } from '../../../../src/cli/report-files/html/markup.js';
import { escapeHtml, jsonForScript } from '../../../../src/output/escape.js';
import { BUCKET_NAMES, htmlBucketOf } from '../../../../src/cli/report-files/html/charts.js';
import { REPORT_CSS } from '../../../../src/cli/report-files/html/style.js';
import { buildModel, tableData, tableJson } from '../../../../src/cli/report-files/html/model.js';
import type { CiRun } from '../../../../src/cli/report-files/run-record.js';
import { startMock } from '../../../helpers/mock.js';
import { runInProcess } from '../../../helpers/run.js';
import { tempDir } from '../../../helpers/cli.js';

const NO_GATE = { active: false, failed: false, verdict: 'gate passed' };

function runOf(records: ApiRecord[], extra: Partial<CiRun> = {}): CiRun {
  const cases = records.map((record) => ({ kind: 'report' as const, url: String(record.url), record, gateFailures: [] }));
  return { command: 'reports list', startedAt: new Date('2026-11-20T09:00:00Z'), seconds: 2.5, cases, gate: NO_GATE, ...extra };
}

/** phpRank's shape: the score in `result`, per-check outcomes in `results`. */
function phpRank(url: string, result: number, failing: string[], passing: string[] = []): ApiRecord {
  const results: Record<string, unknown> = {};
  for (const id of failing) results[id] = { passed: false, importance: 'high', value: null, errors: { missing: null } };
  for (const id of passing) results[id] = { passed: true, importance: 'high', value: null };
  return { id: url.length, url, project: 'example.com', result, results, generated_at: '2026-11-20 09:14:03' };
}

describe('escaping', () => {
  it('escapes every interpolated string for text and quoted attributes', () => {
    expect(html`<a title="${'"><script>'}">${'</a>'}</a>`.html).toBe('<a title="&quot;&gt;&lt;script&gt;">&lt;/a&gt;</a>');
  });

  it.each([
    ['https://example.com/a?b=1', 'https://example.com/a?b=1'],
    ['HTTP://Example.com', 'http://example.com/'],
    ['example.com/new/x', 'https://example.com/new/x'],
    ['javascript:alert(1)', undefined],
    ['JaVaScRiPt:alert(1)', undefined],
    ['data:text/html,<script>alert(1)</script>', undefined],
    ['java\tscript:alert(1)', undefined],
    ['https://example.com/\u0000x', undefined],
    ['not a url', undefined],
    ['https://example.com/"><img/src=x>', 'https://example.com/%22%3E%3Cimg/src=x%3E'],
    ['https://example.com/a b', undefined],
  ])('pageHref(%j) is %j', (url, href) => {
    expect(pageHref(url)).toBe(href);
  });
});

describe('the figures', () => {
  it("reads phpRank's numeric results as labels and scores, and counts failed checks by name, most failed first", () => {
    const model = buildModel(
      runOf([
        phpRank('example.com/a', 92, ['favicon'], ['title']),
        phpRank('example.com/b', 48, ['favicon', 'htst']),
        phpRank('example.com/c', 60, [], ['title']),
      ]),
    );
    expect(model.counts).toEqual({ good: 1, decent: 1, bad: 1, none: 0 });
    expect(model.scores).toEqual({ count: 3, mean: (92 + 48 + 60) / 3, median: 60 });
    expect(model.histogram).toEqual([0, 0, 0, 0, 1, 0, 1, 0, 0, 1]);
    expect(model.checks).toEqual({
      reports: 3,
      failed: [
        { check: 'favicon', name: 'Favicon', importance: 'high', reports: 2, failed: 2, share: 1 },
        { check: 'htst', name: 'HSTS', importance: 'high', reports: 1, failed: 1, share: 1 },
      ],
    });
    expect(model.lowest.map((r) => r.url)).toEqual(['example.com/b', 'example.com/c', 'example.com/a']);
    expect(model.reports[0]!.generated).toBe(Date.parse('2026-11-20T09:14:03Z'));
  });

  it('lists checks newly failing and fixed since the baseline, besides score drops and worse results', () => {
    const before = [
      phpRank('example.com/a', 92, ['charset'], ['favicon', 'title']),
      phpRank('example.com/b', 90, [], ['favicon']),
      phpRank('example.com/gone', 50, []),
    ];
    const now = [phpRank('example.com/a', 92, ['favicon', 'title'], ['charset']), phpRank('example.com/b', 40, []), phpRank('example.com/new', 70, [])];
    const baseline: Baseline = { path: 'base.json', byUrl: newestByUrl(before) };
    const run = runOf(now, { baseline: compareWithBaseline(baseline, now) });
    const view = buildModel(run).baseline!;
    expect(view.checkChanges).toEqual([{ url: 'example.com/a', newFailures: ['Favicon', 'Title'], fixed: ['Charset'] }]);
    expect(view.regressions.map((r) => [r.url, r.changes])).toEqual([['example.com/b', ['score 90 → 40 (−50)', 'result good → bad']]]);
    expect(view.comparison.newUrls).toEqual(['example.com/new']);
    expect(view.comparison.vanished).toEqual(['example.com/gone']);
  });

  it('the table data names each project once and links only what may be linked', () => {
    const data = tableData(
      buildModel(
        runOf([
          { id: 1, url: 'https://a.test/', project: 'p', result: 'good', score: 90 },
          { id: 2, url: 'javascript:x', project: 'p', result: 'bad', score: 1 },
          { id: 3, url: 'a.test/stored', project: 'p', result: 'good', score: 80 },
          { id: 4, url: 'HTTPS://A.test/x', project: 'p', result: 'good', score: 80 },
        ]),
      ).reports,
    );
    expect(data.projects).toEqual(['p']);
    // A URL as phpRank stores it (no scheme) links to https:// and itself: 2, not the href written out again.
    expect(data.rows).toEqual([
      ['1', 'https://a.test/', 1, 0, 0, 90, null, 0, [], 0, 0, 0],
      ['2', 'javascript:x', 0, 0, 2, 1, null, 0, [], 0, 0, 0],
      ['3', 'a.test/stored', 2, 0, 0, 80, null, 0, [], 0, 0, 0],
      ['4', 'HTTPS://A.test/x', 'https://a.test/x', 0, 0, 80, null, 0, [], 0, 0, 0],
    ]);
  });
});

describe('renderHtml', () => {
  const hostile = `https://x.test/</script><script>alert(1)</script>"><img src=x onerror=alert(2)>\u202e`;
  const page = renderHtml(
    runOf([{ id: 1, url: hostile, project: '<b>p</b>', result: 'bad', score: 5 }], {
      cases: [
        { kind: 'report', url: hostile, record: { id: 1, url: hostile, project: '<b>p</b>', result: 'bad', score: 5 }, gateFailures: ['result bad'] },
        { kind: 'error', url: 'https://y.test/', message: '<script>alert(3)</script>', exitCode: 5 },
      ],
      gate: { active: true, failed: true, verdict: 'gate failed: 1 of 1 reports is bad (--fail-on bad)' },
    }),
    10,
  );

  it('holds no markup from the service: every hostile string is text', () => {
    expect(page).not.toMatch(/<img|<b>|alert\(\d\)<\/script>|\u202e/);
    expect(page).toContain('&lt;script&gt;alert(3)&lt;/script&gt;');
    expect(page.match(/<script/g)).toHaveLength(2);
  });

  it('states the verdict, and allows by its Content-Security-Policy only its own script (by hash) and no request', () => {
    expect(page).toContain('<p>Failed (exit 10)</p>');
    expect(page).toContain('<li>gate failed: 1 of 1 reports is bad (--fail-on bad)</li>');
    const script = /<script>([\s\S]*?)<\/script>/.exec(page)![1]!;
    const hash = createHash('sha256').update(script).digest('base64');
    expect(page).toContain(escapeHtml(`default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${hash}'; base-uri 'none'`));
  });
});

describe('the verdict', () => {
  it('a run nothing judged says so rather than passed', () => {
    const page = renderHtml(runOf([{ id: 1, url: 'https://a.test/', result: 'good', score: 90 }], { command: 'reports stats' }), 0);
    expect(page).toContain('<p>No gate set</p>');
    expect(page).not.toContain('Passed');
    expect(page).toContain('<title>a.test – rsapi reports stats: 1 report</title>');
  });

  it('an interrupted run names what happened to its URLs: refreshes interrupted under way, URLs not started; never "could not be created"', () => {
    const run = runOf([{ id: 1, url: 'https://a.test/', result: 'good', score: 90 }], { command: 'audit' });
    for (const url of ['https://b.test/', 'https://c.test/']) run.cases.push({ kind: 'error', url, message: 'interrupted', exitCode: 130 });
    run.cases.push({ kind: 'skipped', url: 'https://d.test/', reason: 'not started: interrupted' });
    const page = renderHtml(run, 130);
    expect(page).toContain('<li>2 URLs interrupted under way, 1 not started (interrupted)</li>');
    expect(page).toContain('<caption>2 URLs interrupted under way</caption>');
    expect(page).toContain('<h2 id="errors-title">Not audited</h2>');
    expect(page).not.toMatch(/not created|could not be created/);
  });

  it('the title names the site: the job, else the one project or host of the reports; none for several', () => {
    const a = { id: 1, url: 'https://a.test/', result: 'good', score: 90 };
    const b = { id: 2, url: 'https://b.test/x', result: 'good', score: 90 };
    expect(renderHtml(runOf([a, b], { ran: { job: 'weekly shop' } }), 0)).toContain('<title>weekly shop – rsapi reports list: 2 reports</title>');
    expect(renderHtml(runOf([a, b], { ran: { job: 'weekly shop' } }), 0)).toContain('<dt>Job</dt><dd>weekly shop</dd>');
    expect(
      renderHtml(
        runOf([
          { ...a, project: 'shop.test' },
          { ...b, project: 'shop.test' },
        ]),
        10,
      ),
    ).toContain('<title>shop.test – rsapi reports list: failed, 2 reports</title>');
    expect(renderHtml(runOf([a, b]), 0)).toContain('<title>rsapi reports list: 2 reports</title>');
  });

  it('a first run with a gate asked says it compared nothing, not "no gate set", and warns of a history lost', () => {
    const firstRun = { job: 'weekly', history: '/var/lib/rsapi/history.db', hadReports: { count: 7, of: 8 } };
    const page = renderHtml(runOf([{ id: 1, url: 'https://a.test/', result: 'good', score: 90 }], { command: 'audit', firstRun }), 0);
    expect(page).not.toContain('No gate set');
    expect(page).toContain('<li>first run of job weekly: nothing compared</li>');
    expect(page).toContain(
      '7 of 8 pages had a report already: if job weekly ran before, its history may have been lost (looked for in /var/lib/rsapi/history.db)',
    );
  });

  it('an empty input fails naming why, not "checks against the baseline passed: 0 newly failing on 0 URLs"', () => {
    const baseline: Baseline = { path: 'run 2 of the history', byUrl: newestByUrl([phpRank('https://a.test/', 90, [])]), hasChecks: true, run: 2 };
    const comparison = compareWithBaseline(baseline, [], { failOnNewFailures: true });
    const empty = { why: 'the sitemap listed no page', failed: true };
    const page = renderHtml(runOf([], { command: 'audit', baseline: comparison, empty }), 10);
    expect(page).toContain('<li>the sitemap listed no page: a gate over nothing proves nothing (--allow-empty lets it pass)</li>');
    expect(page).not.toContain('newly failing on 0 URLs');
  });

  it('a gate that held is passed, with its line', () => {
    const page = renderHtml(
      runOf([{ id: 1, url: 'https://a.test/', result: 'good', score: 90 }], {
        gate: { active: true, failed: false, verdict: 'gate passed: no report is bad (--fail-on bad)' },
      }),
      0,
    );
    expect(page).toContain('<p>Passed</p>\n<ul><li>gate passed: no report is bad (--fail-on bad)</li></ul>');
  });
});

describe('start-up', () => {
  it('the built CLI loads the renderer only on demand: no chunk imports it statically, one imports it for --html', () => {
    const dist = join(import.meta.dirname, '../../../../dist');
    const read = (file: string) => readFileSync(join(dist, file), 'utf8');
    const importsOf = (file: string, pattern: RegExp) => [...read(file).matchAll(pattern)].map((match) => join(file, '..', match[1]!));
    const STATIC = /(?:^|[;\s}])import\s*(?:[^'"();]*?from\s*)?["'](\.\.?\/[^"']+)["']/g;
    const DYNAMIC = /import\(["'](\.\.?\/[^"']+)["']\)/g;
    // This build's files: everything main.js reaches (dist/chunks may also hold older builds' chunks).
    const build = new Set<string>();
    const visit = (file: string) => {
      if (build.has(file)) return;
      build.add(file);
      for (const next of [...importsOf(file, STATIC), ...importsOf(file, DYNAMIC)]) visit(next);
    };
    visit('main.js');
    const renderer = [...build].filter((file) => read(file).includes('rsapi-table-ready'));
    expect(renderer).toHaveLength(1);
    const importers = (pattern: RegExp) => [...build].filter((file) => importsOf(file, pattern).includes(renderer[0]!));
    expect(importers(STATIC)).toEqual([]);
    expect(importers(DYNAMIC)).toHaveLength(1);
  });
});

describe('--html on the commands', () => {
  it.each([
    ['reports', 'list'],
    ['reports', 'create', 'https://example.com/x'],
    ['reports', 'stats'],
  ])('%s %s refuses a path in a missing folder before any request (exit 2)', async (...argv) => {
    const mock = await startMock();
    try {
      const result = await runInProcess({ argv: [...argv, '--html', join(mock.configDir, 'missing', 'report.html')], env: mock.env });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('--html');
      expect(mock.server.requests).toEqual([]);
    } finally {
      await mock.close();
    }
  });
});

describe('per page', () => {
  it("the page's table JSON, written a row at a time, is jsonForScript of the table data, byte for byte", () => {
    const hostile = 'https://x.test/</script><!--\u2028&';
    const reports = buildModel(
      runOf([
        phpRank('example.com/a', 40, ['title', 'favicon'], ['charset']),
        { id: 7, url: hostile, project: '<b>p</b>', result: 'bad', score: 5 },
        phpRank('example.com/b', 90, [], ['title']),
      ]),
    ).reports;
    const history = {
      runs: [
        { id: 1, started: '2026-11-01T00:00:00Z' },
        { id: 2, started: '2026-11-08T00:00:00Z' },
      ],
      scores: new Map<string, (number | null)[]>([
        ['example.com/a', [50.4, null]],
        ['x.test/</script><!--\u2028&', [null, 7]],
      ]),
      projects: new Map(),
    };
    for (const [service, withHistory] of [
      [undefined, undefined],
      ['https://seo.example.net', history],
    ] as const) {
      expect(tableJson(reports, service, withHistory)).toBe(jsonForScript(tableData(reports, service, withHistory)));
    }
    expect(tableJson([])).toBe(jsonForScript(tableData([])));
    expect(JSON.parse(tableJson(reports, undefined, history)).rows[0][12]).toEqual([50, null, 40]);
  });

  it('a row carries whether it fails the run and why, and its failed checks indexed into shared tables', () => {
    const failing = phpRank('example.com/a', 40, ['title', 'favicon'], ['charset']);
    const run = runOf([failing, phpRank('example.com/b', 90, [], ['title'])]);
    const cases = run.cases.map((c, index) => (index === 0 && c.kind === 'report' ? { ...c, gateFailures: ['title: missing (rules.json:3)'] } : c));
    const data = tableData(buildModel({ ...run, cases }).reports, 'https://seo.example.net');
    expect(data.service).toBe('https://seo.example.net');
    expect(data.checks).toEqual([
      ['favicon', 'Favicon', 'high'],
      ['title', 'Title', 'high'],
    ]);
    const [a, b] = data.rows;
    expect(a!.slice(7)).toEqual([1, [data.texts.indexOf('title: missing (rules.json:3)')], [0, 1], 1, 3]);
    // Each failed check (its check, value and what was wrong) once, however many rows name it.
    expect(data.failed).toEqual([
      [0, 0, 1],
      [1, 0, 1],
    ]);
    expect(data.texts[0]).toBe('');
    expect(data.texts[1]).toBe('missing');
    expect(b!.slice(7)).toEqual([0, [], [], 1, 1]);
  });

  it.each([
    ['https://xn--bcher-kva.example/caf%C3%A9?q=%E2%9C%93', 'https://bücher.example/café?q=✓'],
    ['example.com/a%2Fb%3Fc%25d', 'example.com/a%2Fb%3Fc%25d'],
    ['example.com/%E0%A4', 'example.com/%E0%A4'],
    ['https://user@xn--mnchen-3ya.example/', 'https://user@münchen.example/'],
  ])('%s shows as %s (links keep the URL as sent)', (url, shown) => {
    expect(displayUrl(url)).toBe(shown);
  });

  it('the histogram buckets follow the thresholds: 40-48 is bad, 49-59 decent, 79.3 good', () => {
    expect(BUCKET_NAMES).toEqual(['0–9', '10–19', '20–29', '30–39', '40–48', '49–59', '60–69', '70–79', '80–89', '90–100']);
    expect([0, 39.9, 40, 48.9, 49, 59.5, 60, 79, 79.3, 80, 89.9, 90, 100].map(htmlBucketOf)).toEqual([0, 3, 4, 4, 5, 5, 6, 7, 8, 8, 8, 9, 9]);
    const page = renderHtml(runOf([phpRank('example.com/a', 45, []), phpRank('example.com/b', 49, [])]), 0);
    expect(page).toContain('<g class="bar bad"><title>40–48: 1 report</title>');
    expect(page).toContain('<g class="bar decent"><title>49–59: 1 report</title>');
  });

  it('the header says what ran: the service, the filters, the input, the commit', () => {
    const page = renderHtml(
      runOf([phpRank('example.com/a', 45, [])], {
        ran: { service: 'https://seo.example.net', filters: ['--project example.com'], input: '--from-file urls.txt', commit: 'abc1234' },
      }),
      0,
    );
    expect(page).toContain(
      '<dl class="ran"><div><dt>Service</dt><dd><a href="https://seo.example.net" rel="noopener noreferrer">https://seo.example.net</a></dd></div>' +
        '<div><dt>Filters</dt><dd><code>--project example.com</code></dd></div><div><dt>Input</dt><dd><code>--from-file urls.txt</code></dd></div>' +
        '<div><dt>Commit</dt><dd><code>abc1234</code></dd></div></dl>',
    );
  });

  it('the decent colour passes WCAG AA (4.5:1) on the page and on cards, in the light and the dark scheme', () => {
    const schemes = [...REPORT_CSS.matchAll(/:root\{([^}]*)\}/g)]
      .slice(0, 2)
      .map((m) => Object.fromEntries([...m[1]!.matchAll(/--([a-z-]+):(#[0-9a-f]{6}|#[0-9a-f]{3})\b/g)].map((v) => [v[1], v[2]])));
    expect(schemes).toHaveLength(2);
    for (const scheme of schemes) {
      for (const background of ['bg', 'card', 'pass-bg', 'fail-bg'])
        expect(contrast(scheme.decent!, scheme[background]!), `decent on ${background}`).toBeGreaterThanOrEqual(4.5);
    }
  });
});

function luminance(color: string): number {
  const hex = color.length === 4 ? `#${[...color.slice(1)].map((c) => c + c).join('')}` : color;
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

function contrast(a: string, b: string): number {
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (high! + 0.05) / (low! + 0.05);
}

describe('the page and a history that cannot be read', () => {
  it('a history file that is not an rsapi history: the page is written without history, one line says so, the file is left byte-identical', async () => {
    const mock = await startMock({ seed: 3 });
    const dir = tempDir('rsapi-html-history-');
    try {
      const history = join(dir.path, 'notes.db');
      writeFileSync(history, 'my own notes, not a database\n');
      const file = join(dir.path, 'page.html');
      const run = await runInProcess({ argv: ['reports', 'list', '--html', file, '-q'], env: { ...mock.env, RSAPI_HISTORY: history } });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^rsapi: history: .*notes\.db.*; the HTML page shows no history$/)]);
      expect(readFileSync(history, 'utf8')).toBe('my own notes, not a database\n');
      const page = readFileSync(file, 'utf8');
      expect(page).toContain('id="all-title"');
      expect(page).not.toContain('id="history-title"');
      // Recording into it as well: the run's own line (exit 11), and no second one for the page.
      const recorded = await runInProcess({ argv: ['reports', 'list', '--html', file, '--record', '-q'], env: { ...mock.env, RSAPI_HISTORY: history } });
      expect(recorded.code).toBe(11);
      expect(recorded.stderr.match(/rsapi: history:/g)).toHaveLength(1);
    } finally {
      await mock.close();
      dir.cleanup();
    }
  });
});
