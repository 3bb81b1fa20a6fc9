// The GitHub Action as the runner runs it (node action/dist/index.cjs, INPUT_* and GITHUB_* variables, a fresh clone
// each week, a local bare repository as origin) against the phpRank mock: four weeks of history on the branch, two runs
// racing for it, a branch that lost the job's history, and the key in nothing it writes.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, Repository, runAction, type StepResult } from '../helpers/action.js';
import { mockPerTest, type MockFixture } from '../helpers/mock.js';
import { scratchMaker } from '../helpers/scratch.js';

const KEY = 'action-test-key-7d41c0ffee93';
const mock = mockPerTest({ flavor: 'phprank', rateLimit: 0, seed: 0, apiKey: KEY });
const scratch = scratchMaker('rsapi-action-');

const PAGES = ['https://shop.example.org/', 'https://shop.example.org/a', 'https://shop.example.org/b'];

function site(pages = PAGES): Record<string, string> {
  return { 'rsapi.config.json': `${JSON.stringify({ audit: { job: 'shop', urls: pages, failOnNewFailures: true } }, null, 2)}\n` };
}

function inputsFor(service: MockFixture, more: Record<string, string> = {}): Record<string, string> {
  return { 'base-url': service.server.url, 'api-key': KEY, ...more };
}

/** The step's log as the runner shows it: its `::add-mask::` line consumed (the runner takes it, and masks the key). */
function log(step: StepResult): string {
  return `${step.stdout}\n${step.stderr}`;
}

/** The key occurs nowhere the step wrote: its log (but the mask command), outputs, summary, report, the origin's objects. */
function expectNoKey(step: StepResult, repo: Repository): void {
  const [first, ...rest] = step.stdout.split('\n');
  expect(first).toBe(`::add-mask::${KEY}`);
  expect(rest.join('\n')).not.toContain(KEY);
  expect(step.stderr).not.toContain(KEY);
  expect(JSON.stringify(step.outputs)).not.toContain(KEY);
  expect(step.summary).not.toContain(KEY);
  if (step.outputs.report) expect(readFileSync(step.outputs.report, 'utf8')).not.toContain(KEY);
  expect(repo.objects().includes(KEY)).toBe(false);
}

describe('the action, week by week', () => {
  it('four weeks: a first run (a warning), two passing weeks, a failing week kept on the branch; baseline-id is the run before', async () => {
    const service = await mock();
    const repo = new Repository(scratch(), site());

    // Week 1: no branch yet. A first run: a warning, no baseline, the branch made with the run.
    const first = await runAction(repo, inputsFor(service));
    expect(first.code, log(first)).toBe(0);
    expect(first.outputs).toMatchObject({ 'run-id': '1', 'baseline-id': '', 'exit-code': '0', pages: '3', 'new-failures': '0', dashboard: 'index.html' });
    expect(log(first)).toMatch(/^::warning title=rsapi::first run of job shop: nothing compared/m);
    expect(first.summary).toContain('first run of job shop: nothing compared');
    expect(repo.commits()).toEqual(['rsapi audit: run 1 of job shop (exit 0)']);
    expect((await repo.runs()).map((run) => run.id)).toEqual([1]);
    expectNoKey(first, repo);

    // Weeks 2 and 3: compared with the run before; week 3's file lists a page more and one less (new and vanished).
    const second = await runAction(repo, inputsFor(service));
    expect(second.code, log(second)).toBe(0);
    expect(second.outputs).toMatchObject({ 'run-id': '2', 'baseline-id': '1', 'exit-code': '0', pages: '3', 'new-pages': '0', 'vanished-pages': '0' });
    expect(log(second)).not.toContain('::warning');
    expect(second.summary).not.toContain('first run');
    repo.commit(site([PAGES[0]!, PAGES[1]!, 'https://shop.example.org/c']), 'b is gone, c is new');
    const third = await runAction(repo, inputsFor(service));
    expect(third.code, log(third)).toBe(0);
    expect(third.outputs).toMatchObject({ 'run-id': '3', 'baseline-id': '2', 'exit-code': '0', 'new-pages': '1', 'vanished-pages': '1' });
    expect(log(third)).toMatch(/^::warning title=rsapi%3A shop\.example\.org\/b::vanished since run 2/m);
    expect((await repo.runs()).map((run) => run.id)).toEqual([3, 2, 1]);

    // Week 4: every check of every page flips. The gate fails (exit 10), one ::error a page, and the week is kept.
    service.server.options.drift = 1;
    const fourth = await runAction(repo, inputsFor(service, { html: 'weekly.html' }));
    expect(fourth.code, log(fourth)).toBe(10);
    expect(fourth.outputs).toMatchObject({ 'run-id': '4', 'baseline-id': '3', 'exit-code': '10' });
    expect(Number(fourth.outputs['new-failures'])).toBeGreaterThan(0);
    const errors = log(fourth).match(/^::error title=rsapi%3A [^:]+::newly failing: .+$/gm) ?? [];
    expect(errors).toHaveLength(Number(fourth.outputs['new-failures']));
    expect(fourth.summary).toMatch(/newly failing/i);
    expect(fourth.outputs.report).toBe(join(fourth.workspace, 'weekly.html'));
    expect(existsSync(fourth.outputs.report!)).toBe(true);
    const runs = await repo.runs();
    expect(runs.map((run) => [run.id, run.exit])).toEqual([
      [4, 10],
      [3, 0],
      [2, 0],
      [1, 0],
    ]);
    expect(repo.commits()[0]).toBe('rsapi audit: run 4 of job shop (exit 10)');
    // The dashboard on the branch shows every run.
    const branch = git(repo.origin, 'show', 'rsapi-history:index.html');
    expect(branch).toContain('<html');
    for (const step of [second, third, fourth]) expectNoKey(step, repo);
  }, 180_000);
});

