// Bundles the CLI with esbuild: one entry, lazily loaded chunks per command, dependencies inlined.
import { build } from 'esbuild';
import { readFileSync, renameSync, rmSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const dist = new URL('../dist', import.meta.url).pathname;
// Built beside dist/ and swapped in at the end, so a binary running meanwhile never sees half a build.
const outdir = `${dist}.building-${process.pid}`;
rmSync(outdir, { recursive: true, force: true });

await build({
  entryPoints: { main: 'src/cli/main.ts' },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'none',
  chunkNames: 'chunks/[name]-[hash]',
  define: { __RSAPI_VERSION__: JSON.stringify(pkg.version) },
  // Some CommonJS dependencies (undici, conf's helpers) call require() on Node built-ins.
  banner: { js: "import{createRequire as __rsapiCreateRequire}from'node:module';const require=__rsapiCreateRequire(import.meta.url);" },
  logLevel: 'warning',
});

rmSync(dist, { recursive: true, force: true });
renameSync(outdir, dist);
