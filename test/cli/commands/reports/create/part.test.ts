// `--part FILE` and `--pipeline KEY` of `reports create` (part.ts): the pipeline from the flag, RSAPI_PIPELINE or the CI's
// run, refused when none; --record and a baseline refused with a part; the share no part of the job; the part written
// whole and read back.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { planReportsCreate, type ReportsCreatePlan } from '../../../../../src/cli/commands/reports/create/plan.js';
import { readPart } from '../../../../../src/history/parts/part.js';
import { tempDir } from '../../../../helpers/cli.js';
import { mockPerTest } from '../../../../helpers/mock.js';
import { planOf } from '../../../../helpers/plan.js';
import { runInProcess } from '../../../../helpers/run.js';

const scratch = tempDir('rsapi-create-part-');
afterAll(() => scratch.cleanup());
const mock = mockPerTest({ flavor: 'phprank', rateLimit: 1_000_000 });

const ENV = { RSAPI_BASE_URL: 'http://127.0.0.1:9', RSAPI_API_KEY: 'plan-key-0123' };

async function plan(env: Record<string, string | undefined>, ...argv: string[]): Promise<ReportsCreatePlan> {
  return planOf(
    ['reports', 'create', 'https://example.com/', ...argv],
    (ctx, opts: never, [urls]: [string[]]) => planReportsCreate(ctx, { ...(opts as object), urls } as never),
    { ...ENV, ...env },
  );
}

describe('reports create --part: argv -> plan', () => {
  const part = () => join(scratch.path, 'part.gz');

  it.each([
    { name: '--pipeline', env: {}, argv: ['--pipeline', 'weekly-12'], pipeline: 'weekly-12' },
    { name: 'RSAPI_PIPELINE', env: { RSAPI_PIPELINE: 'nightly' }, argv: [], pipeline: 'nightly' },
    {
      name: "GitHub's run, without the attempt",
      env: { GITHUB_REPOSITORY: 'acme/site', GITHUB_RUN_ID: '4711', GITHUB_RUN_ATTEMPT: '2' },
      argv: [],
      pipeline: 'github:acme/site#4711',
    },
    { name: "GitLab's pipeline", env: { CI_PIPELINE_ID: '99', CI_PROJECT_PATH: 'acme/site' }, argv: [], pipeline: 'gitlab:acme/site#99' },
  ])('the pipeline from $name', async ({ env, argv, pipeline }) => {
    const planned = await plan(env, '--shard', '2/3', '--part', part(), ...argv);
    expect(planned.part).toEqual({ path: part(), pipeline, shard: { index: 2, count: 3 } });
    // The share is no part of the job: every share's job is the unsharded run's, and nothing is recorded.
    expect(planned.record.job.shard).toBeUndefined();
    expect(planned.record.history.record).toBeUndefined();
  });

  it.each([
    { name: 'no pipeline anywhere', argv: [], error: /^--part needs the pipeline its parts belong to$/ },
    { name: '--record', argv: ['--pipeline', 'p', '--record'], error: /^--part writes the share to a file instead of recording it$/ },
    { name: '--baseline', argv: ['--pipeline', 'p', '--baseline', 'last'], error: /^a shard with --part compares with no baseline/ },
  ])('refused (exit 2) with $name', async ({ argv, error }) => {
    await expect(plan({}, '--shard', '1/3', '--part', part(), ...argv)).rejects.toThrow(error);
  });

  it('--pipeline without --part is refused; without --part the share stays part of the job', async () => {
    await expect(plan({}, '--pipeline', 'p')).rejects.toThrow(/^--pipeline names the pipeline of a run part/);
    expect((await plan({}, '--shard', '2/3')).record.job.shard).toBe('2/3');
  });
});

describe('reports create --part: the part written', () => {
  it("holds the share's URLs with their reports, the job of the unsharded run and the input's digest; no temporary file is left", async () => {
    const { env } = await mock();
    const folder = tempDir('rsapi-part-run-');
    try {
      const urls = ['https://shop.example/a', 'https://shop.example/b', 'https://shop.example/c', 'https://shop.example/d'];
      const path = join(folder.path, 'part-1.gz');
      const ran = await runInProcess({ argv: ['reports', 'create', ...urls, '--shard', '1/2', '--part', path, '--pipeline', 'p-1', '-o', 'ndjson'], env });
      expect(ran.code).toBe(0);
      expect(readdirSync(folder.path)).toEqual(['part-1.gz']);
      const read = await readPart(path);
      if (!('header' in read)) throw new Error(read.problem);
      const whole = await runInProcess({ argv: ['reports', 'create', ...urls, '--existing', 'skip', '--record', '--history', join(folder.path, 'h.db')], env });
      expect(whole.code).toBe(0);
      const runs = JSON.parse((await runInProcess({ argv: ['history', 'runs', '--history', join(folder.path, 'h.db'), '--json'], env })).stdout);
      expect(read.header).toMatchObject({ format: 'rsapi-part', version: 1, pipeline: 'p-1', command: 'reports create', shard: '1/2', input: { urls: 4 } });
      expect(JSON.parse(read.header.job)).toEqual(runs[0].selection);
      expect(read.entries.length).toBe(ran.stdout.trim().split('\n').length);
      expect(read.entries.every((entry) => entry.status === 'created' && entry.report !== undefined)).toBe(true);
      expect(read.end).toEqual({ end: true, urls: read.entries.length, code: 0 });
    } finally {
      folder.cleanup();
    }
  });

  it('a part in a folder that is not there is refused (exit 2) before anything is sent', async () => {
    const { env, server } = await mock();
    const folder = tempDir('rsapi-part-fail-');
    try {
      const path = join(folder.path, 'part.gz');
      const ran = await runInProcess({
        argv: ['reports', 'create', 'https://shop.example/a', '--part', join(folder.path, 'missing', 'part.gz'), '--pipeline', 'p'],
        env,
      });
      expect(ran.code).toBe(2);
      expect(ran.stderr).toMatch(/^rsapi: cannot write --part to /);
      expect(existsSync(path)).toBe(false);
      expect(server.requests).toEqual([]);
    } finally {
      folder.cleanup();
    }
  });
});
