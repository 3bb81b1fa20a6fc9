// --junit, --summary, --baseline and --max-drop on reports create|list|show, against the loopback mock; files parsed for real.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scratchMaker } from '../../helpers/scratch.js';
import { runInProcess } from '../../helpers/run.js';
import { mockPerTest, type MockFixture } from '../../helpers/mock.js';
import { childNamed, childrenNamed, parseXml, type XmlElement } from '../../helpers/xml.js';
import { reportIdentity } from '../../../src/api/model/report-url.js';
import { partialPath } from '../../../src/cli/report-files/reporter.js';

const mock = mockPerTest({ seed: 4 });

const scratch = scratchMaker('rsapi-ci-');

interface Report {
  id: number;
  url: string;
  project: string;
  result: string;
  score: number;
}

function ndjson(text: string): Report[] {
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Report);
}

/** A mock whose POST /reports for `failing` answers 503 every time: that URL cannot be created. */
async function mockFailingFor(failing: string): Promise<MockFixture> {
  let fixture: MockFixture | undefined;
  fixture = await mock({
    failRate: 1,
    random: () => {
      const last = fixture?.server.requests.at(-1);
      return last?.method === 'POST' && last.form.url === failing ? 0 : 1;
    },
  });
  return fixture;
}

function testcases(suite: XmlElement): Map<string, XmlElement> {
  return new Map(childrenNamed(suite, 'testcase').map((testcase) => [testcase.attributes.name!, testcase]));
}

describe('--junit', () => {
  it('bulk create: one case per URL, failed on the gate, an error case for the URL not created, result and score in system-out', async () => {
    const failing = 'https://down.example.org/';
    const fixture = await mockFailingFor(failing);
    const dir = scratch();
    const junit = join(dir, 'rsapi.xml');
    const urls = ['https://example.com/', 'https://example.com/pricing', 'https://docs.example.net/a', failing];
    const run = await runInProcess({
      argv: ['reports', 'create', ...urls, '--concurrency', '1', '--retries', '0', '--min-score', '50', '--junit', junit, '-o', 'ndjson'],
      env: fixture.env,
    });
    expect(run.code).toBe(8);
    const created = ndjson(run.stdout);
    expect(created).toHaveLength(3);

    const root = parseXml(readFileSync(junit, 'utf8'));
    expect(root.name).toBe('testsuites');
    const suite = childNamed(root, 'testsuite')!;
    const below = created.filter((report) => report.score < 50).length;
    for (const element of [root, suite]) {
      expect(element.attributes).toMatchObject({ tests: '4', failures: String(below), errors: '1', skipped: '0' });
      expect(Number(element.attributes.time)).toBeGreaterThanOrEqual(0);
    }
    expect(suite.attributes.name).toBe('rsapi reports create');
    const cases = testcases(suite);
    expect([...cases.keys()]).toEqual(urls.map(reportIdentity));
    for (const report of created) {
      const testcase = cases.get(reportIdentity(report.url))!;
      expect(testcase.attributes.classname).toBe(report.project);
      const out = childNamed(testcase, 'system-out')!.text;
      expect(out).toContain(`result: ${report.result}\nscore: ${report.score}\nid: ${report.id}`);
      const failure = childNamed(testcase, 'failure');
      if (report.score < 50) expect(failure?.attributes.message).toBe(`score ${report.score} below 50 (--min-score 50)`);
      else expect(failure).toBeUndefined();
    }
    const error = childNamed(cases.get(reportIdentity(failing))!, 'error')!;
    expect(error.attributes.type).toBe('exit 8');
    expect(error.attributes.message).toMatch(/HTTP 503, POST \/reports/);
    expect(readdirSync(dir)).toEqual(['rsapi.xml']);
  });

  it('reports list and show write one case per report; a second run replaces the file whole', async () => {
    const fixture = await mock();
    const dir = scratch();
    const junit = join(dir, 'list.xml');
    writeFileSync(junit, 'old content that is not XML');
    const list = await runInProcess({ argv: ['reports', 'list', '--per-page', '25', '--fail-on', 'bad', '--junit', junit, '--json'], env: fixture.env });
    const listed = JSON.parse(list.stdout) as Report[];
    expect(list.code).toBe(listed.some((report) => report.result === 'bad') ? 10 : 0);
    const suite = childNamed(parseXml(readFileSync(junit, 'utf8')), 'testsuite')!;
    expect(suite.attributes.name).toBe('rsapi reports list');
    // Named by identity, as the service stores a URL: the same names in both dialects.
    expect(childrenNamed(suite, 'testcase').map((testcase) => testcase.attributes.name)).toEqual(listed.map((report) => reportIdentity(report.url)));
    expect(Number(suite.attributes.failures)).toBe(listed.filter((report) => report.result === 'bad').length);

    const show = await runInProcess({ argv: ['reports', 'show', String(listed[0]!.id), '--junit', junit, '--json'], env: fixture.env });
    expect(show.code).toBe(0);
    const shown = childNamed(parseXml(readFileSync(junit, 'utf8')), 'testsuite')!;
    expect(shown.attributes).toMatchObject({ name: 'rsapi reports show', tests: '1', failures: '0' });
    expect(readdirSync(dir)).toEqual(['list.xml']);
  });

  it('a single URL that cannot be created still leaves a JUnit file with its error case, and fails with its own code', async () => {
    const failing = 'https://down.example.org/';
    const fixture = await mockFailingFor(failing);
    const junit = join(scratch(), 'one.xml');
    const baseline = join(scratch(), 'baseline.json');
    writeFileSync(baseline, JSON.stringify([{ url: failing, score: 50, result: 'decent' }]));
    const run = await runInProcess({ argv: ['reports', 'create', failing, '--retries', '0', '--junit', junit, '--baseline', baseline], env: fixture.env });
    expect(run.code).toBe(8);
    // Not created is said as such, not as vanished from the baseline.
    expect(run.stderr).toContain('rsapi: baseline: 0 of 0 reports scored lower');
    expect(run.stderr).not.toContain('vanished');
    expect(run.stderr).toMatch(/^rsapi: .*HTTP 503/m);
    const suite = childNamed(parseXml(readFileSync(junit, 'utf8')), 'testsuite')!;
    expect(suite.attributes).toMatchObject({ tests: '1', failures: '0', errors: '1' });
    expect(childNamed(testcases(suite).get(reportIdentity(failing))!, 'error')!.attributes.type).toBe('exit 8');
  });

  it('a --junit path in a missing folder is a usage error before any request', async () => {
    const fixture = await mock();
    const run = await runInProcess({ argv: ['reports', 'list', '--junit', join(scratch(), 'no', 'such', 'x.xml')], env: fixture.env });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/cannot write --junit to .*no such file/);
    expect(fixture.server.requests).toHaveLength(0);
  });
});

