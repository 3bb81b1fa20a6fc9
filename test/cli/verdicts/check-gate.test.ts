// Per-check results: reports show lists the failed checks in words, stats --checks counts them, the check gates judge them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from '../../helpers/csv.js';
import { phprankReport, seedReport, startReportServer } from '../../helpers/phprank-checks.js';
import { startMock } from '../../helpers/mock.js';
import { runInProcess } from '../../helpers/run.js';
import { displayWidth } from '../../../src/output/table/width.js';

type Server = Awaited<ReturnType<typeof startReportServer>>;

const BAD = phprankReport(1, 'example.com', ['meta_description', 'title', 'load_time', 'image_keywords', 'favicon', 'http2']);
const RECORDS = [
  BAD,
  phprankReport(2, 'example.com/about', ['meta_description', 'favicon']),
  phprankReport(3, 'example.com/blog', ['favicon', 'http2', 'social']),
  phprankReport(4, 'other.org', []),
  phprankReport(5, 'other.org/news', ['load_time']),
];

let phprank: Server;
let seed: Server;

beforeAll(async () => {
  phprank = await startReportServer(RECORDS, (url) => phprankReport(100, url.replace(/^https?:\/\//, ''), url.includes('slow') ? ['load_time'] : ['favicon']));
  seed = await startReportServer([seedReport(1, 'example.com'), seedReport(2, 'example.com/about')], (url) => seedReport(100, url));
});
afterAll(async () => {
  await phprank.close();
  await seed.close();
});

const onPhprank = (argv: string[], options: { tty?: boolean; columns?: number } = {}) => runInProcess({ argv, env: phprank.env, ...options });

describe('reports show with per-check results', () => {
  for (const columns of [80, 40]) {
    it(`on a terminal of ${columns} columns: the fields, then "checks: N of 36 passed" and each failed check in words, no line wider`, async () => {
      const { code, stdout, stderr } = await onPhprank(['reports', 'show', '1', '--no-color'], { tty: true, columns });
      expect(code, stderr).toBe(0);
      const lines = stdout.trimEnd().split('\n');
      for (const line of lines) expect(displayWidth(line), line).toBeLessThanOrEqual(columns);
      expect(lines.some((line) => line.startsWith('results'))).toBe(false);
      expect(stdout).toMatch(/^url +example\.com$/m);
      expect(stdout).toContain('checks: 30 of 36 passed');
      // High importance first; names in words; the value and what was wrong, wrapped but never cut.
      const failed = stdout.slice(stdout.indexOf('failed:'));
      const order = ['Load time', 'Meta description', 'Title', 'HTTP/2', 'Image keywords (alt text)', 'Favicon'].map((name) => failed.indexOf(name));
      expect(order.every((at) => at >= 0)).toBe(true);
      expect([...order].sort((a, b) => a - b)).toEqual(order);
      const words = failed.replace(/\s+/g, ' ');
      expect(words).toContain('Title: Welcome to the very long and repetitive home page title of our company website — too long (max 60)');
      expect(words).toContain('Load time 6.2 s — too slow, over 2 s');
      expect(words).toContain('missing: hero.jpg, logo.png, team.jpg, a.png, b.png and 2 more');
      expect(stdout).not.toContain('…');
    });
  }

  it('csv and tsv get the failed check ids in one failed_checks field; json is the record as sent', async () => {
    const csv = parseCsv((await onPhprank(['reports', 'show', '1', '-o', 'csv'])).stdout);
    expect(csv[0]).toContain('failed_checks');
    expect(csv[0]).not.toContain('results');
    const at = csv[0]!.indexOf('failed_checks');
    expect(csv[1]![at]!.split(',')).toEqual(['load_time', 'meta_description', 'title', 'http2', 'image_keywords', 'favicon']);
    const tsv = (await onPhprank(['reports', 'show', '1', '-o', 'tsv'])).stdout.trimEnd().split('\t');
    expect(tsv.at(-1)).toBe('load_time,meta_description,title,http2,image_keywords,favicon');
    const json = JSON.parse((await onPhprank(['reports', 'show', '1', '-o', 'json'])).stdout);
    expect(json).toEqual(BAD);
  });

  it('create of one URL prints its report as show does: the checks in words, no raw results row', async () => {
    const { code, stdout } = await onPhprank(['reports', 'create', 'https://slow.test/', '--no-color'], { tty: true, columns: 80 });
    expect(code).toBe(0);
    expect(stdout).not.toMatch(/^results/m);
    expect(stdout).toContain('checks: 35 of 36 passed');
    expect(stdout).toMatch(/^ {2}high {4}Load time 6\.2 s — too slow, over 2 s$/m);
  });

  it('escapes what the service wrote in a check before it reaches the terminal', async () => {
    const hostile = phprankReport(9, 'evil.test', []);
    (hostile.results as Record<string, unknown>).title = {
      passed: false,
      importance: 'high',
      value: '\u001b]0;pwned\u0007x',
      errors: { 'too\u001b[2J': null },
    };
    const server = await startReportServer([hostile]);
    try {
      const { code, stdout } = await runInProcess({ argv: ['reports', 'show', '9'], env: server.env, tty: true, columns: 80 });
      expect(code).toBe(0);
      expect(stdout).not.toContain('\u001b]');
      expect(stdout).not.toContain('\u001b[2J');
      expect(stdout).toContain('\\x1b]0;pwned\\x07x');
    } finally {
      await server.close();
    }
  });
});

describe('reports list with per-check results: failed_checks as show gives it in a pipe', () => {
  const FAILED = ['load_time,meta_description,title,http2,image_keywords,favicon', 'meta_description,favicon', 'http2,favicon,social', '', 'load_time'];

  it('csv and tsv (the pipe default) end each row with the failed check ids, most important first', async () => {
    const csv = parseCsv((await onPhprank(['reports', 'list', '--all', '-o', 'csv'])).stdout);
    expect(csv[0]).toEqual(['id', 'url', 'project', 'result', 'score', 'privacy', 'generated_at', 'failed_checks']);
    expect(csv.slice(1).map((row) => row.at(-1))).toEqual(FAILED);
    for (const argv of [['-o', 'tsv'], []]) {
      const rows = (await onPhprank(['reports', 'list', '--all', ...argv])).stdout.trimEnd().split('\n');
      expect(rows.map((row) => row.split('\t').at(-1))).toEqual(FAILED);
      expect(rows[0]!.split('\t')).toHaveLength(8);
    }
  });

  it('--fields failed_checks selects it in csv, tsv and a table, without a warning; the show of a record agrees', async () => {
    const csv = await onPhprank(['reports', 'list', '--all', '--fields', 'id,failed_checks', '-o', 'csv']);
    expect(csv.stderr).toBe('');
    expect(parseCsv(csv.stdout)).toEqual([['id', 'failed_checks'], ...RECORDS.map((record, at) => [String(record.id), FAILED[at]])]);
    const tsv = (await onPhprank(['reports', 'list', '--fields', 'failed_checks', '-o', 'tsv'])).stdout;
    expect(tsv).toBe(`${FAILED.join('\n')}\n`);
    const shown = (await onPhprank(['reports', 'show', '3', '--fields', 'failed_checks', '-o', 'tsv'])).stdout;
    expect(shown).toBe(`${FAILED[2]}\n`);
    const table = await onPhprank(['reports', 'list', '--fields', 'id,failed_checks', '--no-color'], { tty: true, columns: 120 });
    expect(table.stdout).toMatch(/^│? *1 *│? *load_time,meta_description,title,http2,image_keywords,favicon *│?$/m);
  });

  it('a table keeps its columns, and json and ndjson are the records as sent (no failed_checks)', async () => {
    const table = await onPhprank(['reports', 'list', '--no-color'], { tty: true, columns: 200 });
    expect(table.stdout).not.toContain('failed_checks');
    expect(JSON.parse((await onPhprank(['reports', 'list', '--all', '-o', 'json'])).stdout)).toEqual(RECORDS);
    const ndjson = (await onPhprank(['reports', 'list', '--all', '-o', 'ndjson'])).stdout.trimEnd().split('\n');
    expect(ndjson.map((line) => JSON.parse(line))).toEqual(RECORDS);
  });

  it('a bulk create writes failed_checks in csv as list does', async () => {
    const { code, stdout } = await onPhprank(['reports', 'create', 'https://a.test/', 'https://slow.test/', '-o', 'csv']);
    expect(code).toBe(0);
    const csv = parseCsv(stdout);
    expect(csv[0]!.at(-1)).toBe('failed_checks');
    expect(
      csv
        .slice(1)
        .map((row) => row.at(-1))
        .sort(),
    ).toEqual(['favicon', 'load_time']);
  });

  it('reports of the seed dialect get no failed_checks column', async () => {
    const csv = parseCsv((await runInProcess({ argv: ['reports', 'list', '-o', 'csv'], env: seed.env })).stdout);
    expect(csv[0]).toEqual(['id', 'url', 'project', 'result', 'score', 'privacy', 'generated_at']);
  });
});

/** The failing count of each check, made the plain way from `reports list --all -o json`. */
async function failuresFromJson(filter: (record: Record<string, unknown>) => boolean = () => true): Promise<Map<string, number>> {
  const { stdout } = await onPhprank(['reports', 'list', '--all', '-o', 'json']);
  const counts = new Map<string, number>();
  for (const record of (JSON.parse(stdout) as Record<string, unknown>[]).filter(filter)) {
    for (const [id, check] of Object.entries(record.results as Record<string, { passed: boolean }>))
      counts.set(id, (counts.get(id) ?? 0) + (check.passed ? 0 : 1));
  }
  return counts;
}

describe('reports stats --checks', () => {
  it('counts per check equal a count made from -o json, in json, ndjson, csv and tsv alike', async () => {
    const want = await failuresFromJson();
    const json = JSON.parse((await onPhprank(['reports', 'stats', '--checks', '-o', 'json'])).stdout);
    expect(json.reports).toBe(5);
    expect(json.with_checks).toBe(5);
    expect(json.checks).toHaveLength(36);
    expect(new Map(json.checks.map((c: { check: string; failed: number }) => [c.check, c.failed]))).toEqual(want);
    const meta = json.checks.find((c: { check: string }) => c.check === 'meta_description');
    expect(meta).toEqual({ check: 'meta_description', name: 'Meta description', importance: 'high', reports: 5, failed: 2, share: 0.4 });
    const ndjson = (await onPhprank(['reports', 'stats', '--checks', '-o', 'ndjson'])).stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(ndjson).toEqual(json.checks);
    const csv = parseCsv((await onPhprank(['reports', 'stats', '--checks', '-o', 'csv'])).stdout);
    expect(csv[0]).toEqual(['check', 'name', 'importance', 'reports', 'failed', 'share']);
    expect(new Map(csv.slice(1).map((row) => [row[0], Number(row[4])]))).toEqual(want);
    const tsv = (await onPhprank(['reports', 'stats', '--checks', '-o', 'tsv'])).stdout
      .trim()
      .split('\n')
      .map((line) => line.split('\t'));
    expect(tsv).toEqual(csv.slice(1));
  });

  it('orders by importance, then by how many reports fail the check', async () => {
    const json = JSON.parse((await onPhprank(['reports', 'stats', '--checks', '-o', 'json'])).stdout);
    const rank = { high: 0, medium: 1, low: 2 } as Record<string, number>;
    const keys = json.checks.map((c: { importance: string; failed: number }) => [rank[c.importance], -c.failed]);
    const sorted = [...keys].sort((a: number[], b: number[]) => a[0]! - b[0]! || a[1]! - b[1]!);
    expect(keys).toEqual(sorted);
    expect(json.checks.slice(0, 2).map((c: { check: string }) => c.check)).toEqual(['load_time', 'meta_description']);
  });

  it('--by project and the filters of reports list count each project apart', async () => {
    const byProject = JSON.parse((await onPhprank(['reports', 'stats', '--checks', '--by', 'project', '-o', 'json'])).stdout);
    expect(byProject.map((p: { project: string; reports: number }) => [p.project, p.reports])).toEqual([
      ['example.com', 3],
      ['other.org', 2],
    ]);
    const want = await failuresFromJson((record) => record.project === 'other.org');
    const filtered = JSON.parse((await onPhprank(['reports', 'stats', '--checks', '--project', 'other.org', '-o', 'json'])).stdout);
    expect(new Map(filtered.checks.map((c: { check: string; failed: number }) => [c.check, c.failed]))).toEqual(want);
    expect(byProject[1].checks).toEqual(filtered.checks);
  });

  for (const columns of [80, 40]) {
    it(`on a terminal of ${columns} columns: the failing checks under their importance with a share and a bar that fit`, async () => {
      const { code, stdout } = await onPhprank(['reports', 'stats', '--checks', '--no-color'], { tty: true, columns });
      expect(code).toBe(0);
      const lines = stdout.trimEnd().split('\n');
      for (const line of lines) expect(displayWidth(line), line).toBeLessThanOrEqual(columns);
      const heading = lines.indexOf('high importance');
      expect(lines.slice(0, heading).join(' ')).toBe('5 reports with per-check results; how many fail each check:');
      expect(lines[heading + 1]).toMatch(/^ {2}Load time +2 +40%/);
      expect(stdout).toContain('29 other checks passed on every report');
      if (columns === 80) expect(lines[heading + 1]).toMatch(/40% {2}█{16}$/);
      else expect(lines[heading + 1]).toMatch(/40%$/);
    });
  }
});

describe('check gates', () => {
  const cases: { name: string; argv: string[]; code: number; verdict: RegExp }[] = [
    {
      name: 'list --fail-on-check passes when no report fails the check',
      argv: ['reports', 'list', '--fail-on-check', 'https_encryption,noindex'],
      code: 0,
      verdict: /gate passed: 0 of 5 reports fail a listed check \(--fail-on-check https_encryption,noindex\)/,
    },
    {
      name: 'list --fail-on-check fails when one does',
      argv: ['reports', 'list', '--fail-on-check', 'meta_description'],
      code: 10,
      verdict: /gate failed: 2 of 5 reports fail the check meta_description \(--fail-on-check meta_description\)/,
    },
    {
      name: 'list --fail-on-importance high fails on a high check',
      argv: ['reports', 'list', '--fail-on-importance', 'high'],
      code: 10,
      verdict: /gate failed: 3 of 5 reports fail a check of high importance/,
    },
    {
      name: 'list --project --fail-on-importance medium takes medium and high',
      argv: ['reports', 'list', '--project', 'other.org', '--fail-on-importance', 'medium'],
      code: 10,
      verdict: /1 of 2 reports fails a check of medium importance or higher/,
    },
    {
      name: 'show --fail-on-check passes',
      argv: ['reports', 'show', '4', '--fail-on-check', 'favicon'],
      code: 0,
      verdict: /gate passed: 0 of 1 report fail the check favicon/,
    },
    {
      name: 'show --fail-on-importance high fails',
      argv: ['reports', 'show', '1', '--fail-on-importance', 'high'],
      code: 10,
      verdict: /gate failed: 1 of 1 report fails a check of high importance/,
    },
    {
      name: 'create --fail-on-check passes',
      argv: ['reports', 'create', 'https://fast.test/', '--fail-on-check', 'load_time'],
      code: 0,
      verdict: /gate passed: 0 of 1 report fail the check load_time/,
    },
    {
      name: 'create --fail-on-check fails',
      argv: ['reports', 'create', 'https://slow.test/', 'https://fast.test/', '--fail-on-check', 'load_time'],
      code: 10,
      verdict: /gate failed: 1 of 2 reports fails the check load_time/,
    },
  ];
  // Items need the list to be judged whole: the test server pages by 10, the gate reads every page.
  for (const { name, argv, code, verdict } of cases) {
    it(name, async () => {
      const result = await onPhprank([...argv, '-o', 'json']);
      expect(result.code, result.stderr).toBe(code);
      expect(result.stderr).toMatch(verdict);
    });
  }

  it('judges every page of a list, not the first', async () => {
    const many = Array.from({ length: 23 }, (_, i) => phprankReport(i + 1, `many.test/${i}`, i === 22 ? ['noindex'] : []));
    const server = await startReportServer(many);
    try {
      const { code, stderr } = await runInProcess({ argv: ['reports', 'list', '--fail-on-check', 'noindex', '-o', 'json'], env: server.env });
      expect(code).toBe(10);
      expect(stderr).toContain('1 of 23 reports fails the check noindex');
    } finally {
      await server.close();
    }
  });

  it('an unknown check id is a usage error before any request, with the near miss', async () => {
    const before = phprank.requests.length;
    const { code, stderr } = await onPhprank(['reports', 'list', '--fail-on-check', 'meta_descripton']);
    expect(code).toBe(2);
    expect(stderr).toContain('unknown check id "meta_descripton"; did you mean "meta_description"?');
    expect(phprank.requests.length).toBe(before);
    const far = await onPhprank(['reports', 'show', '1', '--fail-on-check', 'title,speed']);
    expect(far.code).toBe(2);
    expect(far.stderr).toContain('unknown check id "speed"');
    expect((await onPhprank(['reports', 'list', '--fail-on-importance', 'low'])).code).toBe(2);
  });
});

describe('a service that sends no per-check results (the seed dialect)', () => {
  const onSeed = (argv: string[]) => runInProcess({ argv, env: seed.env });
  for (const argv of [
    ['reports', 'list', '--fail-on-check', 'title'],
    ['reports', 'show', '1', '--fail-on-importance', 'high'],
    ['reports', 'create', 'https://example.com/', '--fail-on-importance', 'medium', '--fail-on', 'bad'],
  ]) {
    it(`${argv.slice(0, 2).join(' ')} ${argv.slice(-2).join(' ')}: one line saying so, exit 8, never a pass`, async () => {
      const { code, stderr } = await onSeed([...argv, '-o', 'json']);
      expect(code).toBe(8);
      const lines = stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        /^rsapi: gate not judged: the service sent no per-check results \(`results`\) with its reports, so --fail-on-(check|importance) \S+ cannot be judged(; besides: 0 of 1 report are bad \(--fail-on bad\))?$/,
      );
      expect(lines[0]!.includes('besides')).toBe(argv.includes('--fail-on'));
    });
  }

  it('stats --checks: one line, exit 8, nothing on stdout', async () => {
    const { code, stdout, stderr } = await onSeed(['reports', 'stats', '--checks', '-o', 'json']);
    expect(code).toBe(8);
    expect(stdout).toBe('');
    expect(stderr.trim()).toBe('rsapi: the service sent no per-check results (`results`) with its 2 reports; --checks has nothing to count');
  });

  it('show on a terminal prints the fields and no checks section', async () => {
    const { code, stdout } = await runInProcess({ argv: ['reports', 'show', '1'], env: seed.env, tty: true, columns: 80 });
    expect(code).toBe(0);
    expect(stdout).not.toContain('checks:');
  });
});

describe('against the phpRank mock (its checks deterministic per URL)', () => {
  it('reports list -o csv: each failed_checks is the failed ids of the record -o json gives, high importance first', async () => {
    const mock = await startMock({ flavor: 'phprank', seed: 12, rateLimit: 10_000 });
    try {
      const list = JSON.parse((await runInProcess({ argv: ['reports', 'list', '--all', '-o', 'json'], env: mock.env })).stdout) as Record<string, unknown>[];
      const rank = { high: 0, medium: 1, low: 2 } as Record<string, number>;
      const expected = list.map((record) =>
        Object.entries(record.results as Record<string, { passed: boolean; importance: string }>)
          .filter(([, check]) => !check.passed)
          .sort(([a, x], [b, y]) => (rank[x.importance] ?? 3) - (rank[y.importance] ?? 3) || (a < b ? -1 : 1))
          .map(([id]) => id)
          .join(','),
      );
      expect(expected.some((ids) => ids !== '')).toBe(true);
      const csv = parseCsv((await runInProcess({ argv: ['reports', 'list', '--all', '--fields', 'id,failed_checks', '-o', 'csv'], env: mock.env })).stdout);
      expect(csv.slice(1)).toEqual(list.map((record, at) => [String(record.id), expected[at]]));
    } finally {
      await mock.close();
    }
  });

  it('stats --checks counts, overall and per project, equal a count made from reports list -o json', async () => {
    const mock = await startMock({ flavor: 'phprank', seed: 30, rateLimit: 10_000 });
    try {
      const list = JSON.parse((await runInProcess({ argv: ['reports', 'list', '--all', '-o', 'json'], env: mock.env })).stdout) as Record<string, unknown>[];
      expect(list).toHaveLength(30);
      const count = (records: Record<string, unknown>[]) => {
        const counts = new Map<string, number>();
        for (const record of records)
          for (const [id, check] of Object.entries(record.results as Record<string, { passed: boolean }>))
            counts.set(id, (counts.get(id) ?? 0) + (check.passed ? 0 : 1));
        return counts;
      };
      const stats = JSON.parse((await runInProcess({ argv: ['reports', 'stats', '--checks', '-o', 'json'], env: mock.env })).stdout);
      expect(new Map(stats.checks.map((c: { check: string; failed: number }) => [c.check, c.failed]))).toEqual(count(list));
      expect([...count(list).values()].some((n) => n > 0)).toBe(true);
      const byProject = JSON.parse((await runInProcess({ argv: ['reports', 'stats', '--checks', '--by', 'project', '-o', 'json'], env: mock.env })).stdout);
      for (const group of byProject) {
        const mine = list.filter((record) => record.project === group.project);
        expect(group.reports).toBe(mine.length);
        expect(new Map(group.checks.map((c: { check: string; failed: number }) => [c.check, c.failed]))).toEqual(count(mine));
      }
      // A gate on the most failed check fails; one on a check no report fails passes.
      const [most] = stats.checks.filter((c: { failed: number }) => c.failed > 0).sort((a: { failed: number }, b: { failed: number }) => b.failed - a.failed);
      const never = stats.checks.find((c: { failed: number }) => c.failed === 0);
      const failed = await runInProcess({ argv: ['reports', 'list', '--fail-on-check', most.check, '-o', 'json'], env: mock.env });
      expect(failed.code).toBe(10);
      expect(failed.stderr).toContain(`${most.failed} of 30 reports fail`);
      if (never) expect((await runInProcess({ argv: ['reports', 'list', '--fail-on-check', never.check, '-o', 'json'], env: mock.env })).code).toBe(0);
    } finally {
      await mock.close();
    }
  });
});
