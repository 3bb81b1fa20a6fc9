// `npm run docs`: writes the command reference (docs/commands/*.md), the man pages (man/*.1) and package.json's `man`
// from the command tree (src/cli/manual/generate.ts), the same declarations --help reads, and the program's tables in
// docs/*.md (exit codes, environment variables, settings: src/cli/manual/doc-tables.ts). Run it after changing a
// command, an option, a description, an example or one of those tables; test/cli/manual/generate.test.ts fails until
// the files are current.
// The generator is bundled with esbuild into node_modules/.cache (its imports of packages resolve from there) and
// imported: one process, every command declared in it, none spawned.
import { build } from 'esbuild';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = new URL('..', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const outdir = join(root, 'node_modules', '.cache', 'rsapi-docs');
const outfile = join(outdir, `generate-${process.pid}.mjs`);
mkdirSync(outdir, { recursive: true });
try {
  await build({
    entryPoints: [join(root, 'src/cli/manual/generate.ts')],
    absWorkingDir: root,
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    packages: 'external',
    define: { __RSAPI_VERSION__: JSON.stringify(pkg.version) },
    logLevel: 'warning',
  });
  const { writeManual } = await import(pathToFileURL(outfile).href);
  const written = await writeManual(root);
  const pages = written.filter((path) => path.startsWith('man/')).length;
  const reference = written.filter((path) => path.startsWith('docs/commands/')).length;
  const tables = written.length - pages - reference;
  process.stdout.write(
    `docs: ${reference} Markdown files in docs/commands/, ${pages} man pages in man/, package.json's "man"${tables ? `, the tables of ${tables} pages of docs/` : ''}\n`,
  );
} finally {
  rmSync(outfile, { force: true });
}