describe('--baseline and --max-drop', () => {
  /** Creates the URLs once (the mock's scores are a function of the URL) and returns their reports, in the order given. */
  async function scoresOf(fixture: MockFixture, urls: string[]): Promise<Report[]> {
    const run = await runInProcess({ argv: ['reports', 'create', ...urls, '--concurrency', '1', '-o', 'ndjson'], env: fixture.env });
    expect(run.code).toBe(0);
    return ndjson(run.stdout);
  }

  it('fails on a drop above --max-drop and passes on one at it; new and vanished URLs are listed, not failed', async () => {
    const fixture = await mock();
    const dir = scratch();
    const urls = ['https://example.com/', 'https://example.com/a', 'https://example.com/b'];
    const now = await scoresOf(fixture, urls);
    const [first, second, third] = now as [Report, Report, Report];
    const baseline = join(dir, 'baseline.ndjson');
    const write = (firstBefore: number) =>
      writeFileSync(
        baseline,
        [
          // Written in another form of the same URL: compared after normalisation.
          { url: 'HTTPS://Example.COM', score: firstBefore, result: first.result },
          { url: second.url, score: second.score, result: second.result },
          { url: 'https://example.com/gone', score: 99, result: 'good' },
        ]
          .map((record) => JSON.stringify(record))
          .join('\n'),
      );
    const args = ['reports', 'create', ...urls, '--baseline', baseline, '--max-drop', '5', '-o', 'ndjson'];

    write(first.score + 5);
    const atThreshold = await runInProcess({ argv: args, env: fixture.env });
    expect(atThreshold.code).toBe(0);
    expect(atThreshold.stderr).toContain(
      `rsapi: baseline passed: 0 of 2 reports fell by more than 5 points or got a worse result (--max-drop 5); besides: 1 new page, 1 vanished`,
    );

    write(first.score + 6);
    const beyond = await runInProcess({ argv: args, env: fixture.env });
    expect(beyond.code).toBe(10);
    expect(beyond.stderr).toContain(
      [
        `rsapi: baseline failed: 1 of 2 reports fell by more than 5 points or got a worse result (--max-drop 5); besides: 1 new page, 1 vanished`,
        `rsapi:   regressed: ${first.url} score ${first.score + 6} → ${first.score} (-6)`,
        `rsapi:   new: ${third.url}`,
        `rsapi:   vanished: https://example.com/gone`,
        '',
      ].join('\n'),
    );
    expect(third.url).toBe('https://example.com/b');
  });

  it('a worse result fails even without a score drop, and every regression is named', async () => {
    const fixture = await mock();
    const dir = scratch();
    const urls = ['https://example.com/x', 'https://example.com/y'];
    const now = await scoresOf(fixture, urls);
    const better = (result: string) => (result === 'bad' ? 'decent' : 'good');
    const baseline = join(dir, 'baseline.json');
    const [x, y] = now as [Report, Report];
    writeFileSync(
      baseline,
      JSON.stringify([
        { url: x.url, score: x.score, result: x.result === 'good' ? 'good' : better(x.result) },
        { url: y.url, score: y.score + 30, result: y.result },
      ]),
    );
    const run = await runInProcess({ argv: ['reports', 'create', ...urls, '--baseline', baseline, '--max-drop', '10', '-o', 'ndjson'], env: fixture.env });
    expect(run.code).toBe(10);
    expect(run.stderr).toContain(`rsapi:   regressed: ${y.url} score ${y.score + 30} → ${y.score} (-30)\n`);
    const regressed = x.result === 'good' ? 1 : 2;
    if (regressed === 2) expect(run.stderr).toContain(`rsapi:   regressed: ${x.url} result ${better(x.result)} → ${x.result}\n`);
    expect(run.stderr).toContain(`baseline failed: ${regressed} of 2 reports`);
  });

  it.each([
    ['missing', undefined, /cannot read the baseline file .*: no such file/],
    ['empty', '', /the baseline file .* is empty/],
    ['not json', 'id,url\n1,https://example.com/\n', /neither json nor ndjson: line 1 is not JSON/],
    ['no urls', '[{"id": 1}]', /holds no report with a url/],
  ])('a %s baseline is exit 2 before any request', async (_name, content, message) => {
    const fixture = await mock();
    const path = join(scratch(), 'baseline.json');
    if (content !== undefined) writeFileSync(path, content);
    const run = await runInProcess({ argv: ['reports', 'create', 'https://example.com/', '--baseline', path, '--max-drop', '3'], env: fixture.env });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(fixture.server.requests).toHaveLength(0);
  });

  it('--max-drop without --baseline is a usage error', async () => {
    const fixture = await mock();
    const run = await runInProcess({ argv: ['reports', 'list', '--max-drop', '3'], env: fixture.env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--max-drop needs --baseline FILE');
    expect(fixture.server.requests).toHaveLength(0);
  });
});

describe('--summary', () => {
  it('appends one Markdown section per run to the file', async () => {
    const fixture = await mock();
    const summary = join(scratch(), 'step-summary.md');
    writeFileSync(summary, '# earlier step\n\n');
    for (const url of ['https://example.com/s1', 'https://example.com/s2']) {
      const run = await runInProcess({ argv: ['reports', 'create', url, '--summary', summary, '-o', 'ndjson'], env: fixture.env });
      expect(run.code).toBe(0);
    }
    const text = readFileSync(summary, 'utf8');
    expect(text.startsWith('# earlier step\n\n### rsapi reports create\n')).toBe(true);
    expect(text.match(/^### rsapi reports create$/gm)).toHaveLength(2);
    expect(text).toContain('| https://example.com/s2 |');
    expect(existsSync(summary)).toBe(true);
  });
});

describe('partialPath', () => {
  it("puts .partial before a file's extension, or after a name without one, in the same folder", () => {
    expect(partialPath('out/audit.html')).toBe(join('out', 'audit.partial.html'));
    expect(partialPath('rsapi-junit.xml')).toBe('rsapi-junit.partial.xml');
    expect(partialPath('/ci/junit')).toBe('/ci/junit.partial');
    expect(partialPath('.hidden')).toBe('.hidden.partial');
  });
});
