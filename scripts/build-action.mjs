// `npm run build:action`: the GitHub Action's committed bundle (GitHub runs an action's files as they are in the tree,
// it builds nothing), two files in action/dist/:
//   index.cjs   the action (src/action/main.ts) with @actions/core and @actions/exec inlined;
//   rsapi.mjs   the rsapi CLI (src/cli/main.ts) as one file, every lazily loaded verb inlined: the action runs it with
//               its own Node. `rsapi mcp` and --jq are left out (a stub that says so): the action runs neither, and
//               they are half the size (the MCP SDK, jq's WebAssembly).
// It also writes the inputs and outputs tables of docs/github-action.md from action.yml (scripts/action-docs.mjs).
// `--outdir=DIR` writes the bundle to DIR instead, and no doc (test/scripts/build-action.test.ts compares a fresh build with the
// committed one). The output depends only on the sources, the lock file's packages and esbuild's version.
import { build } from 'esbuild';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { withActionTables } from './action-docs.mjs';
import { join, resolve } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const outdirArg = process.argv.slice(2).find((arg) => arg.startsWith('--outdir='));
const outdir = outdirArg ? resolve(outdirArg.slice('--outdir='.length)) : join(root, 'action', 'dist');

/** Modules the action's CLI does not carry, each replaced by one that fails to load with a line saying so. */
const LEFT_OUT = [
  { filter: /[\\/]mcp[\\/]server\.js$/, what: '`rsapi mcp`' },
  { filter: /^jq-wasm\/inline$/, what: '--jq' },
];

const leftOut = {
  name: 'left-out',
  setup(builder) {
    for (const [index, { filter }] of LEFT_OUT.entries()) {
      builder.onResolve({ filter }, () => ({ path: String(index), namespace: 'rsapi-left-out' }));
    }
    builder.onLoad({ filter: /.*/, namespace: 'rsapi-left-out' }, (args) => ({
      contents: `throw new Error(${JSON.stringify(`${LEFT_OUT[Number(args.path)].what} is not part of the GitHub Action's rsapi: install rsapi for it`)});`,
      loader: 'js',
    }));
  },
};

/**
 * @actions/core loads @actions/http-client (undici inside: 550 KB) for getIDToken alone, which the action never calls:
 * the two names it imports are stand-ins that refuse to be used.
 */
const noHttpClient = {
  name: 'no-http-client',
  setup(builder) {
    builder.onResolve({ filter: /^@actions\/http-client(\/lib\/auth)?$/ }, () => ({ path: 'http-client', namespace: 'rsapi-left-out' }));
    builder.onLoad({ filter: /^http-client$/, namespace: 'rsapi-left-out' }, () => ({
      contents: `const refuse = () => { throw new Error('@actions/http-client is not part of the action (getIDToken is not used)'); };
export class HttpClient { constructor() { refuse(); } }
export class BearerCredentialHandler { constructor() { refuse(); } }`,
      loader: 'js',
    }));
  },
};

const common = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  target: 'node22',
  minifyWhitespace: true,
  minifySyntax: true,
  // The licences of the inlined packages stay with them, at the end of each file.
  legalComments: 'eof',
  define: { __RSAPI_VERSION__: JSON.stringify(pkg.version) },
  logLevel: 'warning',
};

mkdirSync(outdir, { recursive: true });
await build({
  ...common,
  entryPoints: ['src/cli/main.ts'],
  outfile: join(outdir, 'rsapi.mjs'),
  format: 'esm',
  // CommonJS dependencies (undici, conf's helpers) call require() on Node built-ins.
  banner: { js: "import{createRequire as __rsapiCreateRequire}from'node:module';const require=__rsapiCreateRequire(import.meta.url);" },
  // pg's optional native binding (a C addon, never installed): pg loads it only when asked to, which rsapi never does.
  external: ['pg-native'],
  plugins: [leftOut],
});
await build({ ...common, entryPoints: ['src/action/main.ts'], outfile: join(outdir, 'index.cjs'), format: 'cjs', plugins: [noHttpClient] });

if (!outdirArg) {
  const doc = join(root, 'docs', 'github-action.md');
  const page = readFileSync(doc, 'utf8');
  const fresh = withActionTables(page, readFileSync(join(root, 'action.yml'), 'utf8'));
  if (fresh !== page) writeFileSync(doc, fresh);
  for (const name of ['index.cjs', 'rsapi.mjs']) console.log(`action/dist/${name}: ${(statSync(join(outdir, name)).size / 1024).toFixed(0)} KB`);
}
