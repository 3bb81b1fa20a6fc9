// Every chunk of the built CLI runs its top-level code without error. scripts/build.mjs merges small chunks into the
// handler's, which closes import cycles through it; in such a chunk esbuild may run a module's top-level code before
// its imports' have run. The build merges only modules that read no import while they load: this holds it, for
// every lazily imported entry of dist/ (not only those some command test happens to load).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN, NODE } from '../helpers/cli.js';

const MAIN = join(BIN, '..', '..', 'dist', 'main.js');

/** The chunks dist/main.js reaches (this build's, not older ones kept beside it), and which of them are `import()`ed. */
function builtChunks(): { all: Set<string>; lazy: Set<string> } {
  const all = new Set<string>();
  const lazy = new Set<string>();
  const visit = (file: string) => {
    if (all.has(file)) return;
    all.add(file);
    const text = readFileSync(file, 'utf8');
    for (const [, target] of text.matchAll(/import\("(\.\.?\/[^"]+)"\)/g)) {
      const path = join(dirname(file), target as string);
      lazy.add(path);
      visit(path);
    }
    for (const [, target] of text.matchAll(/(?:from|import)"(\.\.?\/[^"]+)"/g)) visit(join(dirname(file), target as string));
  };
  visit(MAIN);
  return { all, lazy };
}

describe('the built chunks', () => {
  it('every lazily imported entry of dist/ loads, in the order a run loads them (program first)', () => {
    const { all, lazy } = builtChunks();
    expect(all.size).toBeGreaterThan(20);
    // The program's chunk: the one main.js imports (its facade, program-*.js, is passed by: scripts/build.mjs pastFacades).
    const program = join(dirname(MAIN), /import\("(\.\/[^"]+)"\)/.exec(readFileSync(MAIN, 'utf8'))?.[1] ?? '');
    expect(readFileSync(program, 'utf8')).toContain('buildProgram');
    const entries = [...lazy].sort((a, b) => Number(a !== program) - Number(b !== program) || a.localeCompare(b));
    expect(entries[0]).toBe(program);
    const script = `for (const entry of ${JSON.stringify(entries.map((entry) => pathToFileURL(entry).href))}) {
      try { await import(entry); } catch (error) { console.error(entry, error); process.exitCode = 1; }
    }`;
    const result = spawnSync(NODE, ['--input-type=module', '-e', script], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });
});
