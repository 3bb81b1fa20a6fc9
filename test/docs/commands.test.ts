// Spans README.md and docs/*.md: every command line of their sh, bash, console, zsh and fish blocks runs, in page order,
// against the bundled mock (phpRank's flavor where the page says so), in a home and settings folder of its own, and
// exits as the page says (0 unless a trailing `# ... exit N`). docs/commands/ is generated from --help and tested so;
// docs/weekly-job.md has its own test, a simulated season of weekly runs.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDocPage } from '../helpers/doc-commands.js';
import { startDocShell, type DocShell } from '../helpers/doc-shell.js';
import { tempDir } from '../helpers/cli.js';
import { startMock, type MockFixture } from '../helpers/mock.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Pages whose commands another test runs. */
const RUN_ELSEWHERE = new Set(['docs/weekly-job.md']);
const PAGES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
].filter((page) => !RUN_ELSEWHERE.has(page));

/** The services the pages name, all played by the page's mock: the mock's own default address and the examples'. */
const SERVICES = [/http:\/\/127\.0\.0\.1:8787/g, /https:\/\/(staging\.)?rank\.example\.com/g];
/** A site's sitemap the pages name, read from a file of the same URLs (`--from-sitemap` takes a path): no request leaves loopback. */
const SITEMAPS = /https:\/\/www\.example\.com\/sitemap\.xml/g;
const SITEMAP = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${['/', '/pricing', '/about', '/blog/', '/contact'].map((path) => `<url><loc>https://www.example.com${path}</loc></url>`).join('\n')}
</urlset>
`;

/** What the pages take for granted in a reader's shell: the variables they name and the files they read. */
function assumed(mock: MockFixture, cwd: string): { env: Record<string, string>; files: Record<string, string>; setup: string[] } {
  return {
    env: {
      DEPLOY_URL: 'https://example.com/',
      GITHUB_STEP_SUMMARY: join(cwd, 'step-summary.md'),
      RANK_TOKEN: mock.server.apiKey,
      STAGING_TOKEN: mock.server.apiKey,
      KEY: mock.server.apiKey,
      PAGE_PASSWORD: 'page-password-1',
      TEAM_HISTORY: join(cwd, 'team-history.db'),
    },
    files: {
      'urls.txt': 'https://example.com/\nhttps://example.com/pricing\nhttps://example.com/about\n',
      'key.txt': `${mock.server.apiKey}\n`,
      'sitemap.xml': SITEMAP,
    },
    // A project the pages delete.
    setup: ['rsapi reports create https://old.example.com/ https://old.example.com/a -q'],
  };
}

for (const page of PAGES) {
  const doc = readDocPage(readFileSync(join(ROOT, page), 'utf8'));
  const blocks = doc.blocks.filter((block) => block.skip === undefined && block.commands.length > 0);
  describe.skipIf(blocks.length === 0)(`${page}'s commands`, () => {
    let mock: MockFixture;
    let shell: DocShell;
    const dir = tempDir('rsapi-docs-');
    beforeAll(async () => {
      mock = await startMock({ flavor: doc.flavor, rateLimit: 0 });
      const [home, cwd] = [join(dir.path, 'home'), join(dir.path, 'work')];
      for (const folder of [home, cwd]) mkdirSync(folder);
      const { env, files, setup } = assumed(mock, cwd);
      for (const [name, content] of Object.entries(files)) writeFileSync(join(cwd, name), content);
      // A reader's shell: a home of its own, the settings in it, and the service set up as README's quick start does.
      const base = { HOME: home, RSAPI_CONFIG_DIR: join(home, 'config'), RSAPI_BASE_URL: mock.server.url, RSAPI_API_KEY: mock.server.apiKey };
      shell = await startDocShell({ dir: join(dir.path, 'shell'), cwd, env: { ...base, ...env } });
      for (const command of setup) expect((await shell.run(command, 'bash')).code, command).toBe(0);
    });
    afterAll(async () => {
      await shell?.close();
      await mock?.close();
      dir.cleanup();
    });

    // A line that starts the mock is the page's mock, started above (it would run until stopped).
    for (const block of blocks)
      for (const command of block.commands.filter((command) => !/^rsapi mock-server\b/.test(command.text)))
        it(`${page}:${command.line}: ${command.text.split('\n')[0]}`, async () => {
          const text = SERVICES.reduce((line, service) => line.replace(service, mock.server.url), command.text).replace(SITEMAPS, 'sitemap.xml');
          const result = await shell.run(text, command.shell);
          expect(result.code, `${result.stderr}${result.stdout.slice(0, 400)}`).toBe(command.exit);
        });
  });
}

describe("docs/ci.md's CI recipes", () => {
  it('refresh the reports a run on every push finds, never a second report of a URL (--existing refresh)', () => {
    const yaml = [...readFileSync(join(ROOT, 'docs/ci.md'), 'utf8').matchAll(/```yaml\n([\s\S]*?)```/g)].map((block) => block[1]!);
    const creates = yaml.flatMap((block) => block.match(/rsapi reports create[^\n]*(\n\s+[^\n-][^\n]*)*/g) ?? []);
    expect(creates.length).toBeGreaterThanOrEqual(2);
    for (const create of creates) expect(create).toMatch(/--existing refresh\b/);
  });
});
