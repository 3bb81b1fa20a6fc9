// The help's lists of settings and environment variables are written from the program's own tables (the settings in
// src/config/keys.ts, the variables in src/cli/commands/help-topics.ts): none can lag behind what the program reads.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SETTABLE_KEYS, SETTING_KEYS } from '../../../src/config/keys.js';
import { ENVIRONMENT, environmentNames } from '../../../src/cli/commands/help-topics.js';
import { runInProcess } from '../../helpers/run.js';

const SRC = fileURLToPath(new URL('../../../src', import.meta.url));

/** Every RSAPI_ name the source mentions (the build's own RSAPI_VERSION__ define aside). */
function variablesOfTheSource(): Set<string> {
  const names = new Set<string>();
  for (const file of readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.ts')))
    for (const [name] of readFileSync(join(SRC, file), 'utf8').matchAll(/\bRSAPI_[A-Z][A-Z_]*[A-Z]\b/g)) names.add(name);
  return names;
}

describe('the environment variables', () => {
  it('the table holds every RSAPI_ variable the program reads', () => {
    const listed = new Set(environmentNames());
    expect([...variablesOfTheSource()].filter((name) => !listed.has(name))).toEqual([]);
  });

  it('the root help names every variable of the table, RSAPI_RECORD, RSAPI_HISTORY, RSAPI_ASSERT and RSAPI_JOB among them', async () => {
    const { stdout, code } = await runInProcess({ argv: ['--help'] });
    expect(code).toBe(0);
    const line = stdout.slice(stdout.indexOf('Environment: ')).replace(/\s+/g, ' ');
    const named = line
      .replace(/^Environment: /, '')
      .replace(/ \(`rsapi help environment`\)\.\s*$/, '')
      .split(', ');
    expect(named).toEqual(environmentNames());
    for (const name of ['RSAPI_RECORD', 'RSAPI_HISTORY', 'RSAPI_ASSERT', 'RSAPI_JOB']) expect(named).toContain(name);
  });

  it('`rsapi help environment` lists every row of the table', async () => {
    const { stdout } = await runInProcess({ argv: ['help', 'environment'], columns: 200 });
    for (const { term, meaning } of ENVIRONMENT) expect(stdout.replace(/\s+/g, ' ')).toContain(`${term} ${meaning}`);
  });
});

describe('the settings', () => {
  it('config set stores every setting but the key, which only auth login stores', () => {
    expect(SETTABLE_KEYS).toEqual(SETTING_KEYS.filter((key) => key !== 'api-key'));
  });

  it('`config --help` and `config set --help` name every setting config set takes, history and record among them', async () => {
    const config = (await runInProcess({ argv: ['config', '--help'] })).stdout.replace(/\s+/g, ' ');
    const set = (await runInProcess({ argv: ['config', 'set', '--help'] })).stdout.replace(/\s+/g, ' ');
    expect(set).toContain(`Store a setting in the profile (${SETTABLE_KEYS.join(', ')})`);
    for (const key of SETTABLE_KEYS) expect(config).toContain(`${key} (`);
    expect(SETTABLE_KEYS).toEqual(expect.arrayContaining(['history', 'record']));
  });

  it('config set accepts every setting its help names', async () => {
    const values: Record<string, string> = {
      'base-url': 'https://rank.example.com',
      timeout: '5',
      retries: '1',
      output: 'json',
      record: 'true',
      history: 'h.db',
    };
    for (const key of SETTABLE_KEYS) expect((await runInProcess({ argv: ['config', 'set', key, values[key]!] })).code, key).toBe(0);
  });
});
