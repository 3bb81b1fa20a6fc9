// `rsapi history html FILE` (src/cli/commands/history/html/html.ts): its plan from argv with nothing run, bad input
// refused before the history is opened, and the run's file and exit codes.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_PAGES, planHistoryHtml, type HistoryHtmlOptions } from '../../../../../src/cli/commands/history/html/html.js';
import { tempDir } from '../../../../helpers/cli.js';
import { recordTwoJobs, type RecordedJobs } from '../../../../helpers/history-jobs.js';
import { planOf } from '../../../../helpers/plan.js';
import { runInProcess } from '../../../../helpers/run.js';

const dir = tempDir('rsapi-history-html-cmd-');
/** The verb's plan as its handler calls it: the file argument into the options. */
const plan = (ctx: Parameters<typeof planHistoryHtml>[0], opts: Omit<HistoryHtmlOptions, 'file'>, [file]: [string]) => planHistoryHtml(ctx, { ...opts, file });
afterAll(() => dir.cleanup());

describe('history html: the plan', () => {
  it('takes the file, the jobs (repeated), a project as the history files it, --since and --max-pages', async () => {
    const file = join(dir.path, 'page.html');
    const planned = await planOf(
      ['history', 'html', file, '--job', 'shop', '--job', 'blog', '--project', 'WWW.Shop.Example.org', '--since', '2w', '--max-pages', '500'],
      plan,
    );
    expect(planned).toEqual({
      history: { history: undefined },
      file,
      jobs: [
        { name: 'shop', selection: '{"job":"shop"}' },
        { name: 'blog', selection: '{"job":"blog"}' },
      ],
      project: 'shop.example.org',
      since: 14 * 86_400_000,
      maxPages: 500,
    });
    expect((await planOf(['history', 'html', file], plan)).maxPages).toBe(DEFAULT_MAX_PAGES);
  });

  it.each([
    [['--max-pages', '0'], /--max-pages/],
    [['--since', 'soon'], /--since takes a duration/],
  ])('refuses %j with exit 2 before the history is opened', async (flags, message) => {
    const result = await runInProcess({ argv: ['history', 'html', join(dir.path, 'x.html'), ...flags, '--history', join(dir.path, 'none.db')] });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(existsSync(join(dir.path, 'none.db'))).toBe(false);
  });

  it('refuses a file in a folder that does not exist with exit 2', async () => {
    const result = await runInProcess({ argv: ['history', 'html', join(dir.path, 'no', 'such', 'x.html'), '--history', join(dir.path, 'none.db')] });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/cannot write the page to/);
  });
});

describe('history html: the run', () => {
  let recorded: RecordedJobs;
  beforeAll(async () => {
    recorded = await recordTwoJobs(dir.path, 2);
  }, 120_000);
  afterAll(async () => {
    await recorded?.close();
  });

  it('writes one page and says what it holds on stderr', async () => {
    const file = join(dir.path, 'history.html');
    const result = await recorded.rsapi('history', 'html', file);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^rsapi: wrote .*history\.html: 2 jobs, 4 runs, [\d.]+ MB\n$/);
    const page = readFileSync(file, 'utf8');
    expect(page).toMatch(/^<!doctype html>/);
    expect(page).toContain('<title>rsapi history: 2 jobs, 4 runs</title>');
  });

  it('says so when a job is summarised past --max-pages', async () => {
    const result = await recorded.rsapi('history', 'html', join(dir.path, 'small.html'), '--max-pages', '2');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('2 jobs summarised (more than 2 pages)');
    expect(readFileSync(join(dir.path, 'small.html'), 'utf8')).toContain('more than --max-pages 2, so these jobs are summarised');
  });

  it('exits 4 for a job with no run, or no history, and writes nothing', async () => {
    const file = join(dir.path, 'none.html');
    const unknown = await recorded.rsapi('history', 'html', file, '--job', 'weekly');
    expect(unknown.code).toBe(4);
    expect(unknown.stderr).toContain('no run of the job weekly in the history');
    const none = await runInProcess({ argv: ['history', 'html', file, '--history', join(dir.path, 'missing.db')] });
    expect(none.code).toBe(4);
    expect(existsSync(file)).toBe(false);
  });
});
