// `rsapi history merge` on SQLite and PostgreSQL alike: a site audited whole and in three merged shards gives the same
// run and the same verdict; the merge refuses parts of two pipelines or two inputs, parts cut short, from a newer rsapi
// or no part at all (exit 2, nothing recorded), and a missing share (exit 12; --allow-partial records it incomplete);
// of a share given twice, the later part stands.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type MockFixture } from '../../../helpers/mock.js';
import { postgresUnavailable, startTestDatabase, type TestDatabase } from '../../../helpers/postgres.js';
import { planOf } from '../../../helpers/plan.js';
import { runInProcess } from '../../../helpers/run.js';
import { planHistoryMerge } from '../../../../src/cli/commands/history/merge.js';
import { scratchMaker } from '../../../helpers/scratch.js';

const scratch = scratchMaker('rsapi-merge-');
const pgMissing = postgresUnavailable();

const URLS = Array.from({ length: 12 }, (_, i) => `https://shop.example/page-${i + 1}`);

let mock: MockFixture;
const databases: TestDatabase[] = [];

beforeAll(async () => {
  mock = await startMock({ flavor: 'phprank', rateLimit: 1_000_000 });
});
afterAll(async () => {
  await mock?.close();
  await Promise.all(databases.map((database) => database.close()));
});

/** A history of its own for each call: a SQLite file, or a fresh PostgreSQL database. */
const STORES = [
  { name: 'sqlite', history: async () => join(scratch(), 'history.db'), skip: false },
  {
    name: 'postgres',
    history: async () => {
      const database = await startTestDatabase();
      databases.push(database);
      return database.url;
    },
    skip: pgMissing !== undefined && !process.env.CI,
  },
];

const rsapi = (...argv: string[]) => runInProcess({ argv, env: { ...mock.env, HOME: scratch() } });

/** Shard `i` of three of `urls`, written to a part in `folder`; its path. */
async function shard(folder: string, i: number, options: { pipeline?: string; urls?: string[]; name?: string; more?: string[] } = {}) {
  const part = join(folder, options.name ?? `part-${i}.gz`);
  const { pipeline = 'weekly-1', urls = URLS, more = [] } = options;
  const ran = await rsapi(
    'reports',
    'create',
    ...urls,
    '--existing',
    'skip',
    '--shard',
    `${i}/3`,
    '--part',
    part,
    '--pipeline',
    pipeline,
    '-o',
    'ndjson',
    ...more,
  );
  expect(ran.stderr).toContain(`wrote shard ${i}/3 of pipeline ${pipeline}`);
  return part;
}

async function threeParts(folder: string, options: { pipeline?: string; more?: string[] } = {}): Promise<string[]> {
  return [await shard(folder, 1, options), await shard(folder, 2, options), await shard(folder, 3, options)];
}

/** The runs a history holds (none: a SQLite file never made). */
async function runsOf(history: string): Promise<{ id: number; shard: string | null; complete: boolean; reports: number }[]> {
  const runs = await rsapi('history', 'runs', '--history', history, '--json');
  if (runs.code === 4) return [];
  expect(runs.code).toBe(0);
  return JSON.parse(runs.stdout);
}

/** A run's pages as `history show --json` gives them. */
async function pagesOf(history: string, run: number): Promise<unknown[]> {
  const shown = await rsapi('history', 'show', String(run), '--history', history, '--json');
  expect(shown.code).toBe(0);
  return JSON.parse(shown.stdout);
}

/** Code Quality's findings, in a set order: what the verdict failed on. */
function findings(path: string): string[] {
  const issues = JSON.parse(readFileSync(path, 'utf8')) as { description: string; fingerprint: string; location: { path: string } }[];
  return issues.map((issue) => `${issue.location.path}|${issue.description}|${issue.fingerprint}`).sort();
}

