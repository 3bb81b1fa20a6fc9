// The layers of src/ only look down: the rule of ARCHITECTURE.md, checked on every import of every source file.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../src');

/** Each layer and the layers it may import from (besides itself). `base` is the files directly under src/. */
const MAY_IMPORT: Record<string, readonly string[]> = {
  base: [],
  api: ['base'],
  output: ['base', 'api'],
  config: ['base', 'api', 'output'],
  mock: ['base', 'api'],
  // The one judge of two readings and the gate over them (src/judge), below every face that compares.
  judge: ['base', 'api'],
  history: ['base', 'api', 'judge'],
  cli: ['base', 'api', 'output', 'config', 'mock', 'history', 'judge'],
  // The MCP server is a second face of the CLI: it runs the CLI's contexts, runs and error words, over stdio.
  mcp: ['base', 'api', 'output', 'config', 'cli', 'history', 'judge'],
  // The GitHub Action (action.yml's bundle) is a third face: it runs the CLI's command lines in-process (program.ts's run).
  action: ['cli'],
};

/** The one upward import: the `mcp` verb loads the server when it runs (dynamically: no other command loads it). */
const UPWARD: readonly { from: string; to: string }[] = [{ from: 'cli/commands/mcp.ts', to: 'mcp/server.js' }];

const CLI = join(SRC, 'cli');

/**
 * The rooms of src/cli, lowest first: a room imports only from the rooms before it. `.` is the files directly under
 * src/cli (the process's entry, the command tree and its index), above every verb; the manual is written from that tree.
 */
const CLI_ROOMS: readonly string[] = [
  'terminal', // streams, TTY facts, stderr lines, prompts
  'flags', // flags several verbs share, and their value parsers
  'runtime', // the invocation, the context, the handler, exit codes, secrets, the files a run reads and writes
  'bulk', // the worker pool and the shares of --shard
  'completion', // shell completion scripts
  'verdicts', // judging reports: gates, the assertions file, failing URLs named
  'report-files', // the files a run leaves: HTML, JUnit, summary, Code Quality, baselines
  'reading', // reading lists: pages read, judged, printed, recorded
  'deleting', // confirmation, dry runs
  'commands', // one home per verb
  '.', // main.ts, program.ts, command-index.ts
  'manual', // the command reference, man pages and the config file's schema, from the tree
];

/** The imports that run up CLI_ROOMS (at most two pairs of rooms), each with why it stays. */
const CLI_UPWARD: readonly { from: string; to: string; imports: readonly string[] }[] = [
  // --password-file is read by the prompts' readSecretFromFile through runtime/files.ts, the one reader of the files a
  // user names (the BOM dropped, a missing file's error in plain words). files.ts stays beside the run's other files
  // (run-files.ts, write.ts), which every room uses; a second reader in terminal/ would drift from it.
  { from: 'terminal', to: 'runtime', imports: ['terminal/prompts.ts -> runtime/files.ts'] },
];