describe('the history branch', () => {
  it('two runs pushing at once: the one refused replays its run on the other, and both runs end up in the history', async () => {
    const service = await mock();
    const repo = new Repository(scratch(), site());
    expect((await runAction(repo, inputsFor(service))).code).toBe(0);
    // origin holds the first two pushes that arrive until the test lets each go: the two runs fetched the same branch.
    const gates = join(repo.dir, 'gates');
    const hook = join(repo.origin, 'hooks', 'pre-receive');
    writeFileSync(
      hook,
      `#!/bin/sh\ncat >/dev/null\nfor i in 1 2; do\n  if mkdir "${gates}-arrived-$i" 2>/dev/null; then\n    while [ ! -e "${gates}-go-$i" ]; do sleep 0.05; done\n    exit 0\n  fi\ndone\nexit 0\n`,
      { mode: 0o755 },
    );
    const steps = [runAction(repo, inputsFor(service)), runAction(repo, inputsFor(service))];
    await until(() => existsSync(`${gates}-arrived-1`) && existsSync(`${gates}-arrived-2`));
    const tip = git(repo.origin, 'rev-parse', 'rsapi-history');
    writeFileSync(`${gates}-go-1`, '');
    await until(() => git(repo.origin, 'rev-parse', 'rsapi-history') !== tip);
    writeFileSync(`${gates}-go-2`, '');
    const [a, b] = await Promise.all(steps);
    expect(a!.code, log(a!)).toBe(0);
    expect(b!.code, log(b!)).toBe(0);
    const replayed = [a!, b!].filter((step) => log(step).includes('moved since it was fetched'));
    expect(replayed).toHaveLength(1);
    expect(new Set([a!.outputs['run-id'], b!.outputs['run-id']])).toEqual(new Set(['2', '3']));
    expect(a!.outputs['baseline-id']).toBe('1');
    expect(b!.outputs['baseline-id']).toBe('1');
    // The replayed run keeps the place its first history gave it (runs are ordered as recorded): both are there.
    expect((await repo.runs()).map((run) => run.id).sort()).toEqual([1, 2, 3]);
    expect(repo.commits().sort()).toEqual([
      'rsapi audit: run 1 of job shop (exit 0)',
      'rsapi audit: run 2 of job shop (exit 0)',
      'rsapi audit: run 3 of job shop (exit 0)',
    ]);
  }, 120_000);

  it("a branch that exists but lost the job's history fails the step (require-baseline auto): exit 4, the branch left as it was", async () => {
    const service = await mock();
    const repo = new Repository(scratch(), site());
    expect((await runAction(repo, inputsFor(service))).code).toBe(0);
    // Someone deleted the branch and pushed another in its place, without the history (a Pages setup, a reset).
    git(repo.origin, 'branch', '-D', 'rsapi-history');
    const work = repo.clone();
    git(work, 'checkout', '--quiet', '--orphan', 'rsapi-history');
    git(work, 'rm', '--quiet', '-r', '-f', '.');
    writeFileSync(join(work, 'README.md'), 'the site\n');
    git(work, 'add', 'README.md');
    git(work, 'commit', '--quiet', '-m', 'a new branch');
    git(work, 'push', '--quiet', 'origin', 'rsapi-history');
    const step = await runAction(repo, inputsFor(service));
    expect(step.code, log(step)).toBe(4);
    expect(step.outputs['exit-code']).toBe('4');
    expect(step.stdout).toMatch(/^::error::rsapi audit exited 4/m);
    expect(log(step)).toContain('--require-baseline');
    expect(repo.commits()).toEqual(['a new branch']);
    // With require-baseline false, the same week starts the history again on that branch.
    const again = await runAction(repo, inputsFor(service, { 'require-baseline': 'false' }));
    expect(again.code, log(again)).toBe(0);
    expect(repo.commits()).toEqual(['rsapi audit: run 1 of job shop (exit 0)', 'a new branch']);
  }, 120_000);

  it('a branch deleted outright is a first run again: it passes, with the warnings that the history may have been lost', async () => {
    const service = await mock();
    const repo = new Repository(scratch(), site());
    expect((await runAction(repo, inputsFor(service))).code).toBe(0);
    git(repo.origin, 'branch', '-D', 'rsapi-history');
    const step = await runAction(repo, inputsFor(service));
    expect(step.code, log(step)).toBe(0);
    expect(log(step)).toMatch(/^::warning title=rsapi::first run of job shop: nothing compared/m);
    expect(log(step)).toMatch(/^::warning title=rsapi::3 of 3 pages had a report already: if job shop ran before, its history may have been lost/m);
    expect(step.outputs['baseline-id']).toBe('');
  }, 120_000);
});

async function until(condition: () => boolean, timeoutMs = 60_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out waiting for the condition');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
