// `reports create --dry-run`: what the real run would send and skip (and why), after every input step; nothing sent, nothing written.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shareOf } from '../../../../../src/cli/bulk/shard.js';
import { scratchMaker } from '../../../../helpers/scratch.js';
import { mockPerTest } from '../../../../helpers/mock.js';
import { runInProcess } from '../../../../helpers/run.js';

const mock = mockPerTest({ flavor: 'phprank', rateLimit: 0 });

interface Row {
  url: string;
  action: 'create' | 'skip';
  reason: string | null;
}

const scratch = scratchMaker('rsapi-create-dry-run-');

const URLS = Array.from({ length: 12 }, (_, index) => `https://dry.example/page/${index + 1}`);

describe('reports create --dry-run', () => {
  it('names every input line: sent (normalised), duplicate of its first line, in another share, created per the journal, invalid', async () => {
    const fixture = await mock();
    const dir = scratch();
    const file = join(dir, 'urls.txt');
    const journal = join(dir, 'urls.journal');
    // An earlier run created page/1 and page/2 (whichever share they fall in).
    await runInProcess({ argv: ['reports', 'create', URLS[0]!, URLS[1]!, '--journal', journal], env: fixture.env });
    // As if killed before its last line: a journal that did not end is resumed, so its URLs are skipped.
    writeFileSync(journal, readFileSync(journal, 'utf8').replace(/[^\n]*"status":"ended"[^\n]*\n$/, ''));
    const journalBefore = readFileSync(journal, 'utf8');
    fixture.server.requests.length = 0;
    writeFileSync(file, [...URLS, 'HTTPS://WWW.Dry.Example/page/3', 'not a url', ''].join('\n'));
    const argv = ['reports', 'create', '--from-file', file, '--shard', '1/2', '--journal', journal, '--skip-invalid', '--dry-run'];
    const run = await runInProcess({ argv: [...argv, '-o', 'json'], env: fixture.env });
    expect(run.code, run.stderr).toBe(0);
    const rows = JSON.parse(run.stdout) as Row[];
    expect(rows).toHaveLength(URLS.length + 2);
    URLS.forEach((url, index) => {
      const row = rows[index]!;
      const inShare = shareOf(url, 2) === 1;
      const expected = !inShare
        ? { url, action: 'skip', reason: 'in another shard (share 2 of 2)' }
        : index < 2
          ? { url, action: 'skip', reason: `already created (journal ${journal})` }
          : { url, action: 'create', reason: null };
      expect(row).toEqual(expected);
    });
    expect(rows[URLS.length]).toEqual({ url: 'HTTPS://WWW.Dry.Example/page/3', action: 'skip', reason: `duplicate of ${file}:3` });
    expect(rows[URLS.length + 1]).toMatchObject({ url: 'not a url', action: 'skip' });
    expect(rows[URLS.length + 1]?.reason).toMatch(/^invalid: .*\(--skip-invalid\)$/);
    // Nothing sent, nothing written: the journal is as it was and no lock was left.
    expect(fixture.server.requests).toHaveLength(0);
    expect(readFileSync(journal, 'utf8')).toBe(journalBefore);
    expect(existsSync(`${journal}.lock`)).toBe(false);
    expect(run.stderr).toMatch(/dry run: \d+ URLs? would be sent, \d+ skipped; nothing was sent/);

    // -q: the URLs that would be sent, one a line, as the real run then sends them.
    const quiet = await runInProcess({ argv: [...argv, '-q'], env: fixture.env });
    expect(quiet.code).toBe(0);
    const wouldSend = rows.filter((row) => row.action === 'create').map((row) => row.url);
    expect(quiet.stdout).toBe(wouldSend.map((url) => `${url}\n`).join(''));
    const real = await runInProcess({ argv: argv.filter((arg) => arg !== '--dry-run'), env: fixture.env });
    expect(real.code, real.stderr).toBe(0);
    const posted = fixture.server.requests.filter((request) => request.method === 'POST').map((request) => request.form.url);
    expect(posted.sort()).toEqual([...wouldSend].sort());
  });

  it.each([
    {
      format: 'ndjson',
      parse: (out: string) =>
        out
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as Row),
    },
    {
      format: 'csv',
      parse: (out: string) =>
        out
          .trim()
          .split('\n')
          .slice(1)
          .map((line) => ({ url: line.split(',')[0], action: line.split(',')[1] })),
    },
    {
      format: 'tsv',
      parse: (out: string) =>
        out
          .trim()
          .split('\n')
          .map((line) => ({ url: line.split('\t')[0], action: line.split('\t')[1] })),
    },
    {
      format: 'table',
      parse: (out: string) =>
        out
          .trim()
          .split('\n')
          .slice(1)
          .map((line) => ({ url: line.split(/\s+/)[0], action: line.split(/\s+/)[1] })),
    },
  ])('-o $format: a row per input URL with its action; nothing sent', async ({ format, parse }) => {
    const fixture = await mock();
    const run = await runInProcess({ argv: ['reports', 'create', URLS[0]!, URLS[0]!, URLS[1]!, '--dry-run', '-o', format], env: fixture.env, columns: 200 });
    expect(run.code, run.stderr).toBe(0);
    const rows = parse(run.stdout);
    expect(rows.map((row) => [row.url, row.action])).toEqual([
      [URLS[0], 'create'],
      [URLS[0], 'skip'],
      [URLS[1], 'create'],
    ]);
    if (format === 'csv' || format === 'table') expect(run.stdout.split('\n')[0]).toMatch(/url.*action.*reason/);
    expect(fixture.server.requests).toHaveLength(0);
  });

  it('a sitemap is still fetched (it is input); the service gets nothing', async () => {
    const fixture = await mock();
    const dir = scratch();
    const sitemap = join(dir, 'sitemap.xml');
    writeFileSync(
      sitemap,
      `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${URLS.slice(0, 3)
        .map((url) => `<url><loc>${url}</loc></url>`)
        .join('')}</urlset>`,
    );
    const run = await runInProcess({ argv: ['reports', 'create', '--from-sitemap', sitemap, '--dry-run', '-o', 'json'], env: fixture.env });
    expect(run.code, run.stderr).toBe(0);
    expect((JSON.parse(run.stdout) as Row[]).map((row) => row.action)).toEqual(['create', 'create', 'create']);
    expect(fixture.server.requests).toHaveLength(0);
  });

  it('predicts a usage error as the real run has it: an invalid line without --skip-invalid exits 2', async () => {
    const fixture = await mock();
    const run = await runInProcess({ argv: ['reports', 'create', URLS[0]!, 'nope', '--dry-run'], env: fixture.env });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(fixture.server.requests).toHaveLength(0);
  });
});
