// The main script of the single-file executable (Node's single executable applications; scripts/sea.mjs builds it).
// CommonJS, so it runs before Node starts its ES module loader. The executable carries the npm package's own files as
// assets (bin/rsapi, dist/main.js and its lazily loaded chunks, root-help.txt); on its first run it writes them once
// into a cache directory named for the build, and from then on it runs that copy's bin/rsapi, which loads
// dist/main.js and its chunks from disk as the npm install does: the same lazy loading, the same compile cache.
// `--version` answers here, from the build's own record, without touching the disk; `-v --version` says as well that
// this is the single-file build, and which Node it carries (for a bug report).
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const sea = require('node:sea');

/** { version, build, node }: the package's version, a hash of the files carried, the Node it was built with. */
const BUILD = JSON.parse(sea.getAsset('sea-build.json', 'utf8'));

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  writeAll(`${BUILD.version}\n`);
} else if (argv.length === 2 && argv.includes('--version') && (argv.includes('-v') || argv.includes('--verbose'))) {
  writeAll(`${BUILD.version}\nsingle-file build ${BUILD.build}, Node ${process.version} inside\n`);
} else {
  const root = unpacked();
  // A require() of the injected script loads built-in modules only: this one reads files.
  const bin = path.join(root, 'bin', 'rsapi');
  require('node:module').createRequire(bin)(bin);
}

/**
 * The directory holding this build's files, written on the first run: under the user's cache directory, or, when that
 * cannot be written (a read-only home), a fresh temporary one removed when the process exits. A build's directory is
 * renamed into place only once complete, so it is never seen half written, and two first runs at once both succeed.
 */
function unpacked() {
  const dir = path.join(cacheHome(), 'rsapi', `sea-${BUILD.build}`);
  if (fs.existsSync(path.join(dir, 'bin', 'rsapi'))) return dir;
  const staging = `${dir}.${process.pid}.partial`;
  try {
    writeFiles(staging);
    try {
      fs.renameSync(staging, dir);
    } catch (error) {
      // Another first run put its copy there meanwhile: that one is used.
      if (!fs.existsSync(path.join(dir, 'bin', 'rsapi'))) throw error;
      fs.rmSync(staging, { recursive: true, force: true });
    }
    return dir;
  } catch {
    fs.rmSync(staging, { recursive: true, force: true });
    const temporary = fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'rsapi-sea-'));
    process.on('exit', () => fs.rmSync(temporary, { recursive: true, force: true }));
    writeFiles(temporary);
    return temporary;
  }
}

/** XDG_CACHE_HOME when set; else the platform's place for caches. */
function cacheHome() {
  if (process.env.XDG_CACHE_HOME && path.isAbsolute(process.env.XDG_CACHE_HOME)) return process.env.XDG_CACHE_HOME;
  const home = require('node:os').homedir();
  if (process.platform === 'win32') return process.env.LOCALAPPDATA || path.join(home, 'AppData', 'Local');
  if (process.platform === 'darwin') return path.join(home, 'Library', 'Caches');
  return path.join(home, '.cache');
}

/** Every asset under `files/` written below dir, readable by this user alone. */
function writeFiles(dir) {
  for (const key of sea.getAssetKeys()) {
    if (!key.startsWith('files/')) continue;
    const file = path.join(dir, ...key.slice('files/'.length).split('/'));
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    fs.writeFileSync(file, new Uint8Array(sea.getRawAsset(key)), { mode: 0o600 });
  }
}

/** As bin/rsapi writes: straight to file descriptor 1, a reader gone away (EPIPE) being no error. */
function writeAll(text) {
  let rest = Buffer.from(text);
  try {
    while (rest.length > 0) rest = rest.subarray(fs.writeSync(1, rest));
  } catch (error) {
    if (error.code !== 'EPIPE') {
      process.stderr.write(`rsapi: cannot write the output: ${error.message}\n`);
      process.exitCode = 1;
    }
  }
}
