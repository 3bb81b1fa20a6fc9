// Bundles the CLI with esbuild: one entry, lazily loaded chunks per command, dependencies inlined.
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const outdir = new URL('../dist', import.meta.url).pathname;
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
