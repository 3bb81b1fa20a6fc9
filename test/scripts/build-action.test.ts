// The GitHub Action's committed bundle (action/dist/): what `npm run build:action` makes now, byte for byte, and
// complete: it runs with no package installed (GitHub installs nothing for an action).
import { spawnSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { actionYaml, ROOT } from '../helpers/action.js';
import { scratchMaker } from '../helpers/scratch.js';

const scratch = scratchMaker('rsapi-build-action-');
const DIST = join(ROOT, 'action', 'dist');

describe('the action bundle', () => {
  it('is what the build makes now (run npm run build:action and commit action/dist when this fails)', () => {
    const out = scratch();
    const built = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build-action.mjs'), `--outdir=${out}`], { encoding: 'utf8' });
    expect(built.status, built.stderr).toBe(0);
    expect(readdirSync(out).sort()).toEqual(readdirSync(DIST).sort());
    for (const name of readdirSync(out)) {
      expect(readFileSync(join(DIST, name)).equals(readFileSync(join(out, name))), `action/dist/${name} is stale`).toBe(true);
    }
  }, 120_000);

  it("is action.yml's main, on node24, and runs from a folder with no node_modules anywhere above it", () => {
    expect(actionYaml().runs).toEqual({ using: 'node24', main: 'action/dist/index.cjs' });
    // As the runner unpacks an action: its files alone. Nothing it loads can come from this repository's packages.
    const alone = join(scratch(), 'action');
    cpSync(DIST, alone, { recursive: true });
    const env = { PATH: process.env.PATH, HOME: alone, RSAPI_CONFIG_DIR: join(alone, 'config') };
    // The CLI is inside index.cjs: its audit verb (a lazily loaded module) runs in the action's process and says why it stops.
    const audit = spawnSync(process.execPath, [join(alone, 'index.cjs')], {
      cwd: alone,
      encoding: 'utf8',
      env: { ...env, INPUT_HISTORY: join(alone, 'none.db') },
    });
    expect(audit.status, audit.stderr).toBe(2);
    expect(audit.stderr).toContain('rsapi: cannot read the configuration file rsapi.config.json');
    const action = spawnSync(process.execPath, [join(alone, 'index.cjs')], { encoding: 'utf8', env: { ...env, INPUT_SHARD: '0/2' } });
    expect(action.status, action.stderr).toBe(2);
    expect(action.stdout).toContain('::error::rsapi: shard: "0/2" is not I/N');
  });

  it('stays small: the action with the CLI in it under 2.5 MB (no MCP server, no jq)', () => {
    expect(readdirSync(DIST)).toEqual(['index.cjs']);
    expect(statSync(join(DIST, 'index.cjs')).size).toBeLessThan(2.5 * 1024 * 1024);
  });
});
