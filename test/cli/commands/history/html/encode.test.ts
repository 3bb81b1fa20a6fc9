// The page's data (src/cli/commands/history/html/encode.ts) over a history of two jobs recorded from the drifting
// phpRank mock, read back through the page's model (src/cli/report-files/history-html/model.ts): every run kept, pages
// and checks interned, a run carrying only what changed; any two runs compared exactly as `history diff A B --json`
// compares them, a page's trend as `history trend URL --job NAME --json`, a job's points as `history trend --job NAME`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readHistoryPageData } from '../../../../../src/cli/commands/history/html/encode.js';
import { historyModel, type HistoryPageData, type JobData } from '../../../../../src/cli/report-files/history-html/model.js';
import { historyLocation } from '../../../../../src/history/location.js';
import { openHistory } from '../../../../../src/history/open.js';
import { tempDir } from '../../../../helpers/cli.js';
import { DELETED, JOB_PROJECTS, PUBLISHED, recordTwoJobs, type RecordedJobs } from '../../../../helpers/history-jobs.js';

const dir = tempDir('rsapi-history-html-');
const model = historyModel();
let recorded: RecordedJobs;
let data: HistoryPageData;

async function read(query: Partial<Parameters<typeof readHistoryPageData>[1]> = {}): Promise<HistoryPageData> {
  const store = await openHistory(historyLocation(recorded.history), { readOnly: true });
  try {
    const read = await readHistoryPageData(store, { maxPages: 10_000, ...query });
    for (const job of read.jobs) job.labelNames = read.labels;
    return read;
  } finally {
    await store.close();
  }
}

const jobNamed = (name: string) => data.jobs.find((job) => job.key === name) as JobData;

async function json<T>(...argv: string[]): Promise<T> {
  const result = await recorded.rsapi(...argv, '--json');
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as T;
}

beforeAll(async () => {
  recorded = await recordTwoJobs(dir.path);
  data = await read();
}, 120_000);
afterAll(async () => {
  await recorded?.close();
  dir.cleanup();
});

