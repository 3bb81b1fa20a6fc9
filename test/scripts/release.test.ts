// scripts/release.mjs: what it checks each executable is by its first bytes, SHA256SUMS as `sha256sum -c` reads it,
// and the cross-built executables (ELF aarch64, Mach-O arm64, PE x86-64) when their Node binaries are cached in
// .cache/node-release/ (`npm run release` fetches them from the npm registry; a fresh clone, CI's, has none: skipped,
// said in the test's name). The executable of this platform is built and run by test/scripts/sea.test.ts.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { FORMATS, formatOf, sha256sums } from '../../scripts/release.mjs';
import { buildExecutable, TARGETS } from '../../scripts/sea.mjs';
import { tempDir } from '../helpers/cli.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CACHE = join(ROOT, '.cache', 'node-release');
const work = tempDir('rsapi-release-');
afterAll(() => work.cleanup());

/** ELF (e_machine at 18), Mach-O 64 (cputype at 4) and PE (machine after "PE\0\0" at the offset 0x3c holds) headers. */
function elf(machine: number): Buffer {
  const bytes = Buffer.alloc(64);
  bytes.writeUInt32BE(0x7f454c46, 0);
  bytes.writeUInt16LE(machine, 18);
  return bytes;
}
function macho(cpu: number): Buffer {
  const bytes = Buffer.alloc(32);
  bytes.writeUInt32LE(0xfeedfacf, 0);
  bytes.writeUInt32LE(cpu, 4);
  return bytes;
}
function pe(machine: number): Buffer {
  const bytes = Buffer.alloc(0x100);
  bytes.write('MZ', 0, 'latin1');
  bytes.writeUInt32LE(0x80, 0x3c);
  bytes.write('PE\0\0', 0x80, 'latin1');
  bytes.writeUInt16LE(machine, 0x84);
  return bytes;
}

describe('formatOf', () => {
  it.each([
    ['ELF x86-64', elf(62)],
    ['ELF aarch64', elf(183)],
    ['Mach-O arm64', macho(0x0100000c)],
    ['PE x86-64', pe(0x8664)],
  ])('%s from its header', (format, bytes) => {
    expect(formatOf(bytes)).toBe(format);
  });

  it.each([
    ['an x86-64 Mach-O', macho(0x01000007)],
    ['an arm64 PE', pe(0xaa64)],
    ['a 32-bit ARM ELF', elf(40)],
    ['a shell script', Buffer.from('#!/bin/sh\nexec node "$@"\n')],
    ['a PE whose header offset runs past the bytes', Buffer.concat([Buffer.from('MZ'), Buffer.alloc(0x3e)])],
  ])('%s is none of the released formats', (_, bytes) => {
    expect(formatOf(bytes)).toBeUndefined();
  });

  it('the format every target must have is named', () => {
    expect(Object.keys(FORMATS).sort()).toEqual(Object.keys(TARGETS).sort());
  });
});

describe('SHA256SUMS', () => {
  it('sha256sum -c checks every other file with it, and fails on a file changed after', () => {
    const dir = join(work.path, 'sums');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'rsapi-linux-x64'), 'an executable');
    writeFileSync(join(dir, 'rsapi-0.1.0.tgz'), 'a tarball');
    writeFileSync(join(dir, 'SHA256SUMS'), 'the old sums');
    writeFileSync(join(dir, 'SHA256SUMS'), sha256sums(dir));
    expect(readFileSync(join(dir, 'SHA256SUMS'), 'utf8')).toMatch(/^[0-9a-f]{64} {2}rsapi-0\.1\.0\.tgz\n[0-9a-f]{64} {2}rsapi-linux-x64\n$/);
    expect(spawnSync('sha256sum', ['-c', 'SHA256SUMS'], { cwd: dir, encoding: 'utf8' }).status).toBe(0);
    writeFileSync(join(dir, 'rsapi-linux-x64'), 'another executable');
    expect(spawnSync('sha256sum', ['-c', 'SHA256SUMS'], { cwd: dir, encoding: 'utf8' }).status).not.toBe(0);
  });
});

/** The newest cached version that has this machine's Node (the builder) and the target's. */
function cachedPair(target: keyof typeof TARGETS): { builder: string; executable: string } | undefined {
  if (!existsSync(CACHE) || process.platform !== 'linux' || process.arch !== 'x64') return undefined;
  for (const version of readdirSync(CACHE).sort().reverse()) {
    const builder = join(CACHE, version, 'linux-x64', 'bin', 'node');
    const executable = join(CACHE, version, target, TARGETS[target].binary);
    if (existsSync(builder) && existsSync(executable)) return { builder, executable };
  }
  return undefined;
}

describe('the cross-built executables', () => {
  for (const target of ['linux-arm64', 'darwin-arm64', 'win-x64'] as const) {
    const pair = cachedPair(target);
    it.skipIf(!pair)(
      `${target} is ${FORMATS[target]}${pair ? '' : ' (skipped: its Node is not in .cache/node-release; npm run release fetches it)'}`,
      () => {
        const output = join(work.path, TARGETS[target].file);
        buildExecutable({ ...(pair as { builder: string; executable: string }), output });
        const bytes = readFileSync(output);
        expect(formatOf(bytes.subarray(0, 4096))).toBe(FORMATS[target]);
        // The files went in: the build's record is in the file, and it is no bigger than the budget.
        expect(bytes.includes(Buffer.from('"build":"'))).toBe(true);
        expect(bytes.length).toBeLessThanOrEqual(160_000_000);
      },
      120_000,
    );
  }
});
