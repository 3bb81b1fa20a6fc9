#!/usr/bin/env node
// `npm run release`: writes release/, the files of a GitHub release:
//   rsapi-VERSION.tgz              the npm tarball (npm pack, which builds dist/ afresh: prepack)
//   rsapi-linux-x64 ...            a single-file executable per platform (scripts/sea.mjs), Node NODE_LINE inside
//   SHA256SUMS                     `sha256sum -c` checks every other file
//
//   node scripts/release.mjs [--targets linux-x64,linux-arm64,darwin-arm64,win-x64] [--node-line 26] [--out release]
//   node scripts/release.mjs --sums-only [--out release]     only (re)write SHA256SUMS (after a file was replaced)
//
// Every platform's Node comes from the npm registry (scripts/node-lines.mjs installPackage; cached in
// .cache/node-release/), so any Node that runs this script can make the release: the newest version of the line that
// all the targets' packages have, one version for every file. The build runs on this machine's binary of that version:
// the executable of this platform gets the code cache of its main script, the others are cross-built without one.
// macOS runs an arm64 binary only when it is signed, and injecting the files drops Node's signature: on a Mac the
// darwin-arm64 file is signed ad hoc here (codesign); built elsewhere it is left unsigned, said on stderr, and the
// release workflow builds it on a macOS runner instead (docs/install.md).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { installPackage } from './node-lines.mjs';
import { buildExecutable, hostTarget, TARGETS } from './sea.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CACHE = join(ROOT, '.cache', 'node-release');

/** Each format's magic bytes at offset 0, and the machine field that names the architecture. */
export const FORMATS = {
  'linux-x64': 'ELF x86-64',
  'linux-arm64': 'ELF aarch64',
  'darwin-arm64': 'Mach-O arm64',
  'win-x64': 'PE x86-64',
};

/**
 * What an executable's first bytes say it is: 'ELF x86-64', 'ELF aarch64', 'Mach-O arm64', 'PE x86-64', or undefined.
 * ELF: e_machine at 18 (62 x86-64, 183 aarch64); Mach-O 64-bit little-endian: cputype at 4 (0x0100000c arm64);
 * PE: the header offset at 0x3c, then "PE\0\0" and the machine (0x8664 x86-64).
 */
export function formatOf(bytes) {
  if (bytes.length >= 20 && bytes.readUInt32BE(0) === 0x7f454c46) {
    const machine = bytes.readUInt16LE(18);
    return { 62: 'ELF x86-64', 183: 'ELF aarch64' }[machine];
  }
  if (bytes.length >= 8 && bytes.readUInt32LE(0) === 0xfeedfacf) return bytes.readUInt32LE(4) === 0x0100000c ? 'Mach-O arm64' : undefined;
  if (bytes.length >= 0x40 && bytes.toString('latin1', 0, 2) === 'MZ') {
    const at = bytes.readUInt32LE(0x3c);
    if (bytes.length >= at + 6 && bytes.toString('latin1', at, at + 4) === 'PE\0\0') return bytes.readUInt16LE(at + 4) === 0x8664 ? 'PE x86-64' : undefined;
  }
  return undefined;
}

/** `sha256sum` lines (hash, two spaces, name) of every file in dir but SHA256SUMS, by name. */
export function sha256sums(dir) {
  return readdirSync(dir)
    .filter((name) => name !== 'SHA256SUMS')
    .sort()
    .map(
      (name) =>
        `${createHash('sha256')
          .update(readFileSync(join(dir, name)))
          .digest('hex')}  ${name}\n`,
    )
    .join('');
}

/** The newest version of `line` that every target's package has on the registry. */
function commonVersion(line, targets) {
  const lists = targets.map((target) => {
    const found = JSON.parse(execFileSync('npm', ['view', `${TARGETS[target].pkg}@${line}`, 'version', '--json'], { encoding: 'utf8' }));
    return new Set([found].flat());
  });
  const shared = [...lists[0]].filter((version) => lists.every((list) => list.has(version)));
  if (shared.length === 0) throw new Error(`no Node ${line} version is on the registry for all of ${targets.join(', ')}`);
  return shared.sort((a, b) => compareVersions(b, a))[0];
}

function compareVersions(a, b) {
  const [x, y] = [a, b].map((version) => version.split('.').map(Number));
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] - y[i];
  return 0;
}

/** A target's Node binary of `version`, fetched into .cache/node-release/VERSION/TARGET/ once. */
function nodeBinary(target, version) {
  const { pkg, binary } = TARGETS[target];
  const dir = join(CACHE, version, target);
  const path = join(dir, binary);
  if (existsSync(path)) return path;
  process.stderr.write(`release: fetching ${pkg}@${version}\n`);
  return installPackage(`${pkg}@${version}`, binary, dir);
}

/**
 * An ad-hoc signature (codesign --sign -), which is all an arm64 binary needs to run on macOS (a download through a
 * browser is quarantined besides: docs/install.md). Only a Mac has codesign.
 */
function signForMacOS(file) {
  if (process.platform !== 'darwin') {
    process.stderr.write(
      `release: ${file} is unsigned: macOS runs it only once signed (codesign --sign - on a Mac; the release workflow builds it on macOS)\n`,
    );
    return;
  }
  execFileSync('codesign', ['--sign', '-', '--force', file], { stdio: 'inherit' });
  execFileSync('codesign', ['--verify', '--strict', file], { stdio: 'inherit' });
}

function main() {
  const { values } = parseArgs({
    options: {
      targets: { type: 'string', default: Object.keys(TARGETS).join(',') },
      'node-line': { type: 'string', default: '26' },
      out: { type: 'string', default: join(ROOT, 'release') },
      'sums-only': { type: 'boolean', default: false },
    },
  });
  if (values['sums-only']) {
    writeFileSync(join(values.out, 'SHA256SUMS'), sha256sums(values.out));
    return;
  }
  const targets = values.targets.split(',');
  for (const target of targets) if (!(target in TARGETS)) throw new Error(`unknown target ${target} (known: ${Object.keys(TARGETS).join(', ')})`);
  const host = hostTarget();
  if (!host) throw new Error(`no Node of the registry runs on ${process.platform}-${process.arch} to build with`);

  const out = values.out;
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  // npm pack's prepack builds dist/ afresh (--clean --types): the executables carry the same build as the tarball.
  execFileSync('npm', ['pack', '--pack-destination', out, '--silent'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });

  const version = commonVersion(values['node-line'], [...new Set([host, ...targets])]);
  const builder = nodeBinary(host, version);
  chmodSync(builder, 0o755);
  for (const target of targets) {
    const output = join(out, TARGETS[target].file);
    const executable = nodeBinary(target, version);
    buildExecutable({ builder, executable, output });
    const format = formatOf(readFileSync(output).subarray(0, 4096));
    if (format !== FORMATS[target]) throw new Error(`${output} is ${format ?? 'of no known format'}, not ${FORMATS[target]}`);
    if (target === 'darwin-arm64') signForMacOS(output);
    process.stderr.write(`release: ${TARGETS[target].file} (Node ${version}${target === host ? ', code cache' : ''})\n`);
  }
  writeFileSync(join(out, 'SHA256SUMS'), sha256sums(out));
  process.stderr.write(`release: ${readdirSync(out).length} files in ${out}\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