describe('the page data of a history', () => {
  it('holds both jobs with every run of each, oldest first, and each page once', async () => {
    const runs = await json<{ id: number; selection: { job: string } }[]>('history', 'runs');
    expect(data.jobs.map((job) => job.key).sort()).toEqual(['blog', 'shop']);
    for (const job of data.jobs) {
      const ids = runs.filter((run) => run.selection.job === job.key).map((run) => run.id);
      expect(job.runs.map((run) => run.id)).toEqual([...ids].sort((a, b) => a - b));
      expect(new Set(job.urls).size).toBe(job.urls.length);
      expect(job.projects).toEqual([JOB_PROJECTS[job.key as keyof typeof JOB_PROJECTS]]);
    }
    const shop = jobNamed('shop');
    expect(shop.urls).toContain(PUBLISHED);
    expect(shop.urls).toContain(DELETED);
  });

  it('keeps a run as what changed since the run before: the published page new in run 3, the deleted one gone in run 4', () => {
    const shop = jobNamed('shop');
    const [first, , third, fourth] = shop.runs;
    // The first run carries every page; a tuple is 5 values.
    expect(first!.changed.length).toBe(5 * 3);
    expect(first!.gone).toEqual([]);
    const pagesOf = (changed: JobData['runs'][number]['changed']) => changed.filter((_, index) => index % 5 === 0).map((page) => shop.urls[page as number]);
    expect(pagesOf(third!.changed)).toContain(PUBLISHED);
    expect(fourth!.gone.map((page) => shop.urls[page])).toEqual([DELETED]);
  });

  it('compares any two runs of a job exactly as `history diff A B --json` does', async () => {
    let nonEmpty = 0;
    for (const job of data.jobs) {
      const decoded = model.decode(job);
      for (let a = 0; a < job.runs.length; a++) {
        for (let b = 0; b < job.runs.length; b++) {
          if (a === b) continue;
          const diff = await json<{ compared: number; changes: unknown[] }>('history', 'diff', String(job.runs[a]!.id), String(job.runs[b]!.id));
          const mine = model.compare(decoded, a, b);
          expect(mine.compared).toBe(diff.compared);
          expect(
            mine.changes.map((change) => ({
              url: change.url,
              status: change.status,
              score_before: change.scoreBefore ?? null,
              score_after: change.scoreAfter ?? null,
              score_change: change.scoreChange ?? null,
              result_before: change.labelBefore ?? null,
              result_after: change.labelAfter ?? null,
              new_failures: change.newFailures,
              fixed: change.fixed,
            })),
          ).toEqual(diff.changes);
          if (diff.changes.length > 0) nonEmpty++;
        }
      }
    }
    // The mock's drift changed checks between the runs: the comparison was of something.
    expect(nonEmpty).toBeGreaterThan(10);
  });

  it("gives each page's trend as `history trend URL --job NAME --json` does", async () => {
    for (const job of data.jobs) {
      const decoded = model.decode(job);
      for (const [page, url] of job.urls.entries()) {
        const points = await json<{ run: number; score: number | null; failed: number | null }[]>('history', 'trend', url, '--job', job.key);
        expect(model.trend(decoded, page).map((point) => ({ run: point.run, score: point.score ?? null, failed: point.failed ?? null }))).toEqual(
          points.map(({ run, score, failed }) => ({ run, score, failed })),
        );
      }
    }
  });

  it("gives a job's points (mean score, failed checks per page and their sum) as `history trend --job NAME --json` does", async () => {
    for (const job of data.jobs) {
      const stats = model.stats(model.decode(job));
      const points = await json<{ run: number; reports: number; score: number; failed: number; failed_total: number }[]>('history', 'trend', '--job', job.key);
      expect(
        job.runs.map((run, r) => ({
          run: run.id,
          reports: stats[r]!.pages,
          score: stats[r]!.score,
          failed: stats[r]!.failed,
          failed_total: stats[r]!.failedTotal,
        })),
      ).toEqual(points.map(({ run, reports, score, failed, failed_total }) => ({ run, reports, score, failed, failed_total })));
    }
  });

  it("counts each run's changes against the complete run before it, as `history diff` of the two counts them", async () => {
    const shop = jobNamed('shop');
    const stats = model.stats(model.decode(shop));
    expect(stats[0]!.baseline).toBeNull();
    const diff = await json<{ changes: { status: string; new_failures: string[]; fixed: string[] }[] }>(
      'history',
      'diff',
      String(shop.runs[2]!.id),
      String(shop.runs[3]!.id),
    );
    expect(stats[3]).toMatchObject({
      baseline: 2,
      newFailures: diff.changes.reduce((sum, change) => sum + change.new_failures.length, 0),
      fixed: diff.changes.reduce((sum, change) => sum + change.fixed.length, 0),
      newPages: 0,
      vanished: 1,
    });
    expect(stats[2]!.newPages).toBe(1);
  });

  it('narrows the pages to --project and the runs to --job and --since', async () => {
    const shopOnly = await read({ project: JOB_PROJECTS.shop });
    expect(shopOnly.jobs.map((job) => job.key)).toEqual(['shop']);
    const blog = await read({ jobs: [{ name: 'blog', selection: '{"job":"blog"}' }] });
    expect(blog.jobs.map((job) => job.key)).toEqual(['blog']);
    expect((await read({ since: new Date(Date.now() + 60_000).toISOString() })).jobs).toEqual([]);
  });

  it('summarises a job past --max-pages: no page, each run with the figures the page would have worked out', async () => {
    const small = await read({ maxPages: 3 });
    const shop = small.jobs.find((job) => job.key === 'shop')!;
    const blog = small.jobs.find((job) => job.key === 'blog')!;
    expect(shop.summarised).toEqual({ pages: jobNamed('shop').urls.length });
    expect(shop.urls).toEqual([]);
    expect(shop.runs.every((run) => run.changed.length === 0)).toBe(true);
    expect(model.stats(model.decode(shop))).toEqual(model.stats(model.decode(jobNamed('shop'))));
    // The blog job's 3 pages are within it.
    expect(blog.summarised).toBeUndefined();
    expect(blog.urls).toHaveLength(3);
  });

  it('filters pages by project and URL test, and compares only those', () => {
    const shop = jobNamed('shop');
    const decoded = model.decode(shop);
    const mask = model.pageMask(shop, -1, (url) => url === PUBLISHED);
    const last = shop.runs.length - 1;
    const changes = model.compare(decoded, 1, last, mask).changes;
    expect(changes.map((change) => change.url)).toEqual([PUBLISHED]);
    expect(changes[0]!.status).toBe('new');
    expect(model.stats(decoded, mask)[last]!.pages).toBe(1);
  });

  it('records an unchanged re-read as nothing changed (last: it adds two runs)', async () => {
    const again = await recorded.rsapi('reports', 'list', '--all', '--project', JOB_PROJECTS.blog, '--record', '--job', 'blog', '-q');
    const twice = await recorded.rsapi('reports', 'list', '--all', '--project', JOB_PROJECTS.blog, '--record', '--job', 'blog', '-q');
    expect([again.code, twice.code]).toEqual([0, 0]);
    const blog = (await read({ jobs: [{ name: 'blog', selection: '{"job":"blog"}' }] })).jobs[0]!;
    expect(blog.runs.at(-1)!.changed).toEqual([]);
    expect(blog.runs.at(-1)!.gone).toEqual([]);
  });
});
