// The GitHub Action's inputs (INPUT_* as the runner passes them) read and checked into one plan, and the `rsapi audit`
// command line that plan makes: the action's one parser; the CLI parses the rest as it always does.

/** Where the history lives: a branch of the checkout's origin, or a location rsapi opens itself (a file, a URL). */
export type HistoryPlace = { branch: string } | { location: string };

/** What the action will do, from its inputs alone: no file read, no process started. */
export interface ActionPlan {
  /** The service; undefined leaves rsapi's own resolution (RSAPI_BASE_URL, the profile). */
  baseUrl?: string;
  apiKey?: string;
  config?: string;
  job?: string;
  /** Where rsapi runs, relative to the workspace ('' for the workspace itself). */
  workingDirectory: string;
  history: HistoryPlace;
  html?: string;
  junit?: string;
  codequality?: string;
  /** Append the summary to $GITHUB_STEP_SUMMARY. */
  summary: boolean;
  /** Overrides the file's failOnNewFailures when set. */
  failOnNewFailures?: boolean;
  maxDrop?: string;
  /** `I/N`: this job audits one share and writes its part; it touches no history. */
  shard?: { index: number; count: number };
  /** Merge the parts the `parts` glob finds into one run. */
  merge: boolean;
  parts: string;
  requireBaseline: 'auto' | 'true' | 'false';
}

/** An input the action cannot use: the step fails with this line (exit 2, as rsapi's usage errors) before any work. */
export class ActionInputError extends Error {
  override name = 'ActionInputError';
}

/** The folder (under the working directory) a shard writes its part into, and the merge's default glob over it. */
export const PARTS_FOLDER = 'rsapi-parts';
export const DEFAULT_PARTS = `${PARTS_FOLDER}/**/*.json`;
export const DEFAULT_HISTORY = 'branch:rsapi-history';

/** A git branch name the action will write: plain characters only, so it can never read as an option or a refspec. */
const BRANCH_NAME = /^(?!-)(?!.*\.\.)[A-Za-z0-9._/-]+$/;

/**
 * The plan of the inputs `input(name)` gives (core.getInput: trimmed, '' when not set). Every value is checked here,
 * so a bad input fails the step in one line before the history is fetched or the service asked.
 */
export function planAction(input: (name: string) => string): ActionPlan {
  const optional = (name: string) => input(name) || undefined;
  const shard = parseShard(input('shard'));
  const merge = parseBoolean('merge', input('merge') || 'false');
  if (shard && merge) throw new ActionInputError('shard and merge: a job either audits one share (shard) or merges the parts (merge), not both');
  const maxDrop = optional('max-drop');
  if (maxDrop !== undefined && !/^\d+(\.\d+)?$/.test(maxDrop)) throw new ActionInputError(`max-drop: "${maxDrop}" is not a number of points`);
  const failOnNewFailures = input('fail-on-new-failures');
  const requireBaseline = input('require-baseline') || 'auto';
  if (requireBaseline !== 'auto' && requireBaseline !== 'true' && requireBaseline !== 'false')
    throw new ActionInputError(`require-baseline: "${requireBaseline}" is not auto, true or false`);
  return {
    baseUrl: optional('base-url'),
    apiKey: optional('api-key'),
    config: optional('config'),
    job: optional('job'),
    workingDirectory: input('working-directory'),
    history: parseHistory(input('history') || DEFAULT_HISTORY),
    html: optional('html'),
    junit: optional('junit'),
    codequality: optional('codequality'),
    summary: parseBoolean('summary', input('summary') || 'true'),
    failOnNewFailures: failOnNewFailures === '' ? undefined : parseBoolean('fail-on-new-failures', failOnNewFailures),
    maxDrop,
    shard,
    merge,
    parts: input('parts') || DEFAULT_PARTS,
    requireBaseline,
  };
}

/** `branch:NAME`, else a SQLite path or a postgres:// URL for rsapi itself. */
function parseHistory(value: string): HistoryPlace {
  if (!value.startsWith('branch:')) return { location: value };
  const branch = value.slice('branch:'.length);
  if (!BRANCH_NAME.test(branch)) throw new ActionInputError(`history: "${value}" does not name a branch (branch:NAME, letters, digits, . _ / -)`);
  return { branch };
}

/** `I/N`, 1 <= I <= N, as `--shard` takes it. */
function parseShard(value: string): ActionPlan['shard'] {
  if (value === '') return undefined;
  const match = /^(\d+)\/(\d+)$/.exec(value);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || index < 1 || count < 1 || index > count) throw new ActionInputError(`shard: "${value}" is not I/N with 1 <= I <= N (e.g. 2/4)`);
  return { index, count };
}

/** The YAML 1.2 core schema's booleans, as @actions/core's getBooleanInput reads them. */
function parseBoolean(name: string, value: string): boolean {
  if (['true', 'True', 'TRUE'].includes(value)) return true;
  if (['false', 'False', 'FALSE'].includes(value)) return false;
  throw new ActionInputError(`${name}: "${value}" is not true or false`);
}

/** The path of a shard's part, relative to the working directory. */
export function partPath(shard: { index: number; count: number }): string {
  return `${PARTS_FOLDER}/shard-${shard.index}-of-${shard.count}.json`;
}

/**
 * The argv of the `rsapi audit` the plan runs (without the `audit` itself). No secret is in it: the key, the base URL
 * and the history go to rsapi in its environment (the runner echoes a command line, and a history URL may hold a
 * password). `requireBaseline` is what `auto` resolved to (undefined: the file's setting stands).
 */
export function auditArgv(plan: ActionPlan, files: { summary?: string; parts?: string[] }, requireBaseline: boolean | undefined): string[] {
  const argv = ['audit', '--json'];
  const add = (flag: string, value: string | undefined) => {
    if (value !== undefined) argv.push(flag, value);
  };
  add('--config', plan.config);
  add('--job', plan.job);
  if (plan.shard) {
    argv.push('--part', partPath(plan.shard), '--shard', `${plan.shard.index}/${plan.shard.count}`);
  } else if (files.parts) {
    argv.push('--merge', ...files.parts);
  }
  add('--html', plan.html);
  add('--junit', plan.junit);
  add('--codequality', plan.codequality);
  add('--summary', files.summary);
  if (plan.failOnNewFailures !== undefined) argv.push(plan.failOnNewFailures ? '--fail-on-new-failures' : '--no-fail-on-new-failures');
  add('--max-drop', plan.maxDrop);
  // A shard compares with nothing (its part is judged at the merge), so a baseline is not asked of it.
  if (requireBaseline !== undefined && !plan.shard) argv.push(requireBaseline ? '--require-baseline' : '--no-require-baseline');
  return argv;
}