function cliRoomOf(file: string): string {
  const parts = relative(CLI, file).split('/');
  return parts.length === 1 ? '.' : (parts[0] as string);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

function layerOf(file: string): string {
  const parts = relative(SRC, file).split('/');
  return parts.length === 1 ? 'base' : (parts[0] as string);
}

/** Relative imports, static and dynamic (`import('./x.js')`), and `export ... from`. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((match) => match[1] as string);
  return specifiers.map((specifier) => resolve(dirname(file), specifier));
}

/** Whether `file` imports the module ending in `target` only dynamically (`await import('…/target')`). */
function isDynamicImport(file: string, target: string): boolean {
  const text = readFileSync(file, 'utf8');
  const name = target.replace(/[.]/g, '\\.');
  return new RegExp(`import\\(\\s*'[^']*${name}'`).test(text) && !new RegExp(`from\\s*'[^']*${name}'`).test(text);
}

describe('architecture', () => {
  const files = sourceFiles(SRC);

  it('no two files import each other (a pair that does is one concern, or a shared type belongs lower)', () => {
    const importsBy = new Map(files.map((file) => [file, new Set(importsOf(file).map((target) => target.replace(/\.js$/, '.ts')))]));
    const pairs: string[] = [];
    for (const [file, targets] of importsBy) {
      for (const target of targets) {
        if (file < target && importsBy.get(target)?.has(file)) pairs.push(`${relative(SRC, file)} <-> ${relative(SRC, target)}`);
      }
    }
    expect(pairs).toEqual([]);
  });

  it('no folder of src/ holds more than 14 source files directly (a drawer of 30 is no room)', () => {
    const counts = new Map<string, number>();
    for (const file of files) counts.set(dirname(relative(SRC, file)), (counts.get(dirname(relative(SRC, file))) ?? 0) + 1);
    expect([...counts].filter(([, count]) => count > 14)).toEqual([]);
  });

  it('no doc comment stands orphaned above another (only the last of a stack documents the code below it)', () => {
    const stacked = files.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/\/\*\*(?:(?!\*\/)[\s\S])*\*\/[ \t]*\n[ \t]*\/\*\*/g)].map(
        (match) => `${relative(SRC, file)}:${readFileSync(file, 'utf8').slice(0, match.index).split('\n').length}`,
      ),
    );
    expect(stacked).toEqual([]);
  });

  it('knows every layer of src/', () => {
    expect(files.length).toBeGreaterThan(50);
    for (const file of files) expect(Object.keys(MAY_IMPORT), relative(SRC, file)).toContain(layerOf(file));
  });

  it('layers only look down: no src/api|config|output|mock file imports from src/cli, nor api from config or output', () => {
    const violations: string[] = [];
    for (const file of files) {
      const layer = layerOf(file);
      for (const target of importsOf(file)) {
        const targetLayer = layerOf(target);
        const upward = UPWARD.some((edge) => relative(SRC, file) === edge.from && relative(SRC, target) === edge.to && isDynamicImport(file, edge.to));
        if (targetLayer !== layer && !MAY_IMPORT[layer]!.includes(targetLayer) && !upward) {
          violations.push(`${relative(SRC, file)} (${layer}) imports ${relative(SRC, target)} (${targetLayer})`);
        }
      }
    }
    expect(violations).toEqual([]);
  });

  it('src/mcp is loaded by its verb alone, and dynamically', () => {
    const importers = files.filter((file) => layerOf(file) !== 'mcp' && importsOf(file).some((target) => layerOf(target) === 'mcp'));
    expect(importers.map((file) => relative(SRC, file))).toEqual(['cli/commands/mcp.ts']);
    expect(isDynamicImport(join(SRC, 'cli/commands/mcp.ts'), 'mcp/server.js')).toBe(true);
  });

  it('the scan sees static and dynamic imports (so the rule above can fail)', () => {
    const cliTargets = files.filter((file) => layerOf(file) === 'cli').flatMap(importsOf);
    expect(new Set(cliTargets.map(layerOf))).toEqual(new Set(['base', 'api', 'output', 'config', 'mock', 'history', 'judge', 'cli', 'mcp']));
    expect(importsOf(join(SRC, 'cli', 'main.ts'))).toContain(join(SRC, 'cli', 'program.js'));
  });
  describe('the rooms of src/cli', () => {
    const cliFiles = files.filter((file) => file.startsWith(CLI + sep));
    const imports = cliFiles.flatMap((file) =>
      importsOf(file)
        .filter((target) => target.startsWith(CLI + sep))
        .map((target) => ({ file, target: target.replace(/\.js$/, '.ts') })),
    );
    const rank = (file: string) => CLI_ROOMS.indexOf(cliRoomOf(file));
    const upward = imports
      .filter(({ file, target }) => rank(target) > rank(file))
      .map(({ file, target }) => `${relative(CLI, file)} -> ${relative(CLI, target)}`);

    it('every room of src/cli has its place in the order', () => {
      expect(cliFiles.length).toBeGreaterThan(50);
      for (const file of cliFiles) expect(CLI_ROOMS, relative(SRC, file)).toContain(cliRoomOf(file));
    });

    it('a room imports only from the rooms below it, but for the upward imports written down', () => {
      const allowed = CLI_UPWARD.flatMap((pair) => pair.imports);
      expect(upward.filter((edge) => !allowed.includes(edge))).toEqual([]);
    });

    it('the upward imports written down are at most two pairs of rooms, each up the order and still there', () => {
      expect(CLI_UPWARD.length).toBeLessThanOrEqual(2);
      for (const pair of CLI_UPWARD) {
        expect(CLI_ROOMS.indexOf(pair.to)).toBeGreaterThan(CLI_ROOMS.indexOf(pair.from));
        for (const edge of pair.imports) {
          expect(upward, edge).toContain(edge);
          const [from, to] = edge.split(' -> ') as [string, string];
          expect([cliRoomOf(join(CLI, from)), cliRoomOf(join(CLI, to))]).toEqual([pair.from, pair.to]);
        }
      }
    });
  });
});
