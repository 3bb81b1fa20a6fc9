// --journal refuses a file it would damage: the URL list itself (by path or by inode) or a file of other lines.
import { existsSync, linkSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scratchMaker } from '../../../../helpers/scratch.js';
import { mockPerTest } from '../../../../helpers/mock.js';
import { runInProcess } from '../../../../helpers/run.js';

const mock = mockPerTest({ flavor: 'phprank', rateLimit: 0 });

const URLS = 'https://guard.example/a\nhttps://guard.example/b\n';

const scratch = scratchMaker('rsapi-journal-guard-', { 'urls.txt': URLS });

describe('--journal guard', () => {
  it.each([
    { name: 'the input file, same path', journal: (dir: string) => join(dir, 'urls.txt'), says: 'is the input file of --from-file' },
    {
      name: 'the input file, another spelling of its path',
      journal: (dir: string) => (mkdirSync(join(dir, 'sub')), `${dir}/./sub/../urls.txt`),
      says: 'is the input file of --from-file',
    },
    {
      name: 'the input file under a hard link',
      journal: (dir: string) => (linkSync(join(dir, 'urls.txt'), join(dir, 'linked.txt')), join(dir, 'linked.txt')),
      says: 'is the input file of --from-file',
    },
    {
      name: 'the input file under a symlink',
      journal: (dir: string) => (symlinkSync(join(dir, 'urls.txt'), join(dir, 'alias.txt')), join(dir, 'alias.txt')),
      says: 'is the input file of --from-file',
    },
    {
      name: 'a notes file',
      journal: (dir: string) => (writeFileSync(join(dir, 'notes.md'), '# my notes\nkeep these\n'), join(dir, 'notes.md')),
      says: 'is not a journal of rsapi',
    },
    {
      name: 'another URL list',
      journal: (dir: string) => (writeFileSync(join(dir, 'other.txt'), URLS), join(dir, 'other.txt')),
      says: 'is not a journal of rsapi',
    },
    {
      name: 'a JSON-lines file of something else',
      journal: (dir: string) => (writeFileSync(join(dir, 'events.jsonl'), '{"event":"deploy","at":"2026-01-01"}\n'), join(dir, 'events.jsonl')),
      says: 'is not a journal of rsapi',
    },
    {
      name: 'a one-line note without a newline',
      journal: (dir: string) => (writeFileSync(join(dir, 'todo'), 'call Bob'), join(dir, 'todo')),
      says: 'is not a journal of rsapi',
    },
  ])('refuses $name: exit 2, before any request, every file unchanged', async ({ journal, says }) => {
    const fixture = await mock();
    const dir = scratch();
    const path = journal(dir);
    const before = readFileSync(path, 'utf8');
    const run = await runInProcess({ argv: ['reports', 'create', '--from-file', join(dir, 'urls.txt'), '--journal', path], env: fixture.env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(says);
    expect(run.stdout).toBe('');
    expect(fixture.server.requests).toHaveLength(0);
    expect(readFileSync(path, 'utf8')).toBe(before);
    expect(readFileSync(join(dir, 'urls.txt'), 'utf8')).toBe(URLS);
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it('reads only the head of what --journal names: /dev/zero is refused at once (exit 2, nothing sent), an 11 MB journal is not read whole', async () => {
    const fixture = await mock();
    const dir = scratch();
    const endless = await runInProcess({ argv: ['reports', 'create', '--from-file', join(dir, 'urls.txt'), '--journal', '/dev/zero'], env: fixture.env });
    expect(endless.code).toBe(2);
    expect(endless.stderr).toContain('is not a journal of rsapi');
    expect(fixture.server.requests).toHaveLength(0);
    // An ended week's journal of 100,000 lines, a sixth line of something else: the first lines are what is checked.
    const journal = join(dir, 'week.journal');
    const line = (i: number) =>
      `${JSON.stringify({ url: `https://guard.example/p${i}`, status: i % 2 ? 'created' : 'sending', at: '2026-11-01T00:00:00.000Z' })}\n`;
    writeFileSync(
      journal,
      `${Array.from({ length: 5 }, (_, i) => line(i)).join('')}not a journal line\n${Array.from({ length: 100_000 }, (_, i) => line(i)).join('')}`,
    );
    const dry = await runInProcess({ argv: ['reports', 'create', '--from-file', join(dir, 'urls.txt'), '--journal', journal, '--dry-run'], env: fixture.env });
    expect(dry.code, dry.stderr).toBe(0);
  });

  it('refuses a sitemap file as the journal', async () => {
    const fixture = await mock();
    const dir = scratch();
    const sitemap = join(dir, 'sitemap.xml');
    const xml = '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://guard.example/a</loc></url></urlset>';
    writeFileSync(sitemap, xml);
    const run = await runInProcess({ argv: ['reports', 'create', '--from-sitemap', sitemap, '--journal', sitemap], env: fixture.env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('is the input file of --from-sitemap');
    expect(readFileSync(sitemap, 'utf8')).toBe(xml);
    expect(fixture.server.requests).toHaveLength(0);
  });

  it.each([
    { name: 'a new file', content: undefined },
    { name: 'an empty file', content: '' },
    { name: 'a journal whose first line was torn by a kill', content: '{"url":"https://guard.ex' },
  ])('accepts $name', async ({ content }) => {
    const fixture = await mock();
    const dir = scratch();
    const path = join(dir, 'run.journal');
    if (content !== undefined) writeFileSync(path, content);
    const run = await runInProcess({ argv: ['reports', 'create', '--from-file', join(dir, 'urls.txt'), '--journal', path], env: fixture.env });
    expect(run.code, run.stderr).toBe(0);
    const lines = readFileSync(path, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { status: string });
    expect(lines.filter((line) => line.status === 'created')).toHaveLength(2);
  });

  it("accepts an earlier run's journal: one that ended starts afresh, one that did not end resumes", async () => {
    const fixture = await mock();
    const dir = scratch();
    const path = join(dir, 'run.journal');
    const argv = ['reports', 'create', '--from-file', join(dir, 'urls.txt'), '--journal', path];
    const posts = () => fixture.server.requests.filter((request) => request.method === 'POST').length;
    expect((await runInProcess({ argv, env: fixture.env })).code).toBe(0);
    const ended = readFileSync(path, 'utf8').trimEnd().split('\n');
    expect(JSON.parse(ended.at(-1) as string)).toMatchObject({ status: 'ended', urls: 2, carried: 0 });
    // The run ended: the next one (a week later) does what --existing says (here: new reports), and the journal is its
    // own; the everyday case, said with -v only.
    const fresh = await runInProcess({ argv: [...argv, '-v'], env: fixture.env });
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(fresh.stderr).toContain(`the journal ${path} is of a run that ended`);
    expect(fresh.stderr).toContain('starts it afresh');
    expect(posts()).toBe(4);
    expect(readFileSync(path, 'utf8').trimEnd().split('\n')).toHaveLength(ended.length);
    // A run that did not end (killed before its last line): the next one resumes it and sends nothing twice.
    writeFileSync(path, `${ended.slice(0, -1).join('\n')}\n`);
    const resumed = await runInProcess({ argv, env: fixture.env });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain('skipping 2 URLs already created');
    expect(resumed.stderr).not.toContain('afresh');
    expect(posts()).toBe(4);
  });
});
