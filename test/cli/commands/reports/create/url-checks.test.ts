// Report URLs are checked as strictly as a service would before anything is sent, and compared in one normalised form.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normaliseReportUrl, reportUrlProblem } from '../../../../../src/api/model/report-url.js';
import { tempDir } from '../../../../helpers/cli.js';
import { runInProcess } from '../../../../helpers/run.js';
import { startMock, type MockFixture } from '../../../../helpers/mock.js';

const BAD = [
  'http:example.com',
  'http:/x.example',
  'https:\\\\x.example\\a',
  'https://example.com/a b',
  'https://example.com/\ta',
  'ftp://example.com/',
  'example.com',
  'https:///nohost',
];

describe('reportUrlProblem', () => {
  it.each(BAD)('refuses %j', (value) => {
    expect(reportUrlProblem(value)).toBeDefined();
  });

  it.each(['https://example.com', 'http://localhost:8080/a?b=c#d', 'https://bücher.example/straße', 'HTTPS://Example.COM/Path'])('accepts %j', (value) => {
    expect(reportUrlProblem(value)).toBeUndefined();
  });

  it('normalises scheme, host, default port and empty path; keeps the path as written', () => {
    expect(normaliseReportUrl('HTTPS://Example.com')).toBe('https://example.com/');
    expect(normaliseReportUrl('https://example.com:443/A')).toBe('https://example.com/A');
    expect(normaliseReportUrl('https://example.com/a/')).not.toBe(normaliseReportUrl('https://example.com/a'));
  });
});

describe('reports create refuses bad URLs before any request', () => {
  let mock: MockFixture;
  const dir = tempDir('rsapi-urls-');
  beforeAll(async () => {
    mock = await startMock({ seed: 0 });
  });
  afterAll(async () => {
    await mock.close();
    dir.cleanup();
  });

  it('one bad line among good ones: exit 2, every bad line named with its reason, nothing sent', async () => {
    const file = join(dir.path, 'urls.txt');
    writeFileSync(file, ['https://good.example/1', ...BAD, 'https://good.example/2'].join('\n'));
    const result = await runInProcess({ argv: ['reports', 'create', '--from-file', file], env: mock.env });
    expect(result.code).toBe(2);
    expect(mock.server.requests).toHaveLength(0);
    // One bad line a stderr line: the list is ours, so its line breaks stay (a value's own controls are escaped).
    const stderrLines = result.stderr.split('\n');
    for (let line = 2; line <= BAD.length + 1; line++) expect(stderrLines.some((text) => text.startsWith(`  ${file}:${line}: `))).toBe(true);
    expect(result.stderr).not.toContain('\\n');
    expect(result.stderr).toContain('"https://example.com/\\ta" holds a control character');
    expect(result.stderr).toContain('"http:example.com" does not write out scheme://host');
    expect(result.stderr).toContain('"https://example.com/a b" holds a space');
    expect(result.stderr).toContain('holds a backslash');
    expect(result.stderr).not.toContain('good.example');
  });

  it('--skip-invalid skips them and creates the rest; another form of one URL is the same URL', async () => {
    const result = await runInProcess({
      argv: ['reports', 'create', 'HTTPS://Good.example', 'http:/x.example', 'https://good.example/', '--skip-invalid', '-q'],
      env: mock.env,
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('skipping 1 invalid URL');
    expect(result.stderr).toContain('https://good.example/ given more than once; creating it once');
    const posts = mock.server.requests.filter((request) => request.method === 'POST');
    expect(posts.map((request) => request.form.url)).toEqual(['https://good.example/']);
  });
});
