// `reports create`: lists in, a list out. The JSON shape follows the kind of input, never how many URLs it holds.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../../helpers/cli.js';
import { mockPerTest } from '../../../../helpers/mock.js';
import { runInProcess } from '../../../../helpers/run.js';

const mock = mockPerTest({ flavor: 'phprank', rateLimit: 0 });
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function urlFile(lines: string[]): string {
  const dir = tempDir('rsapi-shape-');
  cleanups.push(dir.cleanup);
  const file = join(dir.path, 'urls.txt');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

describe('reports create: the output shape follows the input kind', () => {
  it.each([
    { name: 'one URL argument: an object', args: () => ['https://shape.example/a'], array: false },
    { name: 'two URL arguments: an array', args: () => ['https://shape.example/a', 'https://shape.example/b'], array: true },
    { name: 'the same URL twice as arguments: an array of one', args: () => ['https://shape.example/a', 'https://shape.example/a'], array: true },
    { name: '--from-file with one URL: an array of one', args: () => ['--from-file', urlFile(['https://shape.example/a'])], array: true },
    { name: '--from-file with two URLs: an array', args: () => ['--from-file', urlFile(['https://shape.example/a', 'https://shape.example/b'])], array: true },
    { name: '--from-file - with one URL: an array of one', args: () => ['--from-file', '-'], stdin: 'https://shape.example/a\n', array: true },
    { name: '--shard 1/1 with one URL: an array of one', args: () => ['https://shape.example/a', '--shard', '1/1'], array: true },
  ])('$name', async ({ args, stdin, array }) => {
    const fixture = await mock();
    const run = await runInProcess({ argv: ['reports', 'create', ...args(), '-o', 'json'], env: fixture.env, stdin });
    expect(run.code, run.stderr).toBe(0);
    const printed: unknown = JSON.parse(run.stdout);
    expect(Array.isArray(printed)).toBe(array);
    if (!array) expect(printed).toMatchObject({ url: 'shape.example/a' });
  });

  it('--from-sitemap with one page: an array of one', async () => {
    const fixture = await mock();
    const file = urlFile([]);
    const sitemap = join(file, '..', 'sitemap.xml');
    writeFileSync(
      sitemap,
      '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://shape.example/only</loc></url></urlset>',
    );
    const run = await runInProcess({ argv: ['reports', 'create', '--from-sitemap', sitemap, '-o', 'json'], env: fixture.env });
    expect(run.code, run.stderr).toBe(0);
    const printed = JSON.parse(run.stdout) as { url: string }[];
    expect(printed).toHaveLength(1);
    expect(printed[0]?.url).toBe('shape.example/only');
  });

  it('ndjson: a line per report for a file of one URL, as for a file of two', async () => {
    const fixture = await mock();
    for (const lines of [['https://shape.example/a'], ['https://shape.example/b', 'https://shape.example/c']]) {
      const run = await runInProcess({ argv: ['reports', 'create', '--from-file', urlFile(lines), '-o', 'ndjson'], env: fixture.env });
      expect(run.code, run.stderr).toBe(0);
      const printed = run.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { url: string });
      expect(printed.map((record) => record.url)).toEqual(lines.map((url) => url.replace('https://', '')));
    }
  });

  it('a file whose one URL the journal of an interrupted run shows created prints that report, as a list, and sends nothing', async () => {
    const fixture = await mock();
    const file = urlFile(['https://shape.example/a']);
    const journal = join(file, '..', 'urls.journal');
    const first = await runInProcess({ argv: ['reports', 'create', '--from-file', file, '--journal', journal, '-o', 'json'], env: fixture.env });
    expect(first.code, first.stderr).toBe(0);
    // As if killed before its last line: the run did not end, so the next one resumes it.
    writeFileSync(journal, readFileSync(journal, 'utf8').replace(/[^\n]*"status":"ended"[^\n]*\n$/, ''));
    const again = await runInProcess({ argv: ['reports', 'create', '--from-file', file, '--journal', journal, '-o', 'json'], env: fixture.env });
    expect(again.code, again.stderr).toBe(0);
    const [created] = JSON.parse(first.stdout) as { id: number; url: string }[];
    expect((JSON.parse(again.stdout) as { id: number; url: string }[]).map(({ id, url }) => ({ id, url }))).toEqual([{ id: created?.id, url: created?.url }]);
    expect(fixture.server.requests.filter((request) => request.method === 'POST')).toHaveLength(1);
  });

  it.each([
    { name: 'an empty --from-file', args: () => ['--from-file', urlFile([])], stdin: undefined, where: 'urls.txt' },
    {
      name: 'a --from-file of comments and blank lines',
      args: () => ['--from-file', urlFile(['# changed pages: none', ''])],
      stdin: undefined,
      where: 'urls.txt',
    },
    { name: 'an empty pipe to --from-file -', args: () => ['--from-file', '-'], stdin: '', where: 'stdin' },
  ])('empty input is a no-op: $name exits 0, prints [] in json, one note on stderr, sends nothing', async ({ args, stdin, where }) => {
    const fixture = await mock();
    const before = fixture.server.requests.length;
    const run = await runInProcess({ argv: ['reports', 'create', ...args(), '-o', 'json'], env: fixture.env, stdin });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual([]);
    expect(run.stderr).toMatch(new RegExp(`^rsapi: \\S*${where} holds no URL; nothing to create\n$`));
    expect(fixture.server.requests.length).toBe(before);
  });

  it('nothing typed at a terminal to --from-file - stays a usage error (exit 2)', async () => {
    const fixture = await mock();
    const run = await runInProcess({ argv: ['reports', 'create', '--from-file', '-', '-o', 'json'], env: fixture.env, stdin: '', tty: { stdin: true } });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('no URL to create a report for');
    expect(run.stdout).toBe('');
  });

  it('reports create --help says lists in, a list out', async () => {
    const run = await runInProcess({ argv: ['reports', 'create', '--help'] });
    expect(run.stdout).toContain('Lists in, a list out');
  });
});

