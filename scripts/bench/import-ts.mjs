// A TypeScript module of this repository imported from a plain script (src/ is TypeScript): bundled by esbuild into
// `work` as `NAME.js` (the PostgreSQL driver left out: nothing here loads it), then imported from there.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

/** The module `entry` (a .ts path), bundled into `work` under `name` and imported. */
export async function importTs(entry, work, name) {
  await build({
    entryPoints: { [name]: entry },
    bundle: true,
    format: 'esm',
    platform: 'node',
    outdir: work,
    external: ['pg', 'pg-native'],
    logLevel: 'warning',
  });
  return import(pathToFileURL(join(work, `${name}.js`)).href);
}
