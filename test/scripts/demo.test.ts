// `npm run demo` (the README's first command) runs whole, and two demos at once keep their own HTML pages: each in a
// folder of its own under the temp dir (issue 46 point 16: both wrote /tmp/rsapi-demo-report.html).
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { NODE, tempDir } from '../helpers/cli.js';

const DEMO = fileURLToPath(new URL('../../scripts/demo.mjs', import.meta.url));

function demo(tmp: string): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: tmp };
    for (const key of Object.keys(env)) if (key.startsWith('RSAPI_')) delete env[key];
    const child = spawn(NODE, [DEMO], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.resume();
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout }));
  });
}

describe('npm run demo', () => {
  it('two at once both exit 0, each naming HTML pages of its own that are there after it', async () => {
    const tmp = tempDir('rsapi-demo-test-');
    try {
      const runs = await Promise.all([demo(tmp.path), demo(tmp.path)]);
      const pages = runs.map(({ code, stdout }) => {
        expect(code, stdout.slice(-2000)).toBe(0);
        const line = /^The HTML reports: (.*)$/m.exec(stdout)?.[1] ?? '';
        return [...line.matchAll(/(\/\S+?\.html)/g)].map((match) => match[1] as string);
      });
      expect(pages[0]).toHaveLength(3);
      expect(pages[1]).toHaveLength(3);
      for (const page of [...(pages[0] ?? []), ...(pages[1] ?? [])]) expect(existsSync(page), page).toBe(true);
      expect(pages[0]?.filter((page) => pages[1]?.includes(page))).toEqual([]);
      // Nothing else of the demos is left behind but their HTML folders (and Node's own compile cache).
      expect(readdirSync(tmp.path).filter((name) => name !== 'node-compile-cache' && !name.startsWith('rsapi-demo-html-'))).toEqual([]);
    } finally {
      tmp.cleanup();
    }
  }, 90_000);
});
