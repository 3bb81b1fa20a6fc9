// No run's state lives at module level in src/: each invocation carries its own (src/cli/runtime/invocation.ts), so two
// runs in one process (in-process tests, a program embedding rsapi) never share secrets, stdout state or locks.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseSync, type Expression, type Program } from 'oxc-parser';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..', '..', 'src');

/** Module-level state allowed, each for its reason: none holds anything of one run. */
const ALLOWED: Readonly<Record<string, string>> = {
  'output/table/width.ts segmenter': 'a lazily made Intl.Segmenter: a pure tool, the same for every run, costly to make at start-up',
  'mock/routes.ts lastSelection': "a cache keyed by each mock store (weakly: it goes with its store), checked against the store's revision",
  'api/model/checks.ts PASSED_ENTRIES': 'frozen entries of a passed check, one per importance: immutable values, the same for every run',
  'api/model/checks.ts ID_LISTS': 'frozen lists of check ids shared by records alike, at most 256: immutable values, the same for every run',
  'api/model/checks.ts SHARED_OUTCOMES':
    "frozen outcomes of shared entries (a passed check's, a kept text's parsed back) shared by slimmed records alike, at most 4,096 an entry: immutable values, reached only through an entry a run decoded itself",
  'api/model/checks.ts PARSED_ENTRIES': 'deep-frozen entries of those texts parsed back, at most 4,096: immutable values, the same for every run',
  'api/model/checks.ts CODED_ENTRIES': 'IN_TEXT and the frozen entries of passed checks, by code, at most 256: immutable values, the same for every run',
  'api/model/checks.ts ENTRY_CODES': 'the code of each of those entries: immutable values, the same for every run',
  'api/model/checks.ts ENTRY_TEXTS': 'the JSON texts of failed checks shared by records alike, at most 4,096: immutable values, the same for every run',
  'judge/readings.ts CHECKS':
    'frozen {id, passed} readings (failed, passed) shared by pages alike, at most 4,096 ids: immutable values, the same for every run',
  'judge/readings.ts LISTS': 'frozen lists of those readings, at most 256: immutable values, the same for every run',
  'mcp/server.ts historyTurns': "each MCP server's turns for the history tools, keyed weakly by its context: it goes with its server",
};

/** Collections and objects whose contents can change; a module-level one is state unless nothing changes it. */
const MUTABLE_CONSTRUCTORS = new Set(['Set', 'Map', 'WeakMap', 'WeakSet', 'Array', 'AbortController']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Whether the file changes what `name` holds: assigns into it, or calls a method that changes it. */
function mutated(name: string, text: string): boolean {
  const id = name.replace(/\$/g, '\\$');
  const assignment = new RegExp(`\\b${id}(\\.[\\w$]+|\\[[^\\]]*\\])+\\s*(=(?!=)|\\+=|-=|\\?\\?=|\\|\\|=|&&=|\\+\\+|--)`);
  const call = new RegExp(`\\b${id}\\.(add|set|delete|clear|push|pop|shift|unshift|splice|sort|reverse|fill|copyWithin|abort)\\(`);
  return assignment.test(text) || call.test(text) || new RegExp(`\\bdelete ${id}[.[]`).test(text) || new RegExp(`Object\\.assign\\(${id}\\b`).test(text);
}

/** `new Set(...)`, `[...]`, `{...}` (through `as`, `satisfies` and parentheses): a value whose contents can change. */
function mutableKind(initializer: Expression | null): string | undefined {
  let node = initializer;
  while (node && (node.type === 'TSAsExpression' || node.type === 'TSSatisfiesExpression' || node.type === 'ParenthesizedExpression')) node = node.expression;
  if (!node) return undefined;
  if (node.type === 'NewExpression' && node.callee.type === 'Identifier' && MUTABLE_CONSTRUCTORS.has(node.callee.name)) return `new ${node.callee.name}`;
  if (node.type === 'ArrayExpression') return 'an array';
  if (node.type === 'ObjectExpression') return 'an object';
  return undefined;
}

/** The syntax tree of a TypeScript module (oxc's parser: no type checker needed to see declarations). */
function parse(file: string, text: string): Program {
  const { program, errors } = parseSync(file, text, { lang: 'ts', sourceType: 'module' });
  if (errors.length > 0) throw new Error(`${file}: ${errors[0]!.message}`);
  return program;
}

/** Every module-level binding of `file` that holds state: `let` and `var`, and const collections something changes. */
function moduleState(file: string): { name: string; why: string }[] {
  const text = readFileSync(file, 'utf8');
  return collect(parse(file, text), text);
}

function collect(program: Program, text: string): { name: string; why: string }[] {
  const found: { name: string; why: string }[] = [];
  for (const top of program.body) {
    const statement = top.type === 'ExportNamedDeclaration' ? top.declaration : top;
    if (statement?.type !== 'VariableDeclaration' || statement.declare) continue;
    for (const declaration of statement.declarations) {
      const name = declaration.id.type === 'Identifier' ? declaration.id.name : text.slice(declaration.id.start, declaration.id.end);
      if (statement.kind === 'let' || statement.kind === 'var') {
        found.push({ name, why: `a module-level ${statement.kind}` });
        continue;
      }
      const kind = mutableKind(declaration.init);
      if (kind === 'new AbortController') found.push({ name, why: 'a module-level AbortController' });
      else if (kind && mutated(name, text)) found.push({ name, why: `a module-level const holding ${kind}, changed in the file` });
    }
  }
  return found;
}

/** Every module-level binding of src/ that holds state, keyed `dir/file.ts name`: parsed once, for both checks below. */
function srcState(): { key: string; why: string }[] {
  return sourceFiles(SRC).flatMap((file) => moduleState(file).map(({ name, why }) => ({ key: `${relative(SRC, file).split('\\').join('/')} ${name}`, why })));
}

describe('module-level state', () => {
  const found = srcState();

  it('no file under src/ keeps mutable state at module level (but the allowed caches)', () => {
    const offenders = found.filter(({ key }) => !(key in ALLOWED)).map(({ key, why }) => `${key}: ${why}`);
    expect(offenders).toEqual([]);
  });

  it('every allowed entry still exists (a stale allowance would let a new global of that name in)', () => {
    const present = new Set(found.map(({ key }) => key));
    expect(Object.keys(ALLOWED).filter((key) => !present.has(key))).toEqual([]);
  });

  it.each([
    ['let count = 0;', ['count']],
    ['export let exported = 0;', ['exported']],
    ['var seen;', ['seen']],
    ['const held = new Set<string>();\nexport function take(p: string) { held.add(p); }', ['held']],
    ['const gone = new AbortController();', ['gone']],
    ['const queue: string[] = [];\nexport function put(s: string) { queue.push(s); }', ['queue']],
    ['const cache = {} as Record<string, number>;\nexport function remember(k: string) { cache[k] = 1; }', ['cache']],
    ['const TABLE = new Set([1, 2]);\nexport const has = (n: number) => TABLE.has(n);', []],
    ["const NAMES = ['a', 'b'] as const;", []],
    ['export function f() { let local = 0; local++; return local; }', []],
  ] as const)('the check itself: %j -> %j', (code, expected) => {
    expect(collect(parse('fixture.ts', code), code).map(({ name }) => name)).toEqual(expected);
  });
});