describe.each(STORES)('history merge on $name', ({ history: newHistory, skip }) => {
  it.skipIf(skip)(
    'a site audited whole and in three merged shards: the same run, the same verdict, week after week',
    async () => {
      const folder = scratch();
      const whole = await newHistory();
      const merged = await newHistory();
      const gates = ['--min-score', '60', '--fail-on-new-failures'];
      for (const week of [1, 2]) {
        // The second week, pages changed: checks flip, scores follow (the mock's drift, repeatable for a page).
        mock.server.options.drift = week === 2 ? 0.4 : undefined;
        const alone = await rsapi(
          'reports',
          'create',
          ...URLS,
          '--existing',
          'refresh',
          '--record',
          '--history',
          whole,
          '--baseline',
          'last',
          ...gates,
          '--codequality',
          join(folder, `whole-${week}.json`),
          '-o',
          'ndjson',
        );
        // The shards read what the whole run read (--existing skip keeps each report as it is).
        const parts = await threeParts(folder, { pipeline: `weekly-${week}`, more: ['--min-score', '60'] });
        const joined = await rsapi(
          'history',
          'merge',
          ...parts,
          '--history',
          merged,
          ...gates,
          '--codequality',
          join(folder, `merged-${week}.json`),
          '-o',
          'ndjson',
        );
        expect(joined.code).toBe(alone.code);
        expect(findings(join(folder, `merged-${week}.json`))).toEqual(findings(join(folder, `whole-${week}.json`)));
        expect(
          joined.stdout
            .trim()
            .split('\n')
            .map((line) => JSON.parse(line).url)
            .sort(),
        ).toEqual(
          alone.stdout
            .trim()
            .split('\n')
            .map((line) => JSON.parse(line).url)
            .sort(),
        );
        const [wholeRun, mergedRun] = [(await runsOf(whole))[0], (await runsOf(merged))[0]];
        expect(mergedRun).toMatchObject({ shard: 'merged 3/3', complete: true, reports: URLS.length });
        expect(await pagesOf(merged, mergedRun?.id ?? 0)).toEqual(await pagesOf(whole, wholeRun?.id ?? 0));
      }
      // Week 2 judged something: the pages changed, and both said the same of it.
      expect(findings(join(folder, 'merged-2.json')).some((finding) => finding.includes('fails now; it passed in run 1'))).toBe(true);
      // One run a week in the merged history, never one a share.
      expect((await runsOf(merged)).map((run) => run.shard)).toEqual(['merged 3/3', 'merged 3/3']);
      // Piped, each row ends with its shares as stored (a run of no shares, an empty field).
      const piped = await rsapi('history', 'runs', '--history', merged, '-o', 'tsv');
      expect(
        piped.stdout
          .trimEnd()
          .split('\n')
          .map((line) => line.split('\t').at(-1)),
      ).toEqual(['merged 3/3', 'merged 3/3']);
      const unsharded = await rsapi('history', 'runs', '--history', whole, '-o', 'csv');
      expect(
        unsharded.stdout
          .trimEnd()
          .split('\r\n')
          .slice(1)
          .map((line) => line.endsWith(',')),
      ).toEqual([true, true]);
    },
    120_000,
  );

  it.skipIf(skip)(
    'a missing share is exit 12, each named, nothing recorded; --allow-partial records it incomplete, named in every file, never a baseline',
    async () => {
      const folder = scratch();
      const history = await newHistory();
      const [one, , three] = await threeParts(folder);
      const refused = await rsapi('history', 'merge', one as string, three as string, '--history', history);
      expect(refused.code).toBe(12);
      expect(refused.stderr).toContain('rsapi: shard 2/3 missing\n');
      expect(refused.stderr).toContain('nothing recorded');
      expect(await runsOf(history)).toEqual([]);

      const [summary, junit, html] = ['summary.md', 'rsapi.xml', 'run.html'].map((name) => join(folder, name)) as [string, string, string];
      const partial = await rsapi(
        'history',
        'merge',
        one as string,
        three as string,
        '--allow-partial',
        '--history',
        history,
        '--summary',
        summary,
        '--junit',
        junit,
        '--html',
        html,
      );
      expect(partial.code).toBe(0);
      expect(partial.stderr).toContain('shard 2/3 missing');
      expect(readFileSync(summary, 'utf8')).toContain('shard 2/3 missing');
      expect(readFileSync(junit, 'utf8')).toContain('<property name="shards.missing" value="shard 2/3 missing"/>');
      expect(readFileSync(html, 'utf8')).toContain('shard 2/3 missing');
      expect(await runsOf(history)).toMatchObject([{ shard: 'merged 2/3', complete: false }]);
      // An incomplete run is never the baseline: the next merge is still the job's first.
      const next = await rsapi('history', 'merge', ...(await threeParts(scratch(), { pipeline: 'weekly-2' })), '--history', history);
      expect(next.code).toBe(0);
      expect(next.stderr).toContain('nothing compared');
    },
    60_000,
  );

  it.skipIf(skip)(
    'a share given twice: the part written later stands, the other is named dropped',
    async () => {
      const folder = scratch();
      const history = await newHistory();
      const [one, two, three] = await threeParts(folder);
      const again = await shard(folder, 2, { name: 'part-2-again.gz' });
      const joined = await rsapi('history', 'merge', one as string, again, two as string, three as string, '--history', history);
      expect(joined.code).toBe(0);
      expect(joined.stderr).toMatch(new RegExp(`shard 2/3 given twice: dropped ${literal(two as string)} \\(written [^)]+\\), kept ${literal(again)}`));
      expect(await runsOf(history)).toMatchObject([{ shard: 'merged 3/3', complete: true, reports: URLS.length }]);
    },
    60_000,
  );

  it.skipIf(skip)(
    'parts of two pipelines, of two inputs, cut short, from a newer rsapi, or no part at all: exit 2, each named, nothing recorded',
    async () => {
      const folder = scratch();
      const history = await newHistory();
      const [one, two, three] = (await threeParts(folder)) as [string, string, string];
      const otherPipeline = await shard(folder, 2, { pipeline: 'weekly-9', name: 'other-pipeline.gz' });
      const otherInput = await shard(folder, 2, { urls: [...URLS, 'https://shop.example/new'], name: 'other-input.gz' });
      const text = gunzipSync(readFileSync(two)).toString('utf8');
      const bytes = readFileSync(two);
      const truncated = join(folder, 'truncated.gz');
      writeFileSync(truncated, bytes.subarray(0, Math.floor(bytes.length / 2)));
      const noEnd = join(folder, 'no-end.gz');
      writeFileSync(noEnd, gzipSync(text.trimEnd().split('\n').slice(0, -1).join('\n')));
      const newer = join(folder, 'newer.gz');
      writeFileSync(newer, gzipSync(text.replace('"version":1', '"version":99')));
      const notPart = join(folder, 'urls.txt');
      writeFileSync(notPart, `${URLS.join('\n')}\n`);

      const cases: [string[], RegExp][] = [
        [[one, otherPipeline, three], new RegExp(`${literal(otherPipeline)}: pipeline weekly-9, where ${literal(one)} has weekly-1`)],
        [
          [one, otherInput, three],
          new RegExp(`${literal(otherInput)}: job .*; input [0-9a-f]{12} \\(13 URLs\\), where ${literal(one)} has [0-9a-f]{12} \\(12 URLs\\)`),
        ],
        [[one, truncated, three], new RegExp(`${literal(truncated)}: cut short`)],
        [[one, noEnd, three], new RegExp(`${literal(noEnd)}: cut short: no end line`)],
        [
          [one, newer, three],
          new RegExp(`${literal(newer)}: a part of format version 99 \\(written by rsapi [^)]+\\); this rsapi reads version 1: update rsapi`),
        ],
        [[one, notPart, three], new RegExp(`${literal(notPart)}: not a part of a sharded run`)],
      ];
      for (const [parts, named] of cases) {
        const refused = await rsapi('history', 'merge', ...parts, '--history', history);
        expect(refused.code, parts.join(' ')).toBe(2);
        expect(refused.stderr).toMatch(named);
        expect(refused.stderr).toContain('nothing recorded');
      }
      // Two offenders at once: both named.
      const both = await rsapi('history', 'merge', one, truncated, newer, '--history', history);
      expect(both.stderr).toContain(`${truncated}: cut short`);
      expect(both.stderr).toContain(`${newer}: a part of format version 99`);
      expect(await runsOf(history)).toEqual([]);
    },
    60_000,
  );
});

