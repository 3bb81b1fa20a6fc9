// Verdicts across the verbs that judge (reports list, stats, create): a gate over nothing fails, failing URLs named on
// stderr and as GitHub annotations, the assertions file combined with the flags, the Code Quality file.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { phprankReport, startReportServer } from '../../helpers/phprank-checks.js';
import { startMock, type MockFixture } from '../../helpers/mock.js';
import { runInProcess } from '../../helpers/run.js';
import { scratchMaker } from '../../helpers/scratch.js';

const scratch = scratchMaker('rsapi-verdicts-');

/** 25 pages of one site, scores falling with the number of failed checks; the first three named below. */
const REPORTS = [
  phprankReport(1, 'example.com/pricing', ['title', 'meta_description', 'headings', 'content_length', 'load_time', 'http2']),
  phprankReport(2, 'example.com/blog/a', ['dom_size', 'http2']),
  phprankReport(3, 'example.com', ['favicon']),
  ...Array.from({ length: 22 }, (_, i) => phprankReport(10 + i, `example.com/p/${i}`, ['title', 'meta_description', 'mixed_content', 'noindex'])),
];

let server: Awaited<ReturnType<typeof startReportServer>>;
let phprank: MockFixture;
beforeAll(async () => {
  server = await startReportServer(REPORTS);
  phprank = await startMock({ flavor: 'phprank', seed: 12, rateLimit: 10_000 });
});
afterAll(async () => {
  await server.close();
  await phprank.close();
});

function rules(content: unknown): string {
  const path = join(scratch(), 'rsapi.config.json');
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return path;
}

describe('a gate over nothing', () => {
  it('fails (exit 10) when --project matched no report, and names the nearest project the service has, with one look-up', async () => {
    const before = phprank.server.requests.length;
    const { code, stderr } = await runInProcess({ argv: ['reports', 'list', '--project', 'exmaple.com', '--fail-on', 'bad', '-o', 'json'], env: phprank.env });
    expect(code).toBe(10);
    expect(stderr).toContain(
      'rsapi: gate failed: no reports matched --project exmaple.com: a gate over nothing proves nothing (--allow-empty lets it pass)\n' +
        'hint: did you mean example.com? (`rsapi projects list` lists the projects)\n',
    );
    const requests = phprank.server.requests.slice(before).map((r) => r.path);
    expect(requests.filter((path) => path.endsWith('/projects'))).toHaveLength(1);
  });

  it('passes with --allow-empty, and an assertions file over nothing fails as a flag does (reports stats)', async () => {
    const allowed = await runInProcess({
      argv: ['reports', 'list', '--project', 'nothing.example', '--min-score', '50', '--allow-empty', '-o', 'json'],
      env: phprank.env,
    });
    expect(allowed.code, allowed.stderr).toBe(0);
    const path = rules({ assert: [{ match: '**', minScore: 50 }] });
    const stats = await runInProcess({ argv: ['reports', 'stats', '--project', 'nothing.example', '--assert', path, '-o', 'json'], env: phprank.env });
    expect(stats.code).toBe(10);
    expect(stats.stderr).toContain('no reports matched --project nothing.example: a gate over nothing proves nothing');
    expect(stats.stderr).not.toContain('did you mean');
  });

  it('a list without a gate over nothing still passes', async () => {
    const { code } = await runInProcess({ argv: ['reports', 'list', '--project', 'nothing.example', '-o', 'json'], env: phprank.env });
    expect(code).toBe(0);
  });
});

describe('failing URLs named', () => {
  it('each failing URL on stderr, worst first, with what failed and the value; the first 20, then how many more', async () => {
    const { code, stderr } = await runInProcess({ argv: ['reports', 'list', '--min-score', '80', '--fail-on-check', 'title', '-o', 'json'], env: server.env });
    expect(code).toBe(10);
    const named = stderr.split('\n').filter((line) => line.startsWith('rsapi:   '));
    expect(named).toHaveLength(21);
    expect(named[0]).toBe('rsapi:   example.com/pricing: score 71 < 80; title: too long (max 60)');
    expect(named.slice(1, 20).every((line) => /^rsapi: {3}example\.com\/p\/\d+: score 79 < 80; title: too long \(max 60\)$/.test(line))).toBe(true);
    expect(named[20]).toBe('rsapi:   … and 3 more');
  });

  it('with GITHUB_ACTIONS=true, also as ::error annotations (at most 50), title escaped as GitHub reads it', async () => {
    const { stderr } = await runInProcess({
      argv: ['reports', 'list', '--fail-on-check', 'title', '-o', 'json'],
      env: { ...server.env, GITHUB_ACTIONS: 'true' },
    });
    const annotations = stderr.split('\n').filter((line) => line.startsWith('::'));
    expect(annotations).toHaveLength(23);
    expect(annotations[0]).toBe('::error title=rsapi%3A example.com/pricing::title: too long (max 60)');
    const without = await runInProcess({ argv: ['reports', 'list', '--fail-on-check', 'title', '-o', 'json'], env: server.env });
    expect(without.stderr).not.toContain('::error');
  });
});

