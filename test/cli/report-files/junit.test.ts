// The JUnit and Markdown renderers and the baseline comparison, in-process: hostile service text, exact Markdown, thresholds.
import { describe, expect, it } from 'vitest';
import type { ApiRecord } from '../../../src/api/model/record.js';
import { baselineReport, compareWithBaseline, newestByUrl, type Baseline } from '../../../src/cli/report-files/baseline.js';
import { renderJunit } from '../../../src/cli/report-files/junit.js';
import { reportIdentity } from '../../../src/api/model/report-url.js';
import type { CiRun } from '../../../src/cli/report-files/run-record.js';
import { renderSummary } from '../../../src/cli/report-files/summary.js';
import { childNamed, childrenNamed, parseXml } from '../../helpers/xml.js';

const NO_GATE = { active: false, failed: false, verdict: 'gate passed' };

function run(cases: CiRun['cases'], extra: Partial<CiRun> = {}): CiRun {
  return { command: 'reports list', startedAt: new Date('2026-11-20T09:00:00Z'), seconds: 1.5, cases, gate: NO_GATE, ...extra };
}

function report(url: string, score: number | undefined, result: string | undefined, more: ApiRecord = {}): CiRun['cases'][number] {
  return { kind: 'report', url, record: { id: 1, url, project: 'p', result, score, ...more }, gateFailures: [] };
}

function baselineOf(records: ApiRecord[]): Baseline {
  return { path: 'base.json', byUrl: newestByUrl(records) };
}

describe('renderJunit', () => {
  it('a run that failed with no report to show it (a gate over nothing) has one failed case saying why', () => {
    const gate = { active: true, failed: true, verdict: 'gate failed: no reports matched --project nope.example: a gate over nothing proves nothing' };
    const suite = childNamed(parseXml(renderJunit(run([], { gate }))), 'testsuite')!;
    expect(suite.attributes).toMatchObject({ tests: '1', failures: '1' });
    const [only] = childrenNamed(suite, 'testcase');
    expect(only!.attributes.name).toBe('rsapi reports list: the verdict');
    expect(childNamed(only!, 'failure')!.attributes.message).toBe(gate.verdict);
    const passed = childNamed(parseXml(renderJunit(run([report('https://a.example/', 90, 'good')]))), 'testsuite')!;
    expect(passed.attributes).toMatchObject({ tests: '1', failures: '0' });
  });

  it('a first run says so in a property (and the history it warns was lost); an empty input fails naming why, once', () => {
    const firstRun = { job: 'weekly', history: '/h.db', hadReports: { count: 2, of: 2 } };
    const props = (xml: string) =>
      Object.fromEntries(
        childrenNamed(childNamed(childNamed(parseXml(xml), 'testsuite')!, 'properties')!, 'property').map((p) => [p.attributes.name, p.attributes.value]),
      );
    expect(props(renderJunit(run([report('https://a.example/', 90, 'good')], { firstRun })))).toEqual({
      baseline: 'first run of job weekly: nothing compared',
      'baseline.warning': '2 of 2 pages had a report already: if job weekly ran before, its history may have been lost (looked for in /h.db)',
    });
    // An audit with no gate flag: nothing but the empty input failed it, and the test view says so.
    const empty = renderJunit(run([], { empty: { why: 'the sitemap listed no page', failed: true } }));
    expect(props(empty)).toEqual({ input: 'the sitemap listed no page' });
    const [verdict] = childrenNamed(childNamed(parseXml(empty), 'testsuite')!, 'testcase');
    expect(childNamed(verdict!, 'failure')!.attributes.message).toBe(
      'the sitemap listed no page: a gate over nothing proves nothing (--allow-empty lets it pass)',
    );
  });

  it('escapes markup, quotes, controls, bidi overrides and lone surrogates from the service into well-formed XML', () => {
    const hostile = 'https://x.test/a?q=<script>&"\'\u0000\u001b[31m\u202e\ud800]]>';
    const xml = renderJunit(
      run([
        {
          kind: 'report',
          url: hostile,
          record: { url: hostile, project: 'p<&>"\n', result: 'bad\u0007', score: '12' },
          gateFailures: ['result bad (--fail-on bad)'],
        },
        { kind: 'error', url: 'https://y.test/', message: 'refused: <html> & "quotes"\nsecond line', exitCode: 5 },
      ]),
    );
    const suite = childNamed(parseXml(xml), 'testsuite')!;
    const [first, second] = childrenNamed(suite, 'testcase');
    // Named by the report's identity (the URL as the service stores it, encoded where a URL must be).
    expect(first!.attributes.name).toBe(reportIdentity(hostile));
    expect(first!.attributes.classname).toBe('p<&>"\n');
    expect(childNamed(first!, 'system-out')!.text).toContain('result: bad\\x07\nscore: 12');
    expect(childNamed(second!, 'error')!.attributes).toEqual({ message: 'refused: <html> & "quotes"\nsecond line', type: 'exit 5' });
    expect(suite.attributes).toMatchObject({ tests: '2', failures: '1', errors: '1', skipped: '0', time: '1.500', timestamp: '2026-11-20T09:00:00' });
  });

  it('counts skipped cases and names the share', () => {
    const xml = renderJunit(
      run([report('https://a.test/', 90, 'good'), { kind: 'skipped', url: 'https://b.test/', reason: 'created by an earlier run (journal j)' }], {
        command: 'reports create',
        share: { index: 2, count: 3, urls: 2, of: 7 },
      }),
    );
    const suite = childNamed(parseXml(xml), 'testsuite')!;
    expect(suite.attributes).toMatchObject({ name: 'rsapi reports create (share 2 of 3)', tests: '2', skipped: '1', failures: '0' });
    const properties = childrenNamed(childNamed(suite, 'properties')!, 'property').map((p) => [p.attributes.name, p.attributes.value]);
    expect(properties).toEqual([
      ['shard', '2/3'],
      ['shard.urls', '2 of 7'],
    ]);
  });
});

