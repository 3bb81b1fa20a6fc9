// Spans the README, docs/, ARCHITECTURE.md and src/: nothing there refers to a path outside the repository (a user's
// clone has only the repository), and the links of the Markdown pages lead to files that are in it.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Names of places outside the repository that its text once pointed at: the project's shared notes and API documents. */
const OUTSIDE = [/\.\.\/shared\b/, /\bshared\/(notes|api)\//, /\bapi\/[\w-]+\.md\b/, /startup-costs/, /cli-contract\.md/, /STYLE\.md/, /\/work\//];

function filesUnder(dir: string, keep: (path: string) => boolean): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(join(ROOT, path)).isFile() && keep(path));
}

const PAGES = ['README.md', 'ARCHITECTURE.md', ...filesUnder('docs', (path) => path.endsWith('.md'))];
const SOURCES = filesUnder('src', (path) => path.endsWith('.ts'));

describe('the repository refers only to itself', () => {
  const outsideIn = (path: string) => {
    const lines = readFileSync(join(ROOT, path), 'utf8').split('\n');
    return lines.filter((line) => OUTSIDE.some((pattern) => pattern.test(line))).map((line) => `${path}: ${line.trim()}`);
  };

  it.each(PAGES)('%s names no path outside the repository', (path) => {
    expect(outsideIn(path), `${path} points outside the repository: bring what it needs in (docs/) and point there`).toEqual([]);
  });

  it('src/ names no path outside the repository', () => {
    expect(SOURCES.flatMap(outsideIn), 'bring what the code refers to into docs/ and point there').toEqual([]);
  });

  it.each(PAGES)('%s links only to files of the repository that exist', (path) => {
    const text = readFileSync(join(ROOT, path), 'utf8').replace(/```[\s\S]*?```/g, '');
    const problems: string[] = [];
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z][a-z+.-]*:/i.test(target!) || target!.startsWith('#')) continue;
      const file = resolve(ROOT, dirname(path), target!.replace(/#.*$/, ''));
      const inRepo = relative(ROOT, file);
      if (inRepo.startsWith('..')) problems.push(`${target} leaves the repository`);
      else if (!existsSync(file)) problems.push(`${target} does not exist`);
    }
    expect(problems).toEqual([]);
  });

  it('src/ names only Markdown files the repository holds (docs/phprank.md, not a shared note)', () => {
    const problems = SOURCES.flatMap((path) =>
      [...readFileSync(join(ROOT, path), 'utf8').matchAll(/[\w./-]+\.md\b/g)]
        .map((match) => match[0])
        .filter((name) => !existsSync(join(ROOT, name)))
        .map((name) => `${path}: ${name}`),
    );
    expect(problems).toEqual([]);
  });

  it('holds the pages the README links to: one per topic, the phpRank dialect among them', () => {
    for (const page of ['docs/phprank.md', 'docs/performance.md', 'docs/ci.md', 'docs/commands/README.md']) expect(existsSync(join(ROOT, page))).toBe(true);
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n').length).toBeLessThanOrEqual(250);
  });
});
