// `npm run docs`: the command reference (docs/commands/*.md) and the man pages (man/*.1) written from the whole command
// tree, declared in-process as `rsapi completion` declares it, in a neutral invocation (no terminal, no environment),
// so the pages say what --help says and nothing of the machine that wrote them.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { VERSION } from '../../version.js';
import { createInvocation } from '../runtime/invocation.js';
import { buildProgram } from '../program.js';
import { withDocTables } from './doc-tables.js';
import { markdownIndex, markdownPage } from './markdown.js';
import { manualPages } from './model.js';
import { manPage } from './roff.js';

/** Where the generated files live, relative to the repository, and which of the files there are generated. */
export const MANUAL_DIRS = [
  { dir: 'docs/commands', generated: /\.md$/ },
  { dir: 'man', generated: /\.\d$/ },
] as const;

/** The command that writes them again, for the message of a test that finds them stale. */
export const REGENERATE = 'npm run docs';

/** Every generated file, by its path relative to the repository. */
export async function manualFiles(): Promise<Map<string, string>> {
  const discard = new Writable({ write: (_chunk, _encoding, done) => done() });
  const invocation = createInvocation({
    terminal: {
      stdout: discard,
      stderr: discard,
      stdin: Readable.from([]),
      stdoutIsTTY: false,
      stderrIsTTY: false,
      stdinIsTTY: false,
      columns: undefined,
      env: {},
    },
    signal: new AbortController().signal,
  });
  // `completion` is the one argv for which every top-level command is declared in full.
  const program = await buildProgram(invocation, ['completion']);
  const pages = manualPages(program);
  const files = new Map<string, string>([['docs/commands/README.md', markdownIndex(pages)]]);
  for (const page of pages) {
    files.set(`docs/commands/${page.page}.md`, markdownPage(page, pages));
    files.set(`man/${page.page}.1`, manPage(page, pages, VERSION));
  }
  return files;
}

/**
 * Writes every generated file under `root` and removes the generated files of commands that are gone. When `root`
 * holds a package.json, its `man` field is set to the man pages (what `npm install -g` links for `man`), and `files`
 * made to include `man`. Returns the paths written.
 */
export async function writeManual(root: string): Promise<string[]> {
  const files = await manualFiles();
  for (const { dir, generated } of MANUAL_DIRS) {
    mkdirSync(join(root, dir), { recursive: true });
    for (const name of readdirSync(join(root, dir))) if (generated.test(name) && !files.has(`${dir}/${name}`)) rmSync(join(root, dir, name));
  }
  for (const [path, content] of files) writeFileSync(join(root, path), content);
  const written = [...files.keys(), ...writeDocTables(root)];
  const manifest = join(root, 'package.json');
  if (existsSync(manifest)) writeFileSync(manifest, withManPages(readFileSync(manifest, 'utf8'), manPagesOf(files)));
  return written;
}

/** The pages of docs/ under `root` whose marked tables (exit codes, environment, settings) were stale, written afresh. */
function writeDocTables(root: string): string[] {
  const docs = join(root, 'docs');
  if (!existsSync(docs)) return [];
  const written: string[] = [];
  for (const name of readdirSync(docs).filter((file) => file.endsWith('.md'))) {
    const page = readFileSync(join(docs, name), 'utf8');
    const fresh = withDocTables(page);
    if (fresh === page) continue;
    writeFileSync(join(docs, name), fresh);
    written.push(`docs/${name}`);
  }
  return written;
}

/** The man pages among the generated files, as package.json's `man` lists them. */
export function manPagesOf(files: Map<string, string>): string[] {
  return [...files.keys()].filter((path) => path.startsWith('man/')).map((path) => `./${path}`);
}

/** package.json's text with `man` set to these pages and `man` among its `files`, keys in their order. */
export function withManPages(text: string, man: string[]): string {
  const manifest = JSON.parse(text) as Record<string, unknown>;
  const files = Array.isArray(manifest.files) ? (manifest.files as string[]) : [];
  const entries = Object.entries(manifest).filter(([key]) => key !== 'man');
  const updated: [string, unknown][] = [];
  for (const [key, value] of entries) {
    updated.push([key, key === 'files' && !files.includes('man') ? [...files, 'man'] : value]);
    if (key === 'files') updated.push(['man', man]);
  }
  if (!entries.some(([key]) => key === 'files')) updated.push(['files', ['man']], ['man', man]);
  return `${JSON.stringify(Object.fromEntries(updated), null, 2)}\n`;
}
