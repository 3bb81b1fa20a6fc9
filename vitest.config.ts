import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

// Files that replace a module with vi.mock need a module registry of their own; every other file shares its worker's
// (src/ keeps no module state, test/cli/no-module-state.test.ts checks it), which saves loading src/ once per file.
const MOCKS_MODULES = ['test/config/write.test.ts', 'test/output/table/colors.test.ts'];
/** Tests that time something against a wall-clock budget: run alone, after the rest of the suite. */
const TIMED = 'test/**/*.timed.test.ts';

export default defineConfig({
  define: { __RSAPI_VERSION__: JSON.stringify(pkg.version) },
  test: {
    // Spawned-binary tests run dist/: build it once per vitest run (a single file run included).
    globalSetup: ['test/helpers/build-once.ts'],
    setupFiles: ['test/helpers/per-file.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Most test time is waiting (loopback requests, timers, child processes), not CPU: on a 2-core machine the default
    // (cores - 1 = one file at a time) leaves the CPU idle. Four files at once keeps it busy.
    maxWorkers: 4,
    // Keep each transformed module on disk between runs (keyed by its source, vitest.config.ts and the lockfile): a warm
    // run skips ~7 s of transform CPU. The version is in the path because `define` above is not in vitest's cache key.
    experimental: { fsModuleCache: true, fsModuleCachePath: `node_modules/.experimental-vitest-cache/${pkg.version}` },
    projects: [
      { extends: true, test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: [...MOCKS_MODULES, TIMED], isolate: false } },
      { extends: true, test: { name: 'isolated', include: MOCKS_MODULES } },
      // Budgets of wall time (the HTML report opening within 1 s): after the rest, one file at a time, on a quiet machine.
      { extends: true, test: { name: 'timed', include: [TIMED], maxWorkers: 1, sequence: { groupOrder: 1 } } },
    ],
  },
});
