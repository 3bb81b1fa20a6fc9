// Which install scripts run, and where: `npm ci` runs no unreviewed one (allowScripts covers every locked package that
// has one, and CI installs with --strict-allow-scripts so a new one fails there), and the package itself has none, so
// installing its tarball or `npm link` warns of nothing.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const manifest = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { allowScripts?: Record<string, boolean>; scripts: Record<string, string> };
const lock = JSON.parse(readFileSync(`${root}package-lock.json`, 'utf8')) as { packages: Record<string, { hasInstallScript?: boolean }> };

describe('install scripts', () => {
  it('every locked package with an install script has an allowScripts entry by name', () => {
    const withScripts = Object.entries(lock.packages)
      .filter(([, entry]) => entry.hasInstallScript)
      .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
    expect(withScripts.length).toBeGreaterThan(0);
    for (const name of withScripts) expect(typeof manifest.allowScripts?.[name], name).toBe('boolean');
  });

  it('CI installs with --strict-allow-scripts: a new install script fails the install instead of warning', () => {
    expect(readFileSync(`${root}.ci/run`, 'utf8')).toMatch(/^npm ci .*--strict-allow-scripts/m);
  });

  it('the package has no script npm runs when it installs the package (a tarball, npm link): the build runs before packing', () => {
    for (const event of ['preinstall', 'install', 'postinstall', 'prepare']) expect(manifest.scripts[event], event).toBeUndefined();
    expect(manifest.scripts.prepack).toMatch(/scripts\/build\.mjs/);
    // `npm ci` in a checkout still builds: npm runs the root project's preprepare there, never a dependency's.
    expect(manifest.scripts.preprepare).toMatch(/scripts\/build\.mjs/);
  });
});
