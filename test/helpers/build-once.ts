// Vitest global setup: builds dist/ once before any test file runs, so tests that spawn bin/rsapi never run a stale
// build; skipped when dist/ was built after every input of the build last changed (a run after a test-only change).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { newerThanInputs } from './fresh.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const OUTPUTS = ['main.js', 'index.js', 'root-help.txt', 'THIRD_PARTY_NOTICES'].map((name) => join(ROOT, 'dist', name));
const INPUTS = ['src', 'scripts/build.mjs', 'package.json', 'package-lock.json', 'tsconfig.json'].map((name) => join(ROOT, name));

export default function buildOnce(): void {
  if (newerThanInputs(OUTPUTS, INPUTS)) return;
  const result = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`the build failed (scripts/build.mjs exited ${result.status ?? result.signal})`);
}