describe('compareWithBaseline', () => {
  const before = [
    { url: 'https://a.test/', score: 80, result: 'good' },
    { url: 'https://b.test/', score: 80, result: 'good' },
    { url: 'https://c.test/', score: 60, result: 'decent' },
    { url: 'https://gone.test/', score: 10, result: 'bad' },
  ];

  it.each([
    [5, 75, false],
    [5, 74, true],
    [0, 80, false],
    [0, 79.5, true],
  ])('--max-drop %d, score 80 -> %d: regressed %s', (maxDrop, score, regressed) => {
    const comparison = compareWithBaseline(baselineOf(before), [{ url: 'https://a.test', score, result: 'good' }], { maxDrop });
    expect(comparison.failed).toBe(regressed);
    expect(comparison.regressions.map((r) => r.url)).toEqual(regressed ? ['https://a.test'] : []);
  });

  it('a worse result regresses at any drop; new and vanished URLs are listed; the worst comes first; other shards are not vanished', () => {
    const comparison = compareWithBaseline(
      baselineOf(before),
      [
        { url: 'https://a.test/', score: 79, result: 'decent' },
        { url: 'HTTPS://B.TEST:443/', score: 40, result: 'decent' },
        { url: 'https://c.test/', score: 70, result: 'decent' },
        { url: 'https://new.test/', score: 1, result: 'bad' },
      ],
      { maxDrop: 10, inScope: (url) => !url.includes('gone') },
    );
    expect(comparison.regressions.map((r) => r.url)).toEqual(['HTTPS://B.TEST:443/', 'https://a.test/']);
    expect(comparison).toMatchObject({ compared: 3, newUrls: ['https://new.test/'], vanished: [], failed: true });
  });

  it('compares the newest report of a URL when a list holds several', () => {
    const comparison = compareWithBaseline(
      baselineOf(before),
      [
        { id: 7, url: 'https://c.test/', score: 10, result: 'bad', generated_at: '2026-11-01T00:00:00Z' },
        { id: 9, url: 'https://c.test/', score: 65, result: 'decent', generated_at: '2026-11-02T00:00:00Z' },
      ],
      { maxDrop: 0 },
    );
    expect(comparison.failed).toBe(false);
    expect(comparison.vanished).toEqual(['https://a.test/', 'https://b.test/', 'https://gone.test/']);
  });
});

