// The layers of src/ only look down: the rule of ARCHITECTURE.md, checked on every import of every source file.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../src');

/** Each layer and the layers it may import from (besides itself). `base` is the files directly under src/. */
const MAY_IMPORT: Record<string, readonly string[]> = {
  base: [],
  api: ['base'],
  output: ['base', 'api'],
  config: ['base', 'api', 'output'],
  mock: ['base', 'api'],
  history: ['base', 'api'],
  cli: ['base', 'api', 'output', 'config', 'mock', 'history'],
};

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

describe('architecture', () => {
  const files = sourceFiles(SRC);

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
        if (targetLayer !== layer && !MAY_IMPORT[layer]!.includes(targetLayer)) {
          violations.push(`${relative(SRC, file)} (${layer}) imports ${relative(SRC, target)} (${targetLayer})`);
        }
      }
    }
    expect(violations).toEqual([]);
  });

  it('the scan sees static and dynamic imports (so the rule above can fail)', () => {
    const cliTargets = files.filter((file) => layerOf(file) === 'cli').flatMap(importsOf);
    expect(new Set(cliTargets.map(layerOf))).toEqual(new Set(['base', 'api', 'output', 'config', 'mock', 'history', 'cli']));
    expect(importsOf(join(SRC, 'cli', 'main.ts'))).toContain(join(SRC, 'cli', 'program.js'));
  });
});
