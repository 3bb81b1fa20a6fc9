// `npm run build:action`: the GitHub Action's committed bundle (GitHub runs an action's files as they are in the tree,
// it builds nothing): action/dist/index.cjs, the action (src/action/main.ts) with the rsapi CLI it runs in-process,
// @actions/core and @actions/exec inlined, every lazily loaded verb too (one committed CommonJS file has no chunks:
// a verb's module is parsed with the file and run when the verb is). `rsapi mcp` and --jq are left out (a stub that
// says so): the action runs neither, and they are half the size (the MCP SDK, jq's WebAssembly).
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
    builder.onLoad({ filter: /^\d+$/, namespace: 'rsapi-left-out' }, (args) => ({
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

mkdirSync(outdir, { recursive: true });
await build({
  absWorkingDir: root,
  entryPoints: ['src/action/main.ts'],
  outfile: join(outdir, 'index.cjs'),
  bundle: true,
  platform: 'node',
  target: 'node22',
  format: 'cjs',
  minifyWhitespace: true,
  minifySyntax: true,
  // The licences of the inlined packages stay with them, at the end of the file.
  legalComments: 'eof',
  // import.meta.url (the CLI's modules are ESM) is the bundle's own file's URL.
  banner: { js: "const __rsapiImportMetaUrl=require('node:url').pathToFileURL(__filename).href;" },
  define: { __RSAPI_VERSION__: JSON.stringify(pkg.version), 'import.meta.url': '__rsapiImportMetaUrl' },
  // pg's optional native binding (a C addon, never installed): pg loads it only when asked to, which rsapi never does.
  external: ['pg-native'],
  plugins: [leftOut, noHttpClient],
  logLevel: 'warning',
});

if (!outdirArg) {
  const doc = join(root, 'docs', 'github-action.md');
  const page = readFileSync(doc, 'utf8');
  const fresh = withActionTables(page, readFileSync(join(root, 'action.yml'), 'utf8'));
  if (fresh !== page) writeFileSync(doc, fresh);
  console.log(`action/dist/index.cjs: ${(statSync(join(outdir, 'index.cjs')).size / 1024).toFixed(0)} KB`);
}
