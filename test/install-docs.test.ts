// The install instructions: rsapi is not on the npm registry (a package of that name there is someone else's), so no
// doc tells anyone to install it by name; they install from the repository or a release tarball (`npm pack`).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
function markdownFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

/** `npm install -g rsapi`, `npm i --global rsapi@1`, `npx rsapi` outside a checkout…: the registry's package. */
const FROM_REGISTRY = /\bnpm (?:install|i|add)\b[^\n`]*?(?:^|\s)rsapi(?:@\S*)?(?=\s|$|`)|\bnpx -y rsapi\b/m;

describe('install instructions', () => {
  it('no doc installs rsapi by name from the npm registry', () => {
    const offending = ['README.md', ...markdownFiles('docs')].flatMap((path) =>
      readFileSync(join(root, path), 'utf8')
        .split('\n')
        .flatMap((line, index) => (FROM_REGISTRY.test(line) ? [`${path}:${index + 1}: ${line.trim()}`] : [])),
    );
    expect(offending).toEqual([]);
  });

  it('the README says where rsapi comes from: the repository or a tarball made with npm pack', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const install = readme.slice(readme.indexOf('## Install'), readme.indexOf('## Quick start'));
    expect(install).toMatch(/not published on the npm registry/);
    expect(install).toMatch(/npm pack/);
    expect(install).toMatch(/npm install -g \.\/rsapi-\d+\.\d+\.\d+\.tgz/);
  });
});
