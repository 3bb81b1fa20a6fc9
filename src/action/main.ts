// The GitHub Action's entry (action.yml's `main`, bundled into action/dist/index.cjs): the key masked, the inputs
// planned, the history fetched from its branch, `rsapi audit` run, the history and dashboard committed and pushed, and
// the result set as the step's outputs, annotations and exit code.
import { existsSync, globSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import * as core from '@actions/core';
import { DASHBOARD_FILE, GitError, HISTORY_FILE, HistoryBranch, type BranchCheckout } from './branch.js';
import { ActionInputError, auditArgv, partPath, planAction, type ActionPlan } from './plan.js';
import { runCli } from './rsapi.js';

/** What `rsapi audit --json` says it did: the fields the action reads. */
interface AuditJson {
  job: string;
  exitCode: number;
  pages: number;
  run?: number;
  baseline?: number;
  new: string[];
  vanished: string[];
  newlyFailing: { url: string; checks: string[] }[];
}

/** rsapi's exit codes the action gives itself: a bad input, an unexpected failure, a history not kept. */
const EXIT = { usage: 2, unexpected: 1, history: 11 } as const;
/** Pushes tried before the action gives up on a branch other runs keep moving. */
const PUSH_ATTEMPTS = 5;

main().catch((error: unknown) => {
  core.setFailed(`rsapi: the action failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = EXIT.unexpected;
});

async function main(): Promise<void> {
  // Masked before anything is printed: the runner replaces the key with *** in every later line of the log.
  const apiKey = core.getInput('api-key');
  if (apiKey) core.setSecret(apiKey);
  const password = historyPassword(core.getInput('history'));
  if (password) core.setSecret(password);
  try {
    const plan = planAction((name) => core.getInput(name));
    finish(await runAction(plan));
  } catch (error) {
    if (error instanceof ActionInputError) return finish({ code: EXIT.usage, failure: `rsapi: ${error.message}` });
    if (error instanceof GitError) return finish({ code: EXIT.unexpected, failure: `rsapi: ${error.message}` });
    throw error;
  }
}

/** The step's end: its exit code is rsapi's, and a failure says why in one line. */
function finish(outcome: { code: number; failure?: string }): void {
  core.setOutput('exit-code', String(outcome.code));
  if (outcome.failure) core.setFailed(outcome.failure);
  process.exitCode = outcome.code;
}

/** A postgres:// URL's password, masked like the key. */
function historyPassword(history: string): string | undefined {
  if (!/^postgres(ql)?:\/\//.test(history)) return undefined;
  try {
    return decodeURIComponent(new URL(history).password) || undefined;
  } catch {
    return undefined;
  }
}

async function runAction(plan: ActionPlan): Promise<{ code: number; failure?: string }> {
  const workspace = process.env.GITHUB_WORKSPACE ?? process.cwd();
  const cwd = resolve(workspace, plan.workingDirectory);
  const env: Record<string, string> = {};
  if (plan.baseUrl) env.RSAPI_BASE_URL = plan.baseUrl;
  if (plan.apiKey) env.RSAPI_API_KEY = plan.apiKey;
  const summary = plan.summary ? process.env.GITHUB_STEP_SUMMARY || undefined : undefined;

  if (plan.shard) {
    // The part's folder first: rsapi writes the part beside itself (a temporary file renamed), into a folder that is.
    const part = resolve(cwd, partPath(plan.shard));
    mkdirSync(dirname(part), { recursive: true });
    const audited = await audit(auditArgv(plan, { summary }, undefined), cwd, env);
    if (existsSync(part)) core.setOutput('part', part);
    return verdict(audited.code, audited.result, plan, cwd);
  }
  const parts = plan.merge ? partsOf(plan.parts, cwd) : undefined;
  if (parts?.length === 0) return { code: EXIT.usage, failure: `rsapi: merge: no part matches ${plan.parts} in ${cwd}` };

  if ('location' in plan.history) {
    env.RSAPI_HISTORY = plan.history.location;
    const requireBaseline = plan.requireBaseline === 'auto' ? undefined : plan.requireBaseline === 'true';
    const audited = await audit(auditArgv(plan, { summary, parts }, requireBaseline), cwd, env);
    return verdict(audited.code, audited.result, plan, cwd);
  }

  const branch = new HistoryBranch(workspace, plan.history.branch, mkdtempSync(join(process.env.RUNNER_TEMP || tmpdir(), 'rsapi-action-')));
  let checkout = await branch.checkout();
  // auto: a branch that exists must hold the job's history (something deleted it otherwise); no branch is a first run.
  const requireBaseline = plan.requireBaseline === 'auto' ? checkout.parent !== undefined : plan.requireBaseline === 'true';
  if (plan.requireBaseline === 'auto' && checkout.parent === undefined)
    core.info(`rsapi: no branch ${branch.branch} on origin yet: this run starts the history there`);
  const audited = await audit(auditArgv(plan, { summary, parts }, requireBaseline), cwd, { ...env, RSAPI_HISTORY: join(checkout.folder, HISTORY_FILE) });
  const result = audited.result;
  // Nothing recorded (a usage error, a baseline required and missing): the branch stays as it was.
  if (result?.run === undefined) return verdict(audited.code, result, plan, cwd);

  let runId = result.run;
  await dashboard(checkout, cwd, env);
  for (let attempt = 1; ; attempt++) {
    if (await branch.commitAndPush(checkout, commitMessage({ ...result, run: runId }))) break;
    if (attempt === PUSH_ATTEMPTS) {
      verdict(audited.code, result, plan, cwd);
      return { code: EXIT.history, failure: `rsapi: the history was not kept: ${branch.branch} moved under ${PUSH_ATTEMPTS} pushes in a row` };
    }
    core.info(`rsapi: ${branch.branch} moved since it was fetched (another run pushed first): adding run ${runId} to it and pushing again`);
    const replayed = await replay(branch, checkout, runId, cwd, env);
    checkout = replayed.checkout;
    runId = replayed.runId;
    await dashboard(checkout, cwd, env);
  }
  core.info(`rsapi: run ${runId} of job ${result.job} kept on ${branch.branch} (${HISTORY_FILE}, dashboard ${DASHBOARD_FILE})`);
  core.setOutput('dashboard', DASHBOARD_FILE);
  return verdict(audited.code, { ...result, run: runId }, plan, cwd);
}

/** `rsapi audit ARGV`: its exit code, and what it did when it said so (its JSON). */
async function audit(argv: string[], cwd: string, env: Record<string, string>): Promise<{ code: number; result?: AuditJson }> {
  core.info(`rsapi ${argv.join(' ')}`);
  const run = await runCli(argv, { cwd, env });
  let result: AuditJson | undefined;
  try {
    result = run.stdout.trim() === '' ? undefined : (JSON.parse(run.stdout) as AuditJson);
  } catch {
    core.info(run.stdout);
  }
  return { code: run.code, result };
}

/** The outputs and annotations of a run, and the step's outcome: rsapi's exit code. */
function verdict(code: number, result: AuditJson | undefined, plan: ActionPlan, cwd: string): { code: number; failure?: string } {
  if (result) {
    core.setOutput('run-id', result.run === undefined ? '' : String(result.run));
    core.setOutput('baseline-id', result.baseline === undefined ? '' : String(result.baseline));
    core.setOutput('pages', String(result.pages));
    core.setOutput('new-failures', String(result.newlyFailing.length));
    core.setOutput('new-pages', String(result.new.length));
    core.setOutput('vanished-pages', String(result.vanished.length));
    for (const url of result.vanished)
      core.warning(`vanished since run ${result.baseline}: ${url} is no longer in the job's pages`, { title: `rsapi: ${url}` });
  }
  if (plan.html && existsSync(resolve(cwd, plan.html))) core.setOutput('report', resolve(cwd, plan.html));
  if (code === 0) return { code };
  const failing = result?.newlyFailing.length ?? 0;
  return { code, failure: `rsapi audit exited ${code}${failing > 0 ? `: ${failing} ${failing === 1 ? 'page' : 'pages'} newly failing` : ''}` };
}

/** The dashboard of the branch's history: `rsapi history html index.html`. */
async function dashboard(checkout: BranchCheckout, cwd: string, env: Record<string, string>): Promise<void> {
  const wrote = await runCli(['history', 'html', join(checkout.folder, DASHBOARD_FILE), '--history', join(checkout.folder, HISTORY_FILE)], { cwd, env });
  if (wrote.code !== 0) core.warning(`rsapi history html exited ${wrote.code}: the dashboard was not updated`);
}

/**
 * Another run pushed first: this run's line of the history's export is imported into the branch as it is now (a run
 * already there is never added twice), so both runs end up in the history. Returns the new checkout and the run's id
 * there.
 */
async function replay(
  branch: HistoryBranch,
  checkout: BranchCheckout,
  runId: number,
  cwd: string,
  env: Record<string, string>,
): Promise<{ checkout: BranchCheckout; runId: number }> {
  const exported = await runCli(['history', 'export', '--history', join(checkout.folder, HISTORY_FILE)], { cwd, env });
  if (exported.code !== 0) throw new GitError(`rsapi history export exited ${exported.code}: run ${runId} could not be replayed`);
  const line = exported.stdout.split('\n').find((text) => text !== '' && (JSON.parse(text) as { run: { id: number } }).run.id === runId);
  if (line === undefined) throw new GitError(`run ${runId} is not in the history it was recorded in`);
  const started = (JSON.parse(line) as { run: { started: string } }).run.started;
  const file = `${checkout.folder}.run-${runId}.ndjson`;
  writeFileSync(file, `${line}\n`);
  const next = await branch.checkout();
  const history = join(next.folder, HISTORY_FILE);
  const imported = await runCli(['history', 'import', file, '--history', history], { cwd, env });
  if (imported.code !== 0) throw new GitError(`rsapi history import exited ${imported.code}: run ${runId} could not be replayed`);
  const runs = await runCli(['history', 'runs', '--json', '--history', history], { cwd, env });
  const found = (JSON.parse(runs.stdout) as { id: number; started: string }[]).find((run) => Date.parse(run.started) === Date.parse(started));
  return { checkout: next, runId: found?.id ?? runId };
}

/** `rsapi audit: run 12 of job shop (exit 10)`, and the workflow run that made it. */
function commitMessage(result: AuditJson): string {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repository, GITHUB_RUN_ID: runId } = process.env;
  const link = server && repository && runId ? `\n\n${server}/${repository}/actions/runs/${runId}` : '';
  return `rsapi audit: run ${result.run} of job ${result.job} (exit ${result.exitCode})${link}`;
}

/** The parts the glob finds under the working directory, as absolute paths in a stable order. */
function partsOf(pattern: string, cwd: string): string[] {
  return globSync(pattern, { cwd })
    .map((path) => resolve(cwd, path))
    .sort();
}
