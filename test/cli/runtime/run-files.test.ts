// No output file of a run may be one of its inputs or another of its outputs: refused before anything is read or sent, the file left byte-identical.
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mockPerTest } from '../../helpers/mock.js';
import { runInProcess } from '../../helpers/run.js';
import { scratchMaker } from '../../helpers/scratch.js';

const mock = mockPerTest({ flavor: 'phprank', rateLimit: 0 });

const URLS = 'https://files.example/a\nhttps://files.example/b\n';
const BASELINE = '{"id":1,"url":"files.example/a","result":80}\n';
const JOURNAL = '{"url":"https://files.example/a","status":"created","id":1,"at":"2026-01-01T00:00:00.000Z"}\n';

const scratch = scratchMaker('rsapi-run-files-', { 'urls.txt': URLS, 'out.ndjson': BASELINE, 'run.journal': JOURNAL, 'pass.txt': 'hunter22\n' });

interface Case {
  name: string;
  /** The run's words, given the scratch directory. */
  argv: (dir: string) => string[];
  /** The file that would have been overwritten. */
  kept: string;
  says: string;
}

const cases: Case[] = [
  {
    name: 'the assertions file as --codequality',
    argv: (dir) => (
      writeFileSync(join(dir, 'rules.json'), '{"assert": []}\n'),
      ['reports', 'list', '--assert', join(dir, 'rules.json'), '--codequality', join(dir, 'rules.json')]
    ),
    kept: 'rules.json',
    says: 'is the input file of --assert',
  },
  {
    name: '--codequality and --html on one file',
    argv: (dir) => ['reports', 'stats', '--html', join(dir, 'out.ndjson'), '--codequality', join(dir, 'out.ndjson')],
    kept: 'out.ndjson',
    says: 'are one file',
  },
  {
    name: 'the URL file as --html',
    argv: (dir) => ['reports', 'create', '--from-file', join(dir, 'urls.txt'), '--html', join(dir, 'urls.txt')],
    kept: 'urls.txt',
    says: 'is the input file of --from-file',
  },
  {
    name: 'the baseline as --html',
    argv: (dir) => ['reports', 'list', '--baseline', join(dir, 'out.ndjson'), '--html', join(dir, 'out.ndjson')],
    kept: 'out.ndjson',
    says: 'is the input file of --baseline',
  },
  {
    name: 'the baseline as --summary, written ./x and x',
    argv: (dir) => [
      'reports',
      'list',
      '--baseline',
      `./${relative(process.cwd(), join(dir, 'out.ndjson'))}`,
      '--summary',
      relative(process.cwd(), join(dir, 'out.ndjson')),
    ],
    kept: 'out.ndjson',
    says: 'is the input file of --baseline',
  },
  {
    name: 'the URL file as --junit through a symlink',
    argv: (dir) => (
      symlinkSync(join(dir, 'urls.txt'), join(dir, 'alias.xml')), ['reports', 'create', '--from-file', join(dir, 'urls.txt'), '--junit', join(dir, 'alias.xml')]
    ),
    kept: 'urls.txt',
    says: '--junit',
  },
  {
    name: 'the journal as --html',
    argv: (dir) => ['reports', 'create', 'https://files.example/b', '--journal', join(dir, 'run.journal'), '--html', join(dir, 'run.journal')],
    kept: 'run.journal',
    says: 'is the input file of --journal',
  },
  {
    name: 'the password file as --summary',
    argv: (dir) => [
      'reports',
      'create',
      'https://files.example/b',
      '--privacy',
      'password',
      '--password-file',
      join(dir, 'pass.txt'),
      '--summary',
      join(dir, 'pass.txt'),
    ],
    kept: 'pass.txt',
    says: 'is the input file of --password-file',
  },
  {
    name: 'the sitemap file as --journal',
    argv: (dir) => (
      writeFileSync(
        join(dir, 'sitemap.xml'),
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://files.example/a</loc></url></urlset>',
      ),
      ['reports', 'create', '--from-sitemap', join(dir, 'sitemap.xml'), '--journal', join(dir, 'sitemap.xml')]
    ),
    kept: 'sitemap.xml',
    says: 'is the input file of --from-sitemap',
  },
  {
    name: '--junit and --html on one existing file',
    argv: (dir) => ['reports', 'list', '--junit', join(dir, 'out.ndjson'), '--html', join(dir, 'out.ndjson')],
    kept: 'out.ndjson',
    says: '--junit',
  },
  {
    name: '--summary and --html on one new file, through another spelling of its folder',
    argv: (dir) => (mkdirSync(join(dir, 'sub')), ['reports', 'stats', '--summary', join(dir, 'new.md'), '--html', `${dir}/sub/../new.md`]),
    kept: 'urls.txt',
    says: 'are one file: one output would write over the other',
  },
];

describe('the files of one run', () => {
  it.each(cases)('refuses $name: exit 2 in one line, nothing sent, the file byte-identical', async ({ argv, kept, says }) => {
    const fixture = await mock();
    const dir = scratch();
    const args = argv(dir);
    const before = readFileSync(join(dir, kept));
    const result = await runInProcess({ argv: args, env: fixture.env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^rsapi: .*nothing was sent\nhint: give .* a file of its own\n$/);
    expect(result.stderr).toContain(says);
    expect(result.stdout).toBe('');
    expect(fixture.server.requests).toHaveLength(0);
    expect(readFileSync(join(dir, kept)).equals(before)).toBe(true);
  });

  it('accepts every output on a file of its own', async () => {
    const fixture = await mock();
    const dir = scratch();
    const result = await runInProcess({
      argv: [
        'reports',
        'create',
        '--from-file',
        join(dir, 'urls.txt'),
        ...['--journal', 'j', '--junit', 'r.xml', '--summary', 's.md', '--html', 'r.html'].map((word, index) => (index % 2 ? join(dir, word) : word)),
        '-q',
      ],
      env: fixture.env,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(readFileSync(join(dir, 'urls.txt'), 'utf8')).toBe(URLS);
    expect(readFileSync(join(dir, 'r.html'), 'utf8')).toContain('<html');
  });
});