describe('renderSummary', () => {
  it('counts, lowest scores, regressions, new and vanished URLs and the verdict, with service text escaped', () => {
    const cases: CiRun['cases'] = [
      report('https://a.test/', 50, 'decent'),
      report('https://b.test/x|y', 20, 'bad'),
      report('https://c.test/`code`', 95, 'good'),
      report('https://d.test/[link](http://evil)', undefined, undefined),
      { kind: 'error', url: 'https://e.test/<img src=x>', message: 'the service rejected the request: *bold* | pipe', exitCode: 5 },
    ];
    const comparison = compareWithBaseline(
      baselineOf([
        { url: 'https://a.test/', score: 70, result: 'good' },
        { url: 'https://old.test/', score: 70, result: 'good' },
      ]),
      cases.flatMap((c) => (c.kind === 'report' ? [c.record] : [])),
      { maxDrop: 5 },
    );
    const markdown = renderSummary(
      run(cases, {
        command: 'reports create',
        share: { index: 1, count: 2, urls: 5, of: 9 },
        gate: { active: true, failed: true, verdict: 'gate failed: 1 of 4 reports score below 30 (--min-score 30)' },
        baseline: comparison,
      }),
      10,
    );
    expect(markdown).toBe(
      [
        '### rsapi reports create',
        '',
        'Share 1 of 2: 5 of 9 URLs.',
        '',
        '| result | reports |',
        '| --- | ---: |',
        '| good | 1 |',
        '| decent | 1 |',
        '| bad | 1 |',
        '| no known result | 1 |',
        '| failed | 1 |',
        '',
        '**Not audited: 1**',
        '',
        '| URL | error |',
        '| --- | --- |',
        '| https://e.test/&lt;img src=x&gt; | the service rejected the request: \\*bold\\* \\| pipe (exit 5) |',
        '',
        '**Lowest scores**',
        '',
        '| score | result | URL |',
        '| ---: | --- | --- |',
        '| 20 | bad | https://b.test/x\\|y |',
        '| 50 | decent | https://a.test/ |',
        '| 95 | good | https://c.test/\\`code\\` |',
        '',
        '**Against the baseline** base.json (--max-drop 5): 1 of 1 report regressed.',
        '',
        '| URL | before | now | change |',
        '| --- | --- | --- | --- |',
        '| https://a.test/ | 70 good | 50 decent | score 70 → 50 (-20), result good → decent |',
        '',
        '- New since the baseline (3): https://b.test/x\\|y, https://c.test/\\`code\\`, https://d.test/\\[link\\](http://evil)',
        '- Vanished since the baseline (1): https://old.test/',
        '',
        '**Verdict: failed** (exit 10).',
        '',
        '- gate failed: 1 of 4 reports score below 30 (--min-score 30)',
        '- baseline failed: 1 regressed (--max-drop 5); worst: https://a.test/ score 70 → 50 (-20), result good → decent',
        '- 1 URL failed',
        '',
        '',
      ].join('\n'),
    );
  });

  it('an interrupted run counts its URLs by what happened: refreshes interrupted under way and URLs not started, never "could not be created"', () => {
    const interrupted = (url: string) => ({ kind: 'error' as const, url, message: 'interrupted', exitCode: 130 });
    const notStarted = (url: string) => ({ kind: 'skipped' as const, url, reason: 'not started: interrupted' });
    const markdown = renderSummary(
      run([report('https://a.test/', 90, 'good'), interrupted('https://b.test/'), interrupted('https://c.test/'), notStarted('https://d.test/')]),
      130,
    );
    expect(markdown).toContain('| interrupted under way | 2 |\n| not started | 1 |\n');
    expect(markdown).not.toContain('skipped');
    expect(markdown).toContain('**Verdict: failed** (exit 130).\n\n- 2 URLs interrupted under way, 1 not started (interrupted)\n');
    expect(markdown).not.toContain('created');
  });

  it('without any gate the verdict says so', () => {
    expect(renderSummary(run([report('https://a.test/', 90, 'good')]), 0)).toContain(
      '**Verdict: passed.**\n\n- no gate set (--fail-on, --min-score, --baseline with --max-drop)\n',
    );
  });
});

/** The same report as phpRank sends it: the score as `result`, no `score` (a report with no score has no result). */
function asPhpRank(record: ApiRecord): ApiRecord {
  const { score, result: _label, ...rest } = record;
  return score === undefined ? rest : { ...rest, result: score };
}

function phpRankCase(c: CiRun['cases'][number]): CiRun['cases'][number] {
  return c.kind === 'report' ? { ...c, record: asPhpRank(c.record) } : c;
}

