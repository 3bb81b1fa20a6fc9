// `reports create`'s plan (planReportsCreate): argv -> what the run will do, with no server, no stdout and no process.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { planReportsCreate, type ReportsCreatePlan } from '../../../../../src/cli/commands/reports/create/plan.js';
import { tempDir } from '../../../../helpers/cli.js';
import { planOf } from '../../../../helpers/plan.js';

const scratch = tempDir('rsapi-create-plan-');
afterAll(() => scratch.cleanup());

const planned: ReportsCreatePlan[] = [];
afterAll(() => {
  for (const plan of planned) plan.journal?.lock?.release();
});

async function plan(...argv: string[]): Promise<ReportsCreatePlan> {
  const made = await planOf(['reports', 'create', ...argv], (ctx, opts: never, [urls]: [string[]]) =>
    planReportsCreate(ctx, { ...(opts as object), urls } as never),
  );
  planned.push(made);
  return made;
}

describe('reports create: argv -> plan', () => {
  it.each([
    { name: 'one URL argument: one object out', argv: ['https://example.com/'], alwaysList: false },
    { name: 'two URL arguments: a list', argv: ['https://example.com/', 'https://example.com/a'], alwaysList: true },
    { name: 'a file of one URL is still a list', argv: ['--from-file', '-'], alwaysList: true },
    { name: 'a share of one URL is a list', argv: ['https://example.com/', '--shard', '1/2'], alwaysList: true },
  ])('lists in, a list out: $name', async ({ argv, alwaysList }) => {
    expect((await plan(...argv)).alwaysList).toBe(alwaysList);
  });

  it('an empty --from-file is nothing to do; no input named at all is a usage error', async () => {
    expect((await plan('--from-file', '-')).emptyIsNoOp).toBe(true);
    expect((await plan('https://example.com/')).emptyIsNoOp).toBe(false);
    expect((await plan('--from-sitemap', 'https://example.com/sitemap.xml')).emptyIsNoOp).toBe(false);
    await expect(plan()).rejects.toThrow(/^no URL to create a report for$/);
  });

  it('the selection is compiled once, in the plan: the run matches with the globs it holds', async () => {
    const { selection } = await plan('--from-file', '-', '--include', 'example.com/blog/**', '--exclude', 'example.com/blog/tag/**', '--max-urls', '5');
    const [include] = selection.include;
    const [exclude] = selection.exclude;
    expect(include?.('example.com/blog/a')).toBe(true);
    expect(include?.('example.com/shop')).toBe(false);
    expect(exclude?.('example.com/blog/tag/x')).toBe(true);
    expect(selection.maxUrls).toBe(5);
    await expect(plan('--from-file', '-', '--include', '[')).rejects.toThrow(/--include/);
  });

  it('the gate and whether anything is judged: a baseline gate judges, though no gate flag is given', async () => {
    const plain = await plan('https://example.com/');
    expect(plain.judged).toBe(false);
    expect(plain.gate).toMatchObject({ failOn: undefined, selection: { what: 'the input URLs' } });
    expect((await plan('https://example.com/', '--fail-on', 'bad')).gate.failOn).toBe('bad');
    const baselineGate = await plan('https://example.com/', '--baseline', 'last', '--max-drop', '5');
    expect(baselineGate.judged).toBe(true);
    expect(baselineGate.gate.failOn).toBeUndefined();
    expect(baselineGate.ci).toMatchObject({ baseline: 'last', maxDrop: 5, historyBaseline: { kind: 'last' } });
  });

  it('the CI files carry what chose the reports; none asked is no CI plan', async () => {
    expect((await plan('https://example.com/')).ci).toBeUndefined();
    const junit = join(scratch.path, 'run.xml');
    const withFiles = await plan('--from-sitemap', 'https://example.com/sitemap.xml', '--junit', junit, '--allow-empty');
    expect(withFiles.ci).toMatchObject({ junit, fromSitemap: ['https://example.com/sitemap.xml'], allowEmpty: true });
    await expect(plan('https://example.com/', '--junit', join(scratch.path, 'none', 'run.xml'))).rejects.toThrow(/no such file/);
  });

  it('the journal: its lock is taken by the plan (none for --dry-run), and ended by the run unless it is kept', async () => {
    const journal = join(scratch.path, 'run.journal');
    const held = await plan('https://example.com/', '--journal', journal);
    expect(held.journal).toMatchObject({ path: journal, ends: true });
    expect(existsSync(`${journal}.lock`)).toBe(true);
    held.journal?.lock?.release();
    expect(existsSync(`${journal}.lock`)).toBe(false);
    await expect(plan('https://a.example/', '--journal', join(scratch.path, 'missing-dir', 'j'))).rejects.toThrow(
      /^cannot write --journal to .*j: no such file$/,
    );
    const dry = await plan('https://example.com/', '--journal', journal, '--dry-run');
    expect(dry.dryRun).toBe(true);
    expect(dry.journal?.lock).toBeUndefined();
  });

  it("the job's source, the history flags, the password's source and the run's settings", async () => {
    const made = await plan(
      ...['--from-sitemap', 'https://example.com/sitemap.xml', '--include', 'example.com/blog/**', '--shard', '2/3', '--job', 'weekly', '--record'],
      ...['--existing', 'refresh', '--concurrency', '8', '--privacy', 'password', '--password-file', join(scratch.path, 'pass')],
    );
    expect(made.record).toEqual({
      history: { record: true, history: undefined, job: 'weekly' },
      job: {
        urls: [],
        fromFile: undefined,
        fromSitemap: ['https://example.com/sitemap.xml'],
        include: ['example.com/blog/**'],
        exclude: undefined,
        maxUrls: undefined,
        shard: '2/3',
      },
    });
    expect(made.privacy).toEqual({ privacy: 2, passwordStdin: undefined, passwordFile: join(scratch.path, 'pass') });
    expect(made).toMatchObject({ command: 'reports create', existing: 'refresh', concurrency: 8, shard: { index: 2, count: 3 } });
  });

  it('a usage error is thrown by the plan, before anything is read or sent', async () => {
    await expect(plan('--from-file', '-', '--privacy', 'password', '--password-stdin')).rejects.toThrow(/both want standard input/);
    await expect(plan('https://example.com/', '--password-stdin')).rejects.toThrow(/a password goes only with --privacy password/);
    await expect(plan('--assert', 'https://example.com/')).rejects.toThrow(/--assert took https:\/\/example.com\/ for its file/);
  });
});
