// Spans docs/github-action.md, its workflows (docs/workflows/*.yml) and action.yml: the inputs and outputs tables are
// action.yml's, every workflow is shown whole on the page, and each is a workflow GitHub would run as the page says
// (a structural check of the workflow schema's parts they use: no validator is installable here).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { actionTables, withActionTables } from '../../scripts/action-docs.mjs';
import { actionYaml, ROOT } from '../helpers/action.js';

const DOC = readFileSync(join(ROOT, 'docs', 'github-action.md'), 'utf8');
const ACTION_TEXT = readFileSync(join(ROOT, 'action.yml'), 'utf8');
const WORKFLOWS = readdirSync(join(ROOT, 'docs', 'workflows')).filter((name) => name.endsWith('.yml'));

interface Step {
  id?: string;
  if?: string;
  uses?: string;
  run?: string;
  with?: Record<string, string | number | boolean>;
  env?: Record<string, string>;
}
interface Job {
  'runs-on': string;
  needs?: string | string[];
  if?: string;
  permissions?: Record<string, string>;
  strategy?: { 'fail-fast'?: boolean; matrix: Record<string, unknown[]> };
  steps: Step[];
}
interface Workflow {
  name: string;
  on: Record<string, unknown>;
  permissions: Record<string, string>;
  jobs: Record<string, Job>;
}

function workflow(name: string): Workflow {
  return parse(readFileSync(join(ROOT, 'docs', 'workflows', name), 'utf8')) as Workflow;
}

/** The steps that run rsapi's action: any `uses:` of a repository named rsapi. */
function rsapiSteps(job: Job): Step[] {
  return job.steps.filter((step) => /^[\w.-]+\/rsapi@/.test(step.uses ?? ''));
}

describe('docs/github-action.md', () => {
  it('shows the inputs and outputs of action.yml, as `npm run build:action` writes them', () => {
    expect(withActionTables(DOC, ACTION_TEXT), 'run `npm run build:action` and commit docs/github-action.md').toBe(DOC);
    const tables = actionTables(ACTION_TEXT);
    expect(DOC).toContain(tables.inputs);
    expect(DOC).toContain(tables.outputs);
  });

  it('action.yml has every input and output the contract names', () => {
    const { inputs, outputs } = actionYaml();
    for (const name of ['base-url', 'api-key', 'config', 'job', 'working-directory', 'history', 'html', 'junit', 'codequality', 'summary'])
      expect(inputs).toHaveProperty([name]);
    for (const name of ['fail-on-new-failures', 'max-drop', 'shard', 'merge', 'parts', 'require-baseline']) expect(inputs).toHaveProperty([name]);
    expect(inputs.history!.default).toBe('branch:rsapi-history');
    expect(inputs['require-baseline']!.default).toBe('auto');
    for (const name of ['run-id', 'baseline-id', 'exit-code', 'pages', 'new-failures', 'new-pages', 'vanished-pages', 'report', 'dashboard'])
      expect(outputs).toHaveProperty([name]);
  });

  it.each(WORKFLOWS)('shows %s whole', (name) => {
    const text = readFileSync(join(ROOT, 'docs', 'workflows', name), 'utf8');
    expect(DOC).toContain(`\`\`\`yaml\n${text}\`\`\``);
  });
});

describe.each(WORKFLOWS)('docs/workflows/%s', (name) => {
  const flow = workflow(name);
  const { inputs, outputs } = actionYaml();

  it('is a workflow: a name, triggers, jobs each with runs-on and steps that each use an action or run a command', () => {
    expect(typeof flow.name).toBe('string');
    expect(Object.keys(flow.on).length).toBeGreaterThan(0);
    for (const key of Object.keys(flow.on)) expect(['schedule', 'workflow_dispatch', 'push', 'pull_request']).toContain(key);
    expect(Object.keys(flow.jobs).length).toBeGreaterThan(0);
    for (const [id, job] of Object.entries(flow.jobs)) {
      expect(id).toMatch(/^[A-Za-z_][\w-]*$/);
      expect(typeof job['runs-on']).toBe('string');
      expect(job.steps.length).toBeGreaterThan(0);
      for (const step of job.steps)
        expect(
          [step.uses, step.run].filter((x) => x !== undefined),
          JSON.stringify(step),
        ).toHaveLength(1);
      for (const needed of [job.needs ?? []].flat()) expect(Object.keys(flow.jobs)).toContain(needed);
    }
  });

  it('asks for contents: write and nothing more, and pins every action by a full commit SHA', () => {
    expect(flow.permissions).toEqual({ contents: 'write' });
    for (const job of Object.values(flow.jobs)) {
      if (job.permissions) expect(job.permissions).toEqual({ contents: 'read' });
      for (const step of job.steps) if (step.uses) expect(step.uses).toMatch(/^[\w.-]+\/[\w.-]+@[0-9a-f]{40}$/);
    }
  });

  it('gives the action only inputs action.yml declares, the key from a secret, and reads only outputs it sets', () => {
    const text = readFileSync(join(ROOT, 'docs', 'workflows', name), 'utf8');
    for (const job of Object.values(flow.jobs)) {
      for (const step of rsapiSteps(job)) {
        for (const input of Object.keys(step.with ?? {})) expect(Object.keys(inputs)).toContain(input);
        expect(step.with?.['api-key']).toBe('${{ secrets.RSAPI_API_KEY }}');
        expect(step.id).toBe('rsapi');
      }
    }
    for (const [, output] of text.matchAll(/steps\.rsapi\.outputs\.([\w-]+)/g)) expect(Object.keys(outputs)).toContain(output);
  });
});

describe('docs/workflows/sharded.yml', () => {
  const flow = workflow('sharded.yml');

  it('N shard jobs each write share I/N and upload it; one merge job after them downloads the parts and merges: the only one on the branch', () => {
    const [shard, merge] = [flow.jobs.shard!, flow.jobs.merge!];
    const shares = shard.strategy!.matrix.shard!;
    expect(shares).toEqual(Array.from({ length: shares.length }, (_, i) => i + 1));
    expect(shard.strategy!['fail-fast']).toBe(false);
    const shardStep = rsapiSteps(shard)[0]!;
    expect(shardStep.with!.shard).toBe(`\${{ matrix.shard }}/${shares.length}`);
    const upload = shard.steps.find((step) => step.uses?.startsWith('actions/upload-artifact@'))!;
    expect(upload.with!.path).toBe('${{ steps.rsapi.outputs.part }}');
    expect(shard.permissions).toEqual({ contents: 'read' });

    expect(merge.needs).toBe('shard');
    const download = merge.steps.find((step) => step.uses?.startsWith('actions/download-artifact@'))!;
    expect(download.with).toMatchObject({ pattern: 'rsapi-part-*', 'merge-multiple': true });
    const mergeStep = rsapiSteps(merge)[0]!;
    expect(mergeStep.with!.merge).toBe(true);
    // The parts land where the merge's default glob looks for them.
    expect(actionYaml().inputs.parts!.default).toBe(`${download.with!.path}/**/*.json`);
    expect(merge.steps.indexOf(download)).toBeLessThan(merge.steps.indexOf(mergeStep));
  });
});