describe('phpRank reports (numeric result, no score) in JUnit, the summary and the baseline', () => {
  const seedCases: CiRun['cases'] = [report('https://a.test/', 79, 'decent'), report('https://b.test/', 20, 'bad'), report('https://c.test/', 95, 'good')];
  const seedBaseline = [
    { url: 'https://a.test/', score: 90, result: 'good' },
    { url: 'https://b.test/', score: 20, result: 'bad' },
    { url: 'https://gone.test/', score: 60, result: 'decent' },
  ];
  const gate = { active: true, failed: true, verdict: 'gate failed: 1 of 3 reports is bad (--fail-on bad)' };

  function rendered(cases: CiRun['cases'], baseline: ApiRecord[]) {
    const comparison = compareWithBaseline(
      baselineOf(baseline),
      cases.flatMap((c) => (c.kind === 'report' ? [c.record] : [])),
      { maxDrop: 5 },
    );
    for (const c of cases) if (c.kind === 'report') c.regression = comparison.regressions.find((r) => r.now.record === c.record);
    const ciRun = run(cases, { gate, baseline: comparison });
    return { junit: renderJunit(ciRun), summary: renderSummary(ciRun, 10), comparison };
  }

  it('give the same JUnit and summary as the seed dialect', () => {
    const seed = rendered(seedCases, seedBaseline);
    const phprank = rendered(seedCases.map(phpRankCase), seedBaseline.map(asPhpRank));
    expect(phprank.summary).toBe(seed.summary);
    expect(phprank.junit).toBe(seed.junit);
    expect(phprank.summary).toContain('| 79 | decent | https://a.test/ |');
    expect(phprank.summary).toContain('| https://a.test/ | 90 good | 79 decent | score 90 → 79 (-11), result good → decent |');
    expect(phprank.junit).toContain('result: decent\nscore: 79\n');
  });

  it.each([
    ['a phpRank baseline against a seed run', seedBaseline.map(asPhpRank), seedCases],
    ['a seed baseline against a phpRank run', seedBaseline, seedCases.map(phpRankCase)],
  ])('%s compares by label and score', (_name, baseline, cases) => {
    const { comparison } = rendered(cases, baseline);
    expect(comparison.regressions.map((r) => [r.url, r.before.result, r.now.result, r.drop])).toEqual([['https://a.test/', 'good', 'decent', 11]]);
    expect(comparison).toMatchObject({ compared: 2, newUrls: ['https://c.test/'], vanished: ['https://gone.test/'], failed: true });
  });
});

describe('baselineReport (stderr)', () => {
  const url = (kind: string, i: number) => `https://${kind}.test/${String(i).padStart(2, '0')}`;
  const range = (n: number) => Array.from({ length: n }, (_, i) => i);

  it('names every regressed, new and vanished URL up to 20 of a kind, worst first, then how many more', () => {
    const before = [...range(25).map((i) => ({ url: url('r', i), score: 90, result: 'good' })), ...range(21).map((i) => ({ url: url('gone', i), score: 50 }))];
    const now = [...range(25).map((i) => ({ url: url('r', i), score: 89 - i, result: 'good' })), ...range(23).map((i) => ({ url: url('new', i), score: 1 }))];
    const lines = baselineReport(compareWithBaseline(baselineOf(before), now, { maxDrop: 0 }));
    expect(lines[0]).toBe(
      'rsapi: baseline failed: 25 of 25 reports fell by more than 0 points or got a worse result (--max-drop 0); besides: 23 new pages, 21 vanished',
    );
    const regressed = lines.filter((line) => line.startsWith('rsapi:   regressed: '));
    expect(regressed).toHaveLength(20);
    expect(regressed[0]).toBe(`rsapi:   regressed: ${url('r', 24)} score 90 → 65 (-25)`);
    expect(regressed[19]).toBe(`rsapi:   regressed: ${url('r', 5)} score 90 → 84 (-6)`);
    expect(lines.filter((line) => line.startsWith('rsapi:   new: '))).toEqual(range(20).map((i) => `rsapi:   new: ${url('new', i)}`));
    expect(lines.filter((line) => line.startsWith('rsapi:   vanished: '))).toHaveLength(20);
    expect(lines).toContain('rsapi:   … and 5 more regressed');
    expect(lines).toContain('rsapi:   … and 3 more new');
    expect(lines).toContain('rsapi:   … and 1 more vanished');
    expect(lines).toHaveLength(1 + 21 + 21 + 21);
  });

  it('is the verdict alone when nothing regressed, came or went', () => {
    const records = [{ url: 'https://a.test/', score: 90, result: 'good' }];
    expect(baselineReport(compareWithBaseline(baselineOf(records), records))).toEqual([
      'rsapi: baseline: 0 of 1 report scored lower or got a worse result than in base.json (not a gate without --max-drop)',
    ]);
  });
});
