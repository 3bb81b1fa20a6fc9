// The Node line rsapi needs, checked first by `npm run demo`, `npm test` and bin/rsapi in a checkout: an older node gets
// one line naming the way out (scripts/node-lines.mjs fetches a newer one), not 20 warnings and a stack trace.
// CommonJS, so the bin shim can require it on any Node before its ES module loader starts.
'use strict';
const { join, relative } = require('node:path');

/** Node 22.13 is the oldest line with node:sqlite unflagged (the history store). */
const MINIMUM = [22, 13];

function tooOld(version = process.versions.node) {
  const [major, minor] = version.split('.').map(Number);
  return major < MINIMUM[0] || (major === MINIMUM[0] && minor < MINIMUM[1]);
}

/**
 * The one line: what is needed, what this is, and the two steps that fix it, as the user types them from where they
 * are (`$PWD` at the checkout's root, else the checkout's path).
 */
function tooOldLine(who, root, cwd = process.cwd()) {
  const here = relative(cwd, root) === '';
  const script = here ? 'scripts/node-lines.mjs' : join(root, 'scripts', 'node-lines.mjs');
  const bin = here ? '$PWD/.cache/node-lines/24/bin' : join(root, '.cache', 'node-lines', '24', 'bin');
  return `${who}: Node.js ${MINIMUM.join('.')} or newer is needed (this is ${process.version}): run \`node ${script} 24\`, then \`export PATH="${bin}:$PATH"\`, and try again\n`;
}

/** Ends the process (exit 1) with that line when this Node is too old; npm runs a script at the root, from INIT_CWD. */
function requireNode(who, root) {
  if (!tooOld()) return;
  process.stderr.write(tooOldLine(who, root, process.env.INIT_CWD || process.cwd()));
  process.exit(1);
}

module.exports = { tooOld, tooOldLine, requireNode };