describe.skipIf(pgMissing !== undefined && !process.env.CI)(
  'a pipeline recorded into one run of a PostgreSQL history, closed by history merge --pipeline',
  () => {
    /** Shard `i` of three recorded into pipeline `pipeline`'s run of `history`. */
    const recordShard = (history: string, pipeline: string, i: number, more: string[] = []) =>
      rsapi(
        'reports',
        'create',
        ...URLS,
        '--existing',
        'skip',
        '--shard',
        `${i}/3`,
        '--record',
        '--pipeline',
        pipeline,
        '--history',
        history,
        '-o',
        'ndjson',
        ...more,
      );

    /** A run as `history runs --json` gives it, without what differs between two histories (ids, times, CI). */
    const runFacts = (run: Record<string, unknown> | undefined) => {
      const { id, started, recorded, finished, ...rest } = run ?? {};
      return rest;
    };

    it('three shards recorded into one run, or written to three parts and merged: the same run, the same verdict, week after week', async () => {
      if (pgMissing) throw new Error(`PostgreSQL tests cannot be skipped under CI: ${pgMissing}`);
      const folder = scratch();
      const [byParts, byPipeline] = await Promise.all([startTestDatabase(), startTestDatabase()]);
      databases.push(byParts, byPipeline);
      const gates = ['--min-score', '60', '--fail-on-new-failures'];
      for (const week of [1, 2]) {
        // The site changes in week 2 (the mock's drift): refreshed once, then both routes read the same reports.
        mock.server.options.drift = week === 2 ? 0.4 : undefined;
        expect((await rsapi('reports', 'create', ...URLS, '--existing', 'refresh', '-q')).code).toBe(0);
        const parts = await threeParts(folder, { pipeline: `parts-${week}`, more: ['--min-score', '60'] });
        const files = await rsapi('history', 'merge', ...parts, '--history', byParts.url, ...gates, '--codequality', join(folder, `parts-${week}.json`));
        for (const i of [1, 2, 3]) {
          const shardRun = await recordShard(byPipeline.url, `pipe-${week}`, i, ['--min-score', '60']);
          expect(shardRun.stderr).toContain(`recorded shard ${i}/3 into run`);
          expect(shardRun.stderr).not.toContain('nothing compared');
        }
        const closed = await rsapi(
          'history',
          'merge',
          '--pipeline',
          `pipe-${week}`,
          '--history',
          byPipeline.url,
          ...gates,
          '--codequality',
          join(folder, `pipe-${week}.json`),
        );
        expect(closed.code, closed.stderr).toBe(files.code);
        expect(findings(join(folder, `pipe-${week}.json`))).toEqual(findings(join(folder, `parts-${week}.json`)));
        const [partsRun, pipelineRun] = [(await runsOf(byParts.url))[0], (await runsOf(byPipeline.url))[0]];
        expect(pipelineRun).toMatchObject({ shard: 'merged 3/3', complete: true, reports: URLS.length });
        expect(runFacts(pipelineRun as never)).toEqual(runFacts(partsRun as never));
        expect(await pagesOf(byPipeline.url, pipelineRun?.id ?? 0)).toEqual(await pagesOf(byParts.url, partsRun?.id ?? 0));
      }
      expect(findings(join(folder, 'pipe-2.json')).some((finding) => finding.includes('fails now; it passed in run 1'))).toBe(true);
      expect((await runsOf(byPipeline.url)).map((run) => run.shard)).toEqual(['merged 3/3', 'merged 3/3']);
      // Closed once: a second merge of the pipeline is refused.
      const again = await rsapi('history', 'merge', '--pipeline', 'pipe-2', '--history', byPipeline.url);
      expect(again.code).toBe(2);
      expect(again.stderr).toContain('pipeline pipe-2 was merged already, into run 2');
    }, 120_000);

    it('a shard missing is exit 12, named, and the run stays open; the shard run again completes it', async () => {
      if (pgMissing) throw new Error(`PostgreSQL tests cannot be skipped under CI: ${pgMissing}`);
      const database = await startTestDatabase();
      databases.push(database);
      for (const i of [1, 3]) expect((await recordShard(database.url, 'weekly-7', i)).code).toBe(0);
      const refused = await rsapi('history', 'merge', '--pipeline', 'weekly-7', '--history', database.url);
      expect(refused.code).toBe(12);
      expect(refused.stderr).toContain('rsapi: shard 2/3 missing\n');
      expect(refused.stderr).toContain('nothing recorded');
      expect(await runsOf(database.url)).toMatchObject([{ shard: 'merged 2/3', complete: false }]);
      expect((await recordShard(database.url, 'weekly-7', 2)).code).toBe(0);
      const merged = await rsapi('history', 'merge', '--pipeline', 'weekly-7', '--history', database.url);
      expect(merged.code, merged.stderr).toBe(0);
      expect(await runsOf(database.url)).toMatchObject([{ shard: 'merged 3/3', complete: true, reports: URLS.length }]);
      // A pipeline no shard recorded into: exit 4.
      expect((await rsapi('history', 'merge', '--pipeline', 'weekly-8', '--history', database.url)).code).toBe(4);
    }, 60_000);

    it('shards starting at once make one run of their pipeline', async () => {
      if (pgMissing) throw new Error(`PostgreSQL tests cannot be skipped under CI: ${pgMissing}`);
      const database = await startTestDatabase();
      databases.push(database);
      for (const round of [1, 2, 3]) {
        const ran = await Promise.all([1, 2, 3].map((i) => recordShard(database.url, `race-${round}`, i)));
        expect(ran.map((one) => one.code)).toEqual([0, 0, 0]);
        expect((await runsOf(database.url)).filter((run) => run.shard?.startsWith('merged'))).toHaveLength(round);
        const merged = await rsapi('history', 'merge', '--pipeline', `race-${round}`, '--history', database.url);
        expect(merged.code, merged.stderr).toBe(0);
      }
      expect((await runsOf(database.url)).map((run) => run.shard)).toEqual(['merged 3/3', 'merged 3/3', 'merged 3/3']);
    }, 60_000);

    it('rsapi audit --pipeline --shard on a PostgreSQL history: the shares run side by side into one run of the job', async () => {
      if (pgMissing) throw new Error(`PostgreSQL tests cannot be skipped under CI: ${pgMissing}`);
      const database = await startTestDatabase();
      databases.push(database);
      const config = join(scratch(), 'rsapi.config.json');
      writeFileSync(config, JSON.stringify({ audit: { job: 'weekly', urls: URLS, history: database.url } }));
      const ran = await Promise.all([1, 2, 3].map((i) => rsapi('audit', '--config', config, '--shard', `${i}/3`, '--pipeline', 'audit-1')));
      expect(ran.map((one) => one.code)).toEqual([0, 0, 0]);
      const merged = await rsapi('history', 'merge', '--pipeline', 'audit-1', '--history', database.url);
      expect(merged.code, merged.stderr).toBe(0);
      expect(await runsOf(database.url)).toMatchObject([{ shard: 'merged 3/3', complete: true, reports: URLS.length, selection: { job: 'weekly' } }]);
    }, 60_000);
  },
);

