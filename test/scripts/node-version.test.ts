// scripts/node-version.cjs: on a Node older than 22.13, `npm run demo`, `npm test` and the bin shim in a checkout end
// with one line naming scripts/node-lines.mjs and the PATH step, exit 1, before any work.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanEnv } from '../helpers/cli.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'rsapi-node-version-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * An old Node to run them with: the machine's own when it is older than 22.13 (Debian's 20 here), else this one told
 * it is 20.20.2 by a preloaded module (the check reads process.versions like any other).
 */
function oldNode(): { node: string; args: string[] } {
  for (const candidate of ['/usr/bin/node', '/usr/local/bin/node']) {
    const version = spawnSync(candidate, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout?.trim();
    const [major = 99, minor = 99] = (version ?? '').split('.').map(Number);
    if (version && (major < 22 || (major === 22 && minor < 13))) return { node: candidate, args: [] };
  }
  const pretend = join(dir, 'pretend-20.cjs');
  writeFileSync(
    pretend,
    "Object.defineProperty(process.versions, 'node', { value: '20.20.2' }); Object.defineProperty(process, 'version', { value: 'v20.20.2' });",
  );
  return { node: process.execPath, args: ['--require', pretend] };
}

describe('on a Node older than 22.13', () => {
  it.each([
    ['npm run demo', join(root, 'scripts/demo.mjs'), []],
    ['npm test', join(root, 'scripts/test.mjs'), []],
    ['rsapi', join(root, 'bin/rsapi'), ['reports', 'list']],
  ])('%s says so in one line with the way out, exit 1', (who, script, args) => {
    const { node, args: preload } = oldNode();
    const started = Date.now();
    const result = spawnSync(node, [...preload, script, ...args], { cwd: root, env: cleanEnv({ INIT_CWD: root }), encoding: 'utf8' });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      new RegExp(
        `^${who}: Node\\.js 22\\.13 or newer is needed \\(this is v\\d+\\.\\d+\\.\\d+\\): run \`node scripts/node-lines\\.mjs 24\`, ` +
          'then `export PATH="\\$PWD/\\.cache/node-lines/24/bin:\\$PATH"`, and try again\n$',
      ),
    );
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("run from another directory, the line gives the checkout's paths", () => {
    const { node, args } = oldNode();
    const result = spawnSync(node, [...args, join(root, 'bin/rsapi'), '--version'], { cwd: dir, env: cleanEnv({ INIT_CWD: undefined }), encoding: 'utf8' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      `run \`node ${join(root, 'scripts/node-lines.mjs')} 24\`, then \`export PATH="${join(root, '.cache/node-lines/24/bin')}:$PATH"\``,
    );
  });
});
