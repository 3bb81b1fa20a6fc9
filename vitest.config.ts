import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig({
  define: { __RSAPI_VERSION__: JSON.stringify(pkg.version) },
  test: {
    include: ['test/**/*.test.ts'],
    // Spawned-binary tests run dist/: build it once per vitest run (a single file run included).
    globalSetup: ['test/helpers/build-once.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Most test time is waiting (loopback requests, timers, child processes), not CPU: on a 2-core machine the default
    // (cores - 1 = one file at a time) leaves the CPU idle. Four files at once keeps it busy.
    maxWorkers: 4,
  },
});
