// The published package, as a user gets it: packed, installed into an empty directory from the npm cache, used as a
// library from TypeScript (type-checked with tsc, then run) and as a command, against the loopback mock. What is packed
// is dist/'s current build, staged without the older chunks dist/ keeps for binaries still running.
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, tempDir } from '../helpers/cli.js';
import { newerThanInputs } from '../helpers/fresh.js';
import { startMock, type MockFixture } from '../helpers/mock.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TSC = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');
const NODE_TYPES = join(ROOT, 'node_modules', '@types');

const dir = tempDir('rsapi-tarball-');
const stage = join(dir.path, 'package');
const app = join(dir.path, 'app');
let tarball: string;
let mock: MockFixture;

/** Runs a program to its end without blocking this process (the mock answers from it). */
async function exec(file: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = cleanEnv()): Promise<string> {
  const { stdout } = await promisify(execFile)(file, args, { cwd, env, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  return stdout;
}

/**
 * dist/types when it was written after every input of the declarations changed last (src/, the tsconfigs, the locked
 * dependencies whose types they import): then it is what tsc would write now. `npm ci` (preprepare) leaves it so in CI.
 */
function freshDeclarations(): string | undefined {
  const types = join(ROOT, 'dist', 'types');
  const inputs = ['src', 'tsconfig.json', 'tsconfig.lib.json', 'package-lock.json'].map((name) => join(ROOT, name));
  return newerThanInputs([types], inputs) ? types : undefined;
}

/**
 * The files of dist/'s current build (vitest's global setup made it): the entries and every chunk they import, directly
 * or through another chunk, each with its source map, and the notices. dist/ also keeps older builds' chunks for an
 * hour (for binaries still running), which a package built once does not have.
 */
function currentBuild(): string[] {
  const files = new Set(['main.js', 'index.js']);
  for (const file of files) {
    const code = readFileSync(join(ROOT, 'dist', file), 'utf8');
    for (const [, , path] of code.matchAll(/\b(from|import)\s*\(?\s*"(\.\.?\/[^"]+\.js)"/g)) files.add(join(dirname(file), path!));
  }
  return [...files].flatMap((file) => [file, `${file}.map`]).concat(['THIRD_PARTY_NOTICES', 'root-help.txt']);
}

beforeAll(async () => {
  mock = await startMock();
  // The staging directory holds what the package's "files" and npm's own rules put in the tarball.
  mkdirSync(stage);
  for (const name of ['package.json', 'README.md', 'bin', 'man', 'schema']) cpSync(join(ROOT, name), join(stage, name), { recursive: true });
  mkdirSync(join(stage, 'dist', 'chunks'), { recursive: true });
  for (const file of currentBuild()) cpSync(join(ROOT, 'dist', file), join(stage, 'dist', file));
  const types = freshDeclarations();
  if (types) cpSync(types, join(stage, 'dist', 'types'), { recursive: true });
  else await exec(process.execPath, [TSC, '-p', 'tsconfig.lib.json', '--outDir', join(stage, 'dist', 'types')], ROOT);
  const packed = JSON.parse(await exec('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir.path], stage)) as { filename: string }[];
  tarball = join(dir.path, packed[0]!.filename);
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  await exec('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball], app);
}, 120_000);

afterAll(async () => {
  await mock.close();
  dir.cleanup();
});

describe('the packed tarball', () => {
  it('installs nothing but rsapi itself: every dependency is in the bundle', () => {
    expect(readdirSync(join(app, 'node_modules')).filter((name) => !name.startsWith('.'))).toEqual(['rsapi']);
    expect(statSync(tarball).size).toBeLessThan(2_000_000);
  });

  it('installs globally without a warning: it has no install script for npm to hold back (the build ran before packing)', async () => {
    const prefix = join(dir.path, 'global');
    const { stderr } = await promisify(execFile)('npm', ['install', '-g', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', tarball], {
      cwd: dir.path,
      env: cleanEnv(),
      encoding: 'utf8',
    });
    expect(stderr).not.toMatch(/install-scripts|allow-scripts|allowScripts/);
    expect(await exec(join(prefix, 'bin', 'rsapi'), ['--version'], dir.path)).toBe(`${JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version}\n`);
    // A cron folder holds no node_modules: `audit --init` names the global install's schema by its file URL.
    const cron = join(dir.path, 'cron');
    mkdirSync(cron);
    await exec(join(prefix, 'bin', 'rsapi'), ['audit', '--init', 'https://example.com/'], cron);
    const { $schema } = JSON.parse(readFileSync(join(cron, 'rsapi.config.json'), 'utf8')) as { $schema: string };
    expect($schema).toMatch(/^file:.*\/global\/.*rsapi\/schema\/rsapi\.config\.schema\.json$/);
    expect(existsSync(new URL($schema, pathToFileURL(join(cron, 'rsapi.config.json'))))).toBe(true);
  });

  it('holds the man pages package.json\'s "man" lists, so `npm install -g` puts them where `man rsapi-reports-list` finds them', () => {
    const manifest = JSON.parse(readFileSync(join(app, 'node_modules', 'rsapi', 'package.json'), 'utf8')) as { man: string[] };
    expect(manifest.man).toContain('./man/rsapi-reports-list.1');
    for (const page of manifest.man) expect(readFileSync(join(app, 'node_modules', 'rsapi', page), 'utf8')).toMatch(/^\.TH "RSAPI/m);
  });

  it('ships the JSON Schema of the assertions file where rsapi.config.json points ($schema: ./node_modules/rsapi/schema/...)', () => {
    const schema = JSON.parse(readFileSync(join(app, 'node_modules', 'rsapi', 'schema', 'rsapi.config.schema.json'), 'utf8'));
    expect(schema.$defs.rule.properties.checks.properties.title).toBeDefined();
  });

  it("audit --init in a project's folder names the schema relative to the file, which resolves in every clone", async () => {
    mkdirSync(join(app, 'sites'));
    await exec(join(app, 'node_modules', '.bin', 'rsapi'), ['audit', '--init', 'https://example.com/shop/sitemap.xml', '--config', 'sites/shop.json'], app);
    const written = JSON.parse(readFileSync(join(app, 'sites', 'shop.json'), 'utf8')) as { $schema: string; audit: { job: string } };
    expect(written.$schema).toBe('../node_modules/rsapi/schema/rsapi.config.schema.json');
    expect(existsSync(join(app, 'sites', written.$schema))).toBe(true);
    expect(written.audit.job).toBe('example.com/shop');
  });

  it('holds the licence notices of the bundled packages and the source maps', () => {
    const files = readdirSync(join(app, 'node_modules', 'rsapi', 'dist'));
    expect(files).toEqual(expect.arrayContaining(['THIRD_PARTY_NOTICES', 'main.js', 'main.js.map', 'index.js', 'types']));
    const notices = readFileSync(join(app, 'node_modules', 'rsapi', 'dist', 'THIRD_PARTY_NOTICES'), 'utf8');
    for (const name of ['commander@', 'undici@', 'conf@']) expect(notices).toContain(name);
    expect(notices).toMatch(/Permission is hereby granted/);
  });

  it('is a typed library: a TypeScript file type-checks with tsc and runs against the mock', async () => {
    writeFileSync(
      join(app, 'use.ts'),
      `import { ApiClient, ApiError, NotFoundError, type Page } from 'rsapi';

const client = new ApiClient({ baseUrl: process.argv[2]!, apiKey: process.argv[3]! });
const page: Page = await client.reports.list({ result: 'good' });
let pages = 0;
for await (const each of client.projects.pages({}, { all: true })) pages += each.records.length > 0 ? 1 : 0;
let status: number | undefined;
try {
  await client.reports.show('99999');
} catch (error) {
  if (error instanceof NotFoundError) status = error.status;
  else if (error instanceof ApiError) status = -1;
}
await client.close();
console.log(JSON.stringify({ results: [...new Set(page.records.map((report) => report.result))], pages, status }));
`,
    );
    writeFileSync(
      join(app, 'misuse.ts'),
      `import { ApiClient } from 'rsapi';

const client = new ApiClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k' });
// @ts-expect-error no such method: the declarations are real, not any
client.reports.remove('1');
// @ts-expect-error the key is required
new ApiClient({ baseUrl: 'http://127.0.0.1:9' });
// @ts-expect-error an id is a string
void client.reports.show(7);
`,
    );
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          // A Node app's libraries: the declarations must not lean on the DOM's (and tsc parses 40k lines fewer).
          lib: ['ES2022'],
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          outDir: 'out',
          skipLibCheck: true,
          typeRoots: [NODE_TYPES],
          types: ['node'],
        },
        files: ['use.ts', 'misuse.ts'],
      }),
    );
    await exec(process.execPath, [TSC, '-p', 'tsconfig.json'], app);
    const output = await exec(process.execPath, ['out/use.js', mock.server.url, mock.server.apiKey], app);
    expect(JSON.parse(output)).toEqual({ results: ['good'], pages: expect.any(Number), status: 404 });
    expect(JSON.parse(output).pages).toBeGreaterThan(0);
  });

  it('installs the rsapi command, which runs from the bundle alone', async () => {
    const bin = join(app, 'node_modules', '.bin', 'rsapi');
    expect((await exec(bin, ['--version'], app)).trim()).toMatch(/^\d+\.\d+\.\d+/);
    const ids = (await exec(bin, ['reports', 'list', '-q', '--limit', '3'], app, cleanEnv(mock.env))).trim().split('\n');
    expect(ids).toHaveLength(3);
  });
});