describe('a pipeline recorded into one run: refused where it cannot be', () => {
  it('on SQLite, --record --pipeline and history merge --pipeline are exit 2, naming the part files', async () => {
    const history = join(scratch(), 'history.db');
    const shardRun = await rsapi('reports', 'create', ...URLS, '--shard', '1/3', '--record', '--pipeline', 'p-1', '--history', history);
    expect(shardRun.code).toBe(2);
    expect(shardRun.stderr).toContain("a pipeline's shards record into one run only on a shared PostgreSQL history; use --part files");
    const merge = await rsapi('history', 'merge', '--pipeline', 'p-1', '--history', history);
    expect(merge.code).toBe(2);
    expect(merge.stderr).toContain("a pipeline's shards record into one run only on a shared PostgreSQL history; use --part files");
    expect(await runsOf(history)).toEqual([]);
  });

  it('--pipeline with neither --part nor --record, parts and --pipeline both, or nothing to merge: exit 2', async () => {
    expect((await rsapi('reports', 'create', ...URLS, '--shard', '1/3', '--pipeline', 'p-1')).code).toBe(2);
    expect((await rsapi('history', 'merge', 'a.gz', '--pipeline', 'p-1', '--history', 'postgres://u@127.0.0.1:1/x')).code).toBe(2);
    expect((await rsapi('history', 'merge', '--history', 'postgres://u@127.0.0.1:1/x')).code).toBe(2);
  });
});