describe('reports create: privacy the service answers null', () => {
  it('phpRank answers privacy null to a create: the table and csv show the privacy sent (public when none), as list does; json keeps null', async () => {
    const fixture = await mock();
    const table = await runInProcess({
      argv: ['reports', 'create', 'https://privacy.example/a', 'https://privacy.example/b', '-o', 'table', '--no-color'],
      env: fixture.env,
      tty: true,
      columns: 140,
    });
    expect(table.code, table.stderr).toBe(0);
    const [header = '', ...rows] = table.stdout.trim().split('\n');
    const at = header.indexOf('privacy');
    expect(at).toBeGreaterThan(0);
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row.slice(at, at + 7).trim()).toBe('public');
    const listed = await runInProcess({ argv: ['reports', 'list', '--search', 'privacy.example/a', '--fields', 'privacy', '-o', 'csv'], env: fixture.env });
    expect(listed.stdout).toBe('privacy\r\n0\r\n');
    const one = await runInProcess({
      argv: ['reports', 'create', 'https://privacy.example/d', '--privacy', 'private', '--fields', 'privacy', '-o', 'csv'],
      env: fixture.env,
    });
    expect(one.stdout).toBe('privacy\r\n1\r\n');
    const json = await runInProcess({ argv: ['reports', 'create', 'https://privacy.example/c', '-o', 'json'], env: fixture.env });
    expect((JSON.parse(json.stdout) as { privacy: unknown }).privacy).toBeNull();
  });
});

describe('reports create: a URL holding the API key', () => {
  it('is refused before anything is sent (in any case: a host is lower-cased), the key never shown', async () => {
    const { env, server } = await mock();
    const key = env.RSAPI_API_KEY as string;
    for (const url of [`https://leak.example.com/?k=${key}`, `https://${key.toUpperCase()}.example.com/`]) {
      const run = await runInProcess({ argv: ['reports', 'create', url, 'https://fine.example.com/'], env });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toMatch(/holds the API key; it is not sent, so that the service does not store it/);
      expect(run.stderr.toLowerCase()).not.toContain(key.toLowerCase());
    }
    expect(server.requests).toHaveLength(0);
  });
});
