// Bad input met in a first hour, across verbs: ranges, repeated flags, ids, a flag before its verb, a bad proxy, a URL
// that does not parse, an odd --init and a job name that would print reordered, refused before any request (exit 2);
// ids several a line, a misspelt field; a corrupt settings file.
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/run.js';
import { startMock, type MockFixture } from '../helpers/mock.js';
import { tempDir } from '../helpers/cli.js';

let mock: MockFixture;
const dir = tempDir('rsapi-bad-input-');

/** A configuration file in the test's folder, written now: the table's rows name it. */
function config(name: string, content: unknown): string {
  const path = join(dir.path, `${name}.json`);
  writeFileSync(path, JSON.stringify(content));
  return path;
}

function deepConfig(): string {
  const path = join(dir.path, 'deep.json');
  writeFileSync(path, `{"audit": {"urls": ["https://a.example/"], "job": ${'['.repeat(8000)}${']'.repeat(8000)}}}`);
  return path;
}

function dangling(): string {
  const path = join(dir.path, 'dangling.json');
  symlinkSync(join(dir.path, 'nowhere.json'), path);
  return path;
}

beforeAll(async () => {
  mock = await startMock({ seed: 3 });
});
afterAll(async () => {
  await mock.close();
  dir.cleanup();
});

describe('refused before any request (exit 2)', () => {
  it.each([
    { name: '--min-score 101', argv: ['reports', 'list', '--min-score', '101'], error: /--min-score must be a score from 0 to 100/ },
    { name: '--min-score -5', argv: ['reports', 'list', '--min-score=-5'], error: /--min-score must be a score from 0 to 100/ },
    { name: '--limit beyond any count', argv: ['reports', 'list', '--limit', '99999999999999999999'], error: /--limit is too large/ },
    {
      name: '--result twice',
      argv: ['reports', 'list', '--result', 'good', '--result', 'bad'],
      error: /--result is given twice \("good", then "bad"\); it takes one value/,
    },
    { name: '--project twice', argv: ['reports', 'stats', '--project', 'a', '--project', 'b'], error: /--project is given twice/ },
    { name: 'reports show abc', argv: ['reports', 'show', 'abc'], error: /"abc" is not a report id/ },
    { name: 'reports show 0', argv: ['reports', 'show', '0'], error: /"0" is not a report id/ },
    {
      name: 'a list flag before the verb',
      argv: ['--limit', '2', 'reports', 'list'],
      error: /unknown option "--limit"\nhint: --limit is an option of `rsapi reports list`: put it after the command's name/,
    },
    // Each of these was an "unexpected error" (exit 1), or a job name printed raw with its bidirectional override.
    {
      name: '--from-sitemap http://[bad',
      argv: ['reports', 'create', '--from-sitemap', 'http://[bad'],
      error: /--from-sitemap "http:\/\/\[bad" is not a valid URL/,
    },
    {
      name: 'a sitemap http://[bad in the audit file',
      argv: ['audit', '--config', config('bad-sitemap', { audit: { sitemaps: ['http://[bad'] } })],
      error: /bad-sitemap\.json:1: "http:\/\/\[bad" is not a valid URL/,
    },
    { name: 'an audit file nested 8,000 levels deep', argv: ['audit', '--config', deepConfig()], error: /deep\.json:1: nested more than 32 levels deep/ },
    {
      name: 'audit --init into a missing folder',
      argv: ['audit', '--init', 'https://example.com/', '--config', join(dir.path, 'none', 'x.json')],
      error: /there is no folder/,
    },
    {
      name: 'audit --init through a dangling symlink',
      argv: ['audit', '--init', 'https://example.com/', '--config', dangling()],
      error: /exists \(a symbolic link\)/,
    },
    { name: 'audit --init "http://a b/"', argv: ['audit', '--init', 'http://a b/'], error: /--init "http:\/\/a b\/" holds a space/ },
    { name: 'audit --init http://[::1', argv: ['audit', '--init', 'http://[::1'], error: /--init "http:\/\/\[::1" is not a valid URL/ },
    { name: 'audit --init with a control character', argv: ['audit', '--init', 'http://a\u0001b.example/'], error: /holds a control character/ },
    {
      name: 'a --job with U+202E',
      argv: ['reports', 'list', '--record', '--job', 'abc\u202edef'],
      error: /--job "abc\\u202edef": a job's name is 1 to 200 printable characters/,
    },
    {
      name: 'an audit job with U+202E',
      argv: ['audit', '--config', config('bidi-job', { audit: { job: 'abc\u202edef', urls: ['https://a.example/'] } })],
      error: /bidi-job\.json:1: "job" must be 1 to 200 printable characters/,
    },
    {
      name: 'HTTP_PROXY=notaurl',
      argv: ['reports', 'list'],
      env: { HTTP_PROXY: 'notaurl' },
      error: /^rsapi: HTTP_PROXY is not a proxy URL\nhint: write it as http:\/\/host:port/,
    },
  ])('$name', async ({ argv, env, error }) => {
    const before = mock.server.requests.length;
    const result = await runInProcess({ argv, env: { ...mock.env, ...env } });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(error);
    expect(result.stderr).not.toMatch(/unexpected error/);
    expect(mock.server.requests.length).toBe(before);
  });

  it('--min-score 0 and 100 are fine', async () => {
    expect((await runInProcess({ argv: ['reports', 'list', '--min-score', '0', '--json'], env: mock.env })).code).toBe(0);
  });
});

describe('ids and fields', () => {
  it('reports delete - takes ids several a line', async () => {
    const ids = (await runInProcess({ argv: ['reports', 'list', '-q'], env: mock.env })).stdout.trim().split('\n');
    const result = await runInProcess({ argv: ['reports', 'delete', '-', '--yes'], env: mock.env, stdin: `${ids[0]} ${ids[1]}\n${ids[2]}\n` });
    expect(result.code, result.stderr).toBe(0);
    expect(mock.server.requests.filter((request) => request.method === 'DELETE')).toHaveLength(3);
    await mock.close();
    mock = await startMock({ seed: 3 });
  });

  it('a misspelt --fields name gets "did you mean"', async () => {
    const result = await runInProcess({ argv: ['reports', 'list', '--fields', 'id,scroe', '-o', 'csv'], env: mock.env });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/field "scroe" \(did you mean "score"\?\)/);
  });
});

describe('the settings file', () => {
  it('a corrupt file does not block a run given --base-url and --api-key (a warning), but does block one that needs it', async () => {
    const env = { ...mock.env, RSAPI_CONFIG_DIR: join(dir.path, 'corrupt') };
    await runInProcess({ argv: ['config', 'set', 'timeout', '5'], env: { ...env, RSAPI_BASE_URL: undefined, RSAPI_API_KEY: undefined } });
    writeFileSync(join(env.RSAPI_CONFIG_DIR, 'config.json'), '{ not json');
    const given = await runInProcess({
      argv: ['reports', 'list', '--json', '--base-url', mock.server.url, '--api-key', mock.server.apiKey],
      env: { ...env, RSAPI_BASE_URL: undefined, RSAPI_API_KEY: undefined },
    });
    expect(given.code, given.stderr).toBe(0);
    expect(JSON.parse(given.stdout)).toHaveLength(3);
    expect(given.stderr).toMatch(/^rsapi: warning: the settings file .* is not valid JSON; passed over/);
    const needed = await runInProcess({ argv: ['reports', 'list'], env: { ...env, RSAPI_API_KEY: undefined } });
    expect(needed.code).toBe(2);
    expect(needed.stderr).toMatch(/is not valid JSON/);
  });
});
