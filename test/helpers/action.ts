// Running the GitHub Action as the runner does: `node action/dist/index.cjs` (action.yml's `main`), its inputs as
// INPUT_* variables (action.yml's defaults for those not given), GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files, and a
// fresh clone of a local bare repository (origin) as GITHUB_WORKSPACE; plus that repository and its history branch.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { cleanEnv, NODE, runCli } from './cli.js';

export const ROOT = resolve(import.meta.dirname, '../..');

/** action.yml, as the runner reads it. */
export interface ActionYaml {
  inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  outputs: Record<string, { description: string }>;
  runs: { using: string; main: string };
}

export function actionYaml(): ActionYaml {
  return parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as ActionYaml;
}

/** What one step of the action left: its exit code, log, outputs and job summary. */
export interface StepResult {
  code: number | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
  workspace: string;
}

const IDENTITY = { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.org', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.org' };

/** `git ARGS` in `cwd`, its stdout. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, ...IDENTITY }, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** A repository standing in for the user's: a bare origin whose main branch holds `files`. */
export class Repository {
  readonly origin: string;
  private clones = 0;

  constructor(
    readonly dir: string,
    files: Record<string, string>,
  ) {
    this.origin = join(dir, 'origin.git');
    git(dir, 'init', '--quiet', '--bare', '--initial-branch=main', this.origin);
    this.commit(files, 'the site');
  }

  /** Commits `files` on main (a user's change between two weeks). */
  commit(files: Record<string, string>, message: string): void {
    const work = this.clone();
    for (const [name, content] of Object.entries(files)) writeFileSync(join(work, name), content);
    git(work, 'add', '--all');
    git(work, 'commit', '--quiet', '-m', message);
    git(work, 'push', '--quiet', 'origin', 'HEAD:main');
  }

  /** A fresh clone of main, as actions/checkout makes on a hosted runner that keeps nothing. */
  clone(): string {
    const path = join(this.dir, `clone-${++this.clones}`);
    git(this.dir, 'clone', '--quiet', this.origin, path);
    return path;
  }

  /** The history branch's commit subjects, newest first ([] when there is no branch). */
  commits(branch = 'rsapi-history'): string[] {
    if (git(this.origin, 'branch', '--list', branch).trim() === '') return [];
    return git(this.origin, 'log', '--format=%s', branch).trim().split('\n');
  }

  /** The runs of the history on the branch, newest first, as `rsapi history runs --json` lists them. */
  async runs(branch = 'rsapi-history'): Promise<{ id: number; exit: number; selection: { job: string } }[]> {
    const work = join(this.dir, `branch-${++this.clones}`);
    git(this.dir, 'clone', '--quiet', '--branch', branch, this.origin, work);
    const listed = await runCli(['history', 'runs', '--json', '--history', join(work, 'history.db')], { env: { RSAPI_CONFIG_DIR: join(work, '.config') } });
    if (listed.code !== 0) throw new Error(`history runs exited ${listed.code}: ${listed.stderr}`);
    return JSON.parse(listed.stdout);
  }

  /** Every object of the origin (blobs, commits), as one buffer: what a secret must never be found in. */
  objects(): Buffer {
    return execFileSync('git', ['cat-file', '--batch-all-objects', '--batch'], { cwd: this.origin, maxBuffer: 256 << 20 });
  }
}

/** The GITHUB_OUTPUT file's values (`name<<DELIMITER`, the lines, `DELIMITER`, as @actions/core writes them). */
export function readOutputs(file: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = existsSync(file) ? readFileSync(file, 'utf8').split('\n') : [];
  for (let i = 0; i < lines.length; i++) {
    const match = /^([^<]+)<<(.+)$/.exec(lines[i]!);
    if (!match) continue;
    const end = lines.indexOf(match[2]!, i + 1);
    outputs[match[1]!] = lines.slice(i + 1, end).join('\n');
    i = end;
  }
  return outputs;
}

/**
 * The action's step in a fresh clone of `repo`, with `inputs` (and action.yml's defaults), `env` added. Nothing of the
 * machine's own GitHub, runner or rsapi variables leaks in.
 */
export function runAction(repo: Repository, inputs: Record<string, string>, env: Record<string, string> = {}): Promise<StepResult> {
  const workspace = repo.clone();
  const step = mkdtempSync(join(repo.dir, 'step-'));
  const files = { output: join(step, 'output'), summary: join(step, 'summary') };
  writeFileSync(files.output, '');
  writeFileSync(files.summary, '');
  mkdirSync(join(step, 'temp'));
  const variables: Record<string, string | undefined> = {};
  for (const name of Object.keys(process.env)) if (/^(GITHUB_|RUNNER_|INPUT_|ACTIONS_)/.test(name)) variables[name] = undefined;
  // The runner sets every input: the workflow's value, else action.yml's default, else ''. Names upper-cased, `-` kept.
  for (const [name, input] of Object.entries(actionYaml().inputs)) variables[`INPUT_${name.toUpperCase()}`] = inputs[name] ?? input.default ?? '';
  Object.assign(variables, {
    GITHUB_ACTIONS: 'true',
    GITHUB_WORKSPACE: workspace,
    GITHUB_OUTPUT: files.output,
    GITHUB_STEP_SUMMARY: files.summary,
    GITHUB_REPOSITORY: 'example/site',
    GITHUB_RUN_ID: String(Date.now()),
    GITHUB_SERVER_URL: 'https://github.com',
    RUNNER_TEMP: join(step, 'temp'),
    HOME: step,
    RSAPI_CONFIG_DIR: join(step, 'config'),
    ...env,
  });
  return new Promise((resolvePromise, reject) => {
    const child = spawn(NODE, [join(ROOT, actionYaml().runs.main)], { cwd: workspace, env: cleanEnv(variables), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      resolvePromise({ code, stdout, stderr, outputs: readOutputs(files.output), summary: readFileSync(files.summary, 'utf8'), workspace }),
    );
  });
}
