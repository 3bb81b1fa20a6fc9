// scripts/load-order.mjs: which modules may read an import while they load (the build merges only those that do not
// into the handler's chunk, where an import cycle lets esbuild reorder top-level code).
import { describe, expect, it } from 'vitest';
import { readsImportsOnLoad } from '../../scripts/load-order.mjs';

const reads = (text: string) => readsImportsOnLoad('module.ts', `import { a, B } from './a.js';\nimport type { T } from './t.js';\n${text}`);

describe('readsImportsOnLoad', () => {
  it.each([
    ['an import used in a constant', 'export const X = a.length;'],
    ['an import called', 'const x = a();'],
    ['an import spread', 'const x = { ...a };'],
    ['a class extending an import', 'class C extends B {}'],
    ['a static field reading an import', 'class C { static x = a; }'],
    ['a function of the module called while it loads', 'function f() { return a; }\nconst x = f();'],
    ['a class of the module made while it loads', 'class C { constructor() { a(); } }\nconst c = new C();'],
    ['a method of a value of the module called while it loads', 'const o = { m: () => a };\nconst x = o.m();'],
    ['a callback a global runs at once', 'const x = Array.from({ length: 2 }, () => a);'],
    ['an import re-exported by name', 'export { a };'],
    ['a tagged template', 'const x = String.raw`${1}`;'],
    ['code that does not parse', 'const = ;'],
  ])('%s: counts', (_name, text) => {
    expect(reads(text)).toBe(true);
  });

  it.each([
    ['imports used in function bodies only', 'export function f() { return a() + B; }\nexport const g = () => a;'],
    ['methods and instance fields', 'export class C { x = a; m() { return B; } get y() { return a; } }'],
    ['constants of literals and globals', "export const S = new Set(['x']);\nexport const O = Object.freeze({ k: 1 });\nconst R = /x/;"],
    ['a global run with a callback that reads no import', 'const xs = Array.from({ length: 3 }, (_, i) => i * 2);'],
    ['types only', 'let t: T | undefined;\ntype U = typeof a;\ninterface I { b: B }'],
    ['an object whose keys are named like imports', 'const o = { a: 1, B: 2 };'],
  ])('%s: does not count', (_name, text) => {
    expect(reads(text)).toBe(false);
  });
});