describe('--assert', () => {
  const FILE = {
    assert: [
      { match: '**', minScore: 20, checks: { title: 'error', meta_description: 'error', http2: 'off' } },
      { match: 'example.com/blog/**', checks: { dom_size: 'warn' } },
      { match: 'example.com/p/**', checks: { title: 'warn' } },
    ],
  };

  it('every matching rule applies, a later one wins per key; error fails (exit 10), warn is printed only', async () => {
    const path = rules(FILE);
    const { code, stderr } = await runInProcess({ argv: ['reports', 'list', '--assert', path, '-o', 'json'], env: server.env });
    expect(code, stderr).toBe(10);
    expect(stderr).toContain(`rsapi: assertions failed (${path}): 23 of 25 reports fail an error rule; 1 report only warn\n`);
    // example.com/p/*: title only warns there (a later rule), meta_description is still an error.
    expect(stderr).toMatch(/^rsapi: {3}example\.com\/p\/\d+: meta_description: missing$/m);
    expect(stderr).toContain('rsapi:   example.com/pricing: meta_description: missing; title: too long (max 60)\n');
    expect(stderr).toContain('rsapi:   warning: example.com/blog/a: dom_size: failed\n');
    expect(stderr).not.toContain('http2');
  });

  it("a JUnit case fails on the file's error rules, naming the rule's file and line", async () => {
    const path = rules({ assert: [{ match: 'example.com/blog/**', checks: { dom_size: 'error' } }] });
    const junit = join(scratch(), 'junit.xml');
    const { code } = await runInProcess({ argv: ['reports', 'list', '--assert', path, '--junit', junit, '-o', 'json'], env: server.env });
    expect(code).toBe(10);
    const failures = [...readFileSync(junit, 'utf8').matchAll(/<testcase name="([^"]+)"[^>]*>\s*<failure message="([^"]+)"/g)].map((m) => [m[1], m[2]]);
    expect(failures).toEqual([['example.com/blog/a', `dom_size: failed (${path}:3)`]]);
  });

  it('only warnings: exit 0, each named', async () => {
    const path = rules({ assert: [{ match: 'example.com/blog/**', checks: { dom_size: 'warn' } }] });
    const { code, stderr } = await runInProcess({ argv: ['reports', 'list', '--assert', path, '-o', 'json'], env: server.env });
    expect(code, stderr).toBe(0);
    expect(stderr).toContain(`rsapi: assertions passed (${path}): 0 of 25 reports fail an error rule; 1 report only warn\n`);
    expect(stderr).toContain('rsapi:   warning: example.com/blog/a: dom_size: failed\n');
  });

  it('a flag is a rule for ** after the file: it wins for what it sets, and combines with the rest', async () => {
    const path = rules({
      assert: [
        { match: '**', minScore: 90 },
        { match: 'example.com/blog/**', checks: { dom_size: 'error' } },
      ],
    });
    const { code, stderr } = await runInProcess({ argv: ['reports', 'list', '--assert', path, '--min-score', '10', '-o', 'json'], env: server.env });
    expect(code, stderr).toBe(10);
    expect(stderr).toContain('rsapi: gate passed: 0 of 25 reports score below 10 (--min-score 10)\n');
    expect(stderr).toContain(`rsapi: assertions failed (${path}): 1 of 25 reports fails an error rule\n`);
    expect(stderr.split('\n').filter((line) => line.startsWith('rsapi:   '))).toEqual(['rsapi:   example.com/blog/a: dom_size: failed']);
  });

  it('RSAPI_ASSERT does what the flag does; a bad file is exit 2 before any request, naming the file and the line', async () => {
    const good = rules({ assert: [{ match: '**', minScore: 99 }] });
    const byEnv = await runInProcess({ argv: ['reports', 'stats', '-o', 'json'], env: { ...server.env, RSAPI_ASSERT: good } });
    expect(byEnv.code).toBe(10);
    const bad = rules('{\n  "assert": [\n    { "match": "**", "checks": { "titel": "error" } }\n  ]\n}\n');
    const before = server.requests.length;
    const refused = await runInProcess({ argv: ['reports', 'list', '--assert', bad], env: server.env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`rsapi: ${bad}:3: unknown check id "titel"; did you mean "title"?\n`);
    expect(server.requests.length).toBe(before);
    const missing = await runInProcess({ argv: ['reports', 'list', '--assert', join(scratch(), 'none.json')], env: server.env });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot read the assertions file .*none\.json: no such file/);
  });

  it('reports create: a URL taken by a bare --assert for its file is exit 2, with how to write it', async () => {
    const { code, stderr } = await runInProcess({ argv: ['reports', 'create', '--assert', 'https://example.org/x'], env: server.env });
    expect(code).toBe(2);
    expect(stderr).toContain('rsapi: --assert took https://example.org/x for its file\nhint: give the file as --assert=PATH');
  });

  it('reports create judges what it created by the file', async () => {
    const path = rules({ assert: [{ match: '**', checks: { title: 'error' } }] });
    const created = await startReportServer([], (url) => phprankReport(7, url.replace(/^https:\/\//, ''), ['title']));
    try {
      const { code, stderr } = await runInProcess({ argv: ['reports', 'create', 'https://example.org/x', '--assert', path, '-o', 'json'], env: created.env });
      expect(code, stderr).toBe(10);
      expect(stderr).toContain('rsapi:   example.org/x: title: too long (max 60)\n');
    } finally {
      await created.close();
    }
  });

  it('check rules against a service with no per-check results are not judged: one line, exit 8', async () => {
    const seed = await startMock({ seed: 3 });
    try {
      const path = rules({ assert: [{ match: '**', checks: { title: 'error' } }] });
      const { code, stderr } = await runInProcess({ argv: ['reports', 'list', '--assert', path, '-o', 'json'], env: seed.env });
      expect(code).toBe(8);
      expect(stderr).toContain('rsapi: assertions not judged');
      expect(stderr).toContain('so its check rules cannot be judged');
    } finally {
      await seed.close();
    }
  });
});

describe('--codequality', () => {
  it("writes GitLab's Code Quality JSON: one finding per failing check per URL, fingerprints stable from run to run", async () => {
    const dir = scratch();
    const path = rules({ assert: [{ match: '**', minScore: 80, checks: { title: 'error', http2: 'warn' } }] });
    const file = join(dir, 'gl-code-quality.json');
    const run = () => runInProcess({ argv: ['reports', 'list', '--assert', path, '--codequality', file, '-o', 'json'], env: server.env });
    expect((await run()).code).toBe(10);
    const first = JSON.parse(readFileSync(file, 'utf8')) as {
      description: string;
      check_name: string;
      fingerprint: string;
      severity: string;
      location: unknown;
    }[];
    const pricing = first.filter((issue) => issue.description.startsWith('example.com/pricing:'));
    expect(pricing).toEqual([
      expect.objectContaining({ check_name: 'rsapi/score', severity: 'major', location: { path: 'example.com/pricing', lines: { begin: 1 } } }),
      expect.objectContaining({ check_name: 'rsapi/title', description: 'example.com/pricing: title: too long (max 60)', severity: 'critical' }),
      expect.objectContaining({ check_name: 'rsapi/http2', severity: 'info' }),
    ]);
    expect(new Set(first.map((issue) => issue.fingerprint)).size).toBe(first.length);
    await run();
    expect((JSON.parse(readFileSync(file, 'utf8')) as typeof first).map((issue) => issue.fingerprint)).toEqual(first.map((issue) => issue.fingerprint));
  });

  it('a path in a missing folder is exit 2 before any request', async () => {
    const before = server.requests.length;
    const { code } = await runInProcess({ argv: ['reports', 'list', '--fail-on', 'bad', '--codequality', join(scratch(), 'no', 'cq.json')], env: server.env });
    expect(code).toBe(2);
    expect(server.requests.length).toBe(before);
  });
});

describe('the default assertions file', () => {
  it('a bare --assert reads rsapi.config.json in the working directory, and says so when it is missing', async () => {
    const { code, stderr } = await runInProcess({ argv: ['reports', 'list', '--assert'], env: { ...server.env, RSAPI_ASSERT: undefined } });
    expect(code).toBe(2);
    expect(stderr).toContain('rsapi: cannot read the assertions file rsapi.config.json: no such file\n');
  });
});
