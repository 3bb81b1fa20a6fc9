// Vitest global setup: builds dist/ once before any test file runs, so tests that spawn bin/rsapi never run a stale build.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function buildOnce(): void {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const result = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`the build failed (scripts/build.mjs exited ${result.status ?? result.signal})`);
}
