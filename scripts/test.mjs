// `npm test`: the type check, Biome's format and lint check, and the test suite at once (vitest mostly waits on
// loopback I/O and timers, so tsc and biome use CPU it would leave idle); fails when any of them does. Arguments go to
// vitest (`npm test -- test/cli/x.test.ts`).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { requireNode } from './node-version.cjs';

const root = new URL('..', import.meta.url).pathname;
requireNode('npm test', root);

function run(script, args, stdio) {
  const child = spawn(process.execPath, [join(root, 'node_modules', script), ...args], { cwd: root, stdio });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  return new Promise((resolve) => child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output })));
}

const [typecheck, lint, tests] = await Promise.all([
  // Incremental: a run after a change re-checks what the change touches (3-4 s of CPU rather than 10 on this tree),
  // leaving the CPU to the tests; the first run in a fresh checkout checks everything, as before.
  run(
    'typescript/bin/tsc',
    ['--noEmit', '-p', 'tsconfig.json', '--incremental', '--tsBuildInfoFile', '.cache/tsc/noemit.tsbuildinfo'],
    ['ignore', 'pipe', 'pipe'],
  ),
  run('@biomejs/biome/bin/biome', ['check', '.'], ['ignore', 'pipe', 'pipe']),
  run('vitest/vitest.mjs', ['run', ...process.argv.slice(2)], 'inherit'),
]);
if (typecheck.code !== 0) process.stderr.write(`\ntsc --noEmit failed:\n${typecheck.output}`);
else process.stdout.write('tsc --noEmit: no type errors\n');
if (lint.code !== 0) process.stderr.write(`\nbiome check failed (npm run format fixes formatting):\n${lint.output}`);
else process.stdout.write('biome check: formatted, no lint errors\n');
process.exit(typecheck.code || lint.code || tests.code);