describe('rsapi audit --shard --part, then --merge', () => {
  it("three audit shards merged with the file's settings make one run of the audit's job; a part of another job is refused", async () => {
    const folder = scratch();
    const history = join(folder, 'history.db');
    const config = join(folder, 'rsapi.config.json');
    writeFileSync(config, JSON.stringify({ audit: { job: 'weekly', urls: URLS, history, failOnNewFailures: true } }));
    const audit = (...argv: string[]) => rsapi('audit', '--config', config, ...argv);
    const parts: string[] = [];
    for (const i of [1, 2, 3]) {
      const part = join(folder, `audit-${i}.gz`);
      const ran = await audit('--shard', `${i}/3`, '--part', part, '--pipeline', 'audit-1');
      expect(ran.code).toBe(0);
      expect(ran.stdout).toMatch(/^audit weekly: \d+ pages? audited \(not recorded\)/);
      parts.push(part);
    }
    const merged = await audit('--merge', ...parts, '--json');
    expect(merged.code).toBe(0);
    expect(JSON.parse(merged.stdout)).toMatchObject({ job: 'weekly', pages: URLS.length, input: URLS.length, run: 1 });
    expect(await runsOf(history)).toMatchObject([{ shard: 'merged 3/3', complete: true, reports: URLS.length }]);
    // A `reports create` part is of another command and job than the audit's.
    const stranger = await shard(folder, 1, { pipeline: 'audit-1' });
    const refused = await audit('--merge', stranger, ...parts.slice(1));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${stranger}: of \`reports create\``);
  }, 60_000);
});

describe('history merge: argv -> plan', () => {
  const plan = (...argv: string[]) =>
    planOf(['history', 'merge', ...argv], (ctx, opts: never, [parts]: [string[]]) => planHistoryMerge(ctx, { ...(opts as object), parts } as never));

  it('compares with the last run of the job unless told otherwise; the baseline gates need no --baseline', async () => {
    const planned = await plan('a.gz', 'b.gz', '--max-drop', '5', '--fail-on-new-failures');
    expect(planned).toMatchObject({ parts: ['a.gz', 'b.gz'], allowPartial: false, judged: true });
    expect(planned.ci).toMatchObject({ baseline: 'last', historyBaseline: { kind: 'last' }, maxDrop: 5, failOnNewFailures: true });
    expect((await plan('a.gz', '--baseline', 'run:4', '--allow-partial')).ci.historyBaseline).toEqual({ kind: 'run', id: 4 });
  });

  it('a file the merge writes may not be one of its parts (exit 2, before any part is read)', async () => {
    const part = join(scratch(), 'part-1.gz');
    await expect(plan(part, '--html', part)).rejects.toThrow(/--html/);
  });
});

function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
