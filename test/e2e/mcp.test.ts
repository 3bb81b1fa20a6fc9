// `rsapi mcp` as an MCP client meets it: the SDK's own Client over stdio, spawning the built bin/rsapi against the mock
// in both flavors (and raw servers for oversized answers): every tool, errors, the write switch, budgets, the key.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, NODE, runCli, tempDir } from '../helpers/cli.js';
import { startMock, type MockFixture } from '../helpers/mock.js';
import { startRawServer } from '../helpers/raw-server.js';
import { runInProcess } from '../helpers/run.js';
import { CHECK_IDS } from '../../src/api/model/checks.js';

/** A key no answer may show: distinctive, so a leak in any form is found. */
const KEY = 'mcp-test-key-5f1e9a7c3b2d4e6f';
const READ_TOOLS = ['list_reports', 'get_report', 'report_stats', 'check_stats', 'history_runs', 'history_trend', 'history_diff', 'list_projects'];
const WRITE_TOOLS = ['create_reports', 'refresh_reports', 'delete_reports'];

interface Server {
  client: Client;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  /** Calls a tool; the answer's text parsed when it is JSON, and every text kept for the key check. */
  call(name: string, args?: Record<string, unknown>): Promise<{ isError: boolean; text: string; value: unknown; bytes: number }>;
  close(): Promise<void>;
}

/** Every text any server answered, and its stderr: none may hold the key. */
const seen: string[] = [];
const dirs: { cleanup: () => void }[] = [];
afterAll(() => {
  for (const dir of dirs) dir.cleanup();
});

async function startServer(baseUrl: string, args: string[] = [], env: Record<string, string> = {}): Promise<Server> {
  const home = tempDir('rsapi-mcp-home-');
  dirs.push(home);
  const transport = new StdioClientTransport({
    command: NODE,
    args: [BIN, 'mcp', ...args],
    env: {
      RSAPI_BASE_URL: baseUrl,
      RSAPI_API_KEY: KEY,
      RSAPI_CONFIG_DIR: join(home.path, 'config'),
      XDG_DATA_HOME: join(home.path, 'data'),
      HOME: home.path,
      ...env,
    },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const client = new Client({ name: 'rsapi-test', version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    stderr: () => stderr,
    async call(name, args = {}) {
      const result = await client.callTool({ name, arguments: args });
      const text = (result.content as { type: string; text: string }[]).map((block) => block.text).join('');
      seen.push(JSON.stringify(result));
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        value = undefined;
      }
      return { isError: result.isError === true, text, value, bytes: Buffer.byteLength(JSON.stringify(result)) };
    },
    async close() {
      await client.close();
      seen.push(stderr);
    },
  };
}

type Row = { id: unknown; url: unknown; score: unknown; result: unknown; failed: unknown };

describe.each(['seed', 'phprank'] as const)('rsapi mcp against the %s mock', (flavor) => {
  let mock: MockFixture;
  let server: Server;
  beforeAll(async () => {
    mock = await startMock({ flavor, apiKey: KEY, rateLimit: 0 });
    server = await startServer(mock.server.url);
  });
  afterAll(async () => {
    await server?.close();
    await mock?.close();
  });

  it('offers the eight read tools, each read-only with a short description, in under 12 KB of tools/list', async () => {
    const { tools } = await server.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(READ_TOOLS);
    for (const tool of tools) {
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
      expect(tool.description?.length, tool.name).toBeLessThan(300);
      expect(tool.inputSchema.type).toBe('object');
    }
    expect(Buffer.byteLength(JSON.stringify({ tools }))).toBeLessThan(12 * 1024);
  });

  it('list_reports answers compact rows, `limit` at a time, and a cursor that goes on where the last answer stopped', async () => {
    const first = await server.call('list_reports', { limit: 25 });
    expect(first.isError).toBe(false);
    const page = first.value as { rows: Row[]; total: number; next_cursor: string; more: string };
    expect(page.rows).toHaveLength(25);
    expect(Object.keys(page.rows[0]!)).toEqual(['id', 'url', 'score', 'result', 'failed']);
    expect(page.total).toBe(63);
    expect(page.more).toContain(page.next_cursor);
    const ids = page.rows.map((row) => row.id);
    let cursor: string | undefined = page.next_cursor;
    while (cursor) {
      const next = (await server.call('list_reports', { cursor, limit: 25 })).value as { rows: Row[]; next_cursor?: string };
      ids.push(...next.rows.map((row) => row.id));
      cursor = next.next_cursor;
    }
    expect(ids).toHaveLength(63);
    expect(new Set(ids).size).toBe(63);
    for (const row of page.rows) {
      expect(['good', 'decent', 'bad']).toContain(row.result);
      expect(typeof row.score).toBe('number');
      if (flavor === 'phprank') expect(Array.isArray(row.failed)).toBe(true);
      else expect(row.failed).toBeNull();
    }
  });

  it('list_reports filters as `reports list` does; a cursor with other filters is refused, naming the argument', async () => {
    const bad = (await server.call('list_reports', { result: 'bad', limit: 5 })).value as { rows: Row[]; next_cursor: string };
    expect(bad.rows.length).toBeGreaterThan(0);
    for (const row of bad.rows) expect(row.result).toBe('bad');
    const mixed = await server.call('list_reports', { cursor: bad.next_cursor, result: 'good' });
    expect(mixed.isError).toBe(true);
    expect(mixed.text).toMatch(/^rsapi: result: differs from the cursor's \("bad"\)/);
  });

  it('get_report answers one report by id and by url, through the record model', async () => {
    const byId = await server.call('get_report', { id: 2 });
    expect(byId.isError).toBe(false);
    const report = byId.value as Record<string, unknown>;
    expect(report.id).toBe(2);
    expect(['good', 'decent', 'bad']).toContain(report.result);
    expect(typeof report.score).toBe('number');
    if (flavor === 'phprank') {
      const checks = report.checks as { passed: number; failed: number; total: number };
      expect(checks.total).toBe(36);
      const failed = report.failed as { check: string; name: string; importance: string; value: unknown; errors: unknown }[];
      expect(failed).toHaveLength(checks.failed);
      expect(failed[0]).toEqual(expect.objectContaining({ check: expect.any(String), name: expect.any(String), importance: 'high' }));
      expect(failed.every((check) => 'value' in check && 'errors' in check)).toBe(true);
      expect(report.results).toBeUndefined();
    } else {
      expect(report.checks).toBeNull();
    }
    // phpRank stores the URL without its scheme; the seed dialect keeps it.
    const url = String(report.url);
    const byUrl = await server.call('get_report', { url: url.startsWith('http') ? url : `https://${url}` });
    expect(byUrl.isError).toBe(false);
    expect((byUrl.value as { url: unknown }).url).toBe(report.url);
  });

  it('report_stats counts every matching report, and by project', async () => {
    const all = (await server.call('report_stats')).value as { reports: number; good: number; decent: number; bad: number; histogram: { count: number }[] };
    expect(all.reports).toBe(63);
    expect(all.good + all.decent + all.bad).toBe(63);
    expect(all.histogram.reduce((sum, bucket) => sum + bucket.count, 0)).toBe(63);
    const byProject = (await server.call('report_stats', { by_project: true })).value as {
      total: { reports: number };
      projects: { project: string; reports: number }[];
    };
    expect(byProject.total.reports).toBe(63);
    expect(byProject.projects.reduce((sum, project) => sum + project.reports, 0)).toBe(63);
  });

  it('check_stats counts the failed checks of phpRank reports; without per-check results it is a tool error saying so', async () => {
    const answer = await server.call('check_stats', { limit: 3 });
    if (flavor === 'phprank') {
      const stats = answer.value as { reports: number; with_checks: number; checks: { check: string; failed: number; share: number }[] };
      expect(answer.isError).toBe(false);
      expect(stats.with_checks).toBe(63);
      expect(stats.checks).toHaveLength(3);
      expect(stats.checks[0]!.failed).toBeGreaterThan(0);
    } else {
      expect(answer.isError).toBe(true);
      expect(answer.text).toMatch(/^rsapi: the service sent no per-check results .* 63 reports; check_stats has nothing to count\nhint: report_stats/);
    }
  });

  it('list_projects answers the projects with their report counts', async () => {
    const answer = (await server.call('list_projects')).value as { rows: { project: string; reports: number | null }[] };
    expect(answer.rows.map((row) => row.project).sort()).toEqual(['blog.example.net', 'docs.example.io', 'example.com', 'news.example.co', 'shop.example.org']);
    if (flavor === 'phprank') expect(answer.rows.reduce((sum, row) => sum + (row.reports ?? 0), 0)).toBe(63);
  });

  it('a usage error in the arguments is a tool error naming the argument, and nothing is sent', async () => {
    const before = mock.server.requests.length;
    const limit = await server.call('list_reports', { limit: 0 });
    expect(limit).toMatchObject({ isError: true, text: 'rsapi: limit: must be a whole number from 1 to 200, not 0' });
    const typo = await server.call('list_reports', { projet: 'example.com' });
    expect(typo).toMatchObject({ isError: true, text: 'rsapi: projet: list_reports has no such argument\nhint: did you mean "project"?' });
    const id = await server.call('get_report', { id: 'abc' });
    expect(id).toMatchObject({ isError: true, text: 'rsapi: id: "abc" is not a report id (ids look like 42)' });
    const both = await server.call('get_report', {});
    expect(both).toMatchObject({ isError: true, text: 'rsapi: id: give id or url' });
    expect(mock.server.requests.length).toBe(before);
  });

  it("a service error is a tool error with the CLI's line and hint", async () => {
    const missing = await server.call('get_report', { id: 99999 });
    expect(missing.isError).toBe(true);
    expect(missing.text).toMatch(/^rsapi: .*\(HTTP 404, GET \/reports\/99999\)\nhint: check the id; `list_reports` lists reports$/);
  });

  it('the write tools are neither listed nor run without --allow-write', async () => {
    const before = mock.server.requests.length;
    for (const name of WRITE_TOOLS) {
      const answer = await server.call(name, { urls: ['https://example.com/x'], ids: ['1'] });
      expect(answer.isError, name).toBe(true);
      expect(answer.text, name).toBe(
        `rsapi: ${name} changes the service, and this server is read-only\nhint: start it as \`rsapi mcp --allow-write\` (in the client's configuration: "args": ["mcp", "--allow-write"])`,
      );
    }
    expect(mock.server.requests.length).toBe(before);
  });
});

describe('rsapi mcp over a recorded history (two runs of a drifting phpRank mock)', () => {
  let mock: MockFixture;
  let server: Server;
  const history = tempDir('rsapi-mcp-history-');
  dirs.push(history);
  const db = join(history.path, 'history.db');
  beforeAll(async () => {
    mock = await startMock({ flavor: 'phprank', apiKey: KEY, rateLimit: 0, drift: 0.2 });
    const env = { RSAPI_BASE_URL: mock.server.url, RSAPI_API_KEY: KEY, RSAPI_CONFIG_DIR: join(history.path, 'config'), RSAPI_HISTORY: db };
    // Two weekly runs: record, re-audit every report of a project (the mock drifts), record again.
    const project = ['reports', 'list', '--project', 'example.com', '--all', '--record', '-o', 'json'];
    // Recording needs no process of its own: in-process runs (the server below is the process under test).
    const first = await runInProcess({ argv: project, env });
    expect(first.code, first.stderr).toBe(0);
    const ids = (JSON.parse(first.stdout) as { id: number }[]).map((report) => String(report.id));
    for (const id of ids) expect((await runInProcess({ argv: ['reports', 'update', id, '--refresh', '-q'], env })).code).toBe(0);
    expect((await runInProcess({ argv: project, env })).code).toBe(0);
    // A third run, of another selection: the newest, and alone of its kind.
    expect((await runInProcess({ argv: ['reports', 'list', '--project', 'shop.example.org', '--all', '--record', '-q'], env })).code).toBe(0);
    server = await startServer(mock.server.url, [], { RSAPI_HISTORY: db });
  });
  afterAll(async () => {
    await server?.close();
    await mock?.close();
  });

  it('history_runs answers the runs newest first with their selections, and those of one job', async () => {
    const answer = await server.call('history_runs');
    expect(answer.isError, answer.text).toBe(false);
    const runs = (answer.value as { runs: { id: number; command: string; selection: unknown; complete: boolean; reports: number }[] }).runs;
    expect(runs.map((run) => [run.id, run.command, run.complete])).toEqual([
      [3, 'reports list', true],
      [2, 'reports list', true],
      [1, 'reports list', true],
    ]);
    expect(runs[0]!.selection).toMatchObject({ project: 'shop.example.org' });
    const job = (await server.call('history_runs', { job: JSON.stringify(runs[1]!.selection) })).value as { runs: { id: number }[] };
    expect(job.runs.map((run) => run.id)).toEqual([2, 1]);
    const named = (await server.call('history_runs', { job: 'weekly' })).value as { runs: unknown[]; hint?: string };
    expect(named.runs).toEqual([]);
    // Never an empty answer with nothing said: what the history holds instead.
    expect(named.hint).toBe('no run of the job weekly: the history holds no named job (history_runs without job lists every run)');
  });

  it('history_diff of a project or a job compares the last two runs of it, though a run of another selection is newer', async () => {
    const plain = await server.call('history_diff');
    expect(plain.isError).toBe(true);
    expect(plain.text).toMatch(/^rsapi: fewer than two comparable runs to diff: only one complete run \(3\)/);
    const selection = (await server.call('history_runs', { limit: 1 })).value as { runs: { selection: unknown }[] };
    const other = await server.call('history_diff', { job: JSON.stringify(selection.runs[0]!.selection) });
    expect(other.isError).toBe(true);
    expect(other.text).toMatch(/only one complete run \(3\)/);
    const project = (await server.call('history_diff', { project: 'example.com' })).value as { from: { id: number }; to: { id: number } };
    expect([project.from.id, project.to.id]).toEqual([1, 2]);
    const runs = (await server.call('history_runs')).value as { runs: { selection: unknown }[] };
    const job = (await server.call('history_diff', { job: JSON.stringify(runs.runs[1]!.selection) })).value as { from: { id: number }; to: { id: number } };
    expect([job.from.id, job.to.id]).toEqual([1, 2]);
    // By ids, narrowed to a project no URL of those runs is in: nothing compared.
    const narrowed = (await server.call('history_diff', { a: '1', b: '2', project: 'shop.example.org' })).value as { compared: number; changes: unknown[] };
    expect(narrowed).toMatchObject({ compared: 0, changes: [] });
  });

  it('history_trend narrowed to a job keeps only its runs', async () => {
    const runs = (await server.call('history_runs')).value as { runs: { selection: unknown }[] };
    // A job none of whose runs read the project: said as the CLI says it (exit 4 there), never an empty answer.
    const shop = await server.call('history_trend', { project: 'example.com', job: JSON.stringify(runs.runs[0]!.selection) });
    expect(shop.isError).toBe(true);
    expect(shop.text).toMatch(/no run of the job .* read the project example\.com/);
    const own = await server.call('history_trend', { project: 'example.com', job: JSON.stringify(runs.runs[1]!.selection) });
    expect((own.value as { points: { run: number }[] }).points.map((point) => point.run)).toEqual([1, 2]);
  });

  it("history_diff answers the two runs and per URL what changed (the CLI's document), read-only", async () => {
    const answer = await server.call('history_diff', { a: '1', b: '2' });
    expect(answer.isError, answer.text).toBe(false);
    const diff = answer.value as { from: { id: number }; to: { id: number }; changes: { url: string; new_failures?: unknown; fixed?: unknown }[] };
    expect([diff.from.id, diff.to.id]).toEqual([1, 2]);
    expect(diff.changes.length).toBeGreaterThan(0);
    expect(diff.changes[0]!.url).toMatch(/example\.com/);
    // Totals first, by status; each change without empty fields (a new page has no score before, and no null for it).
    const totals = (answer.value as { totals: Record<string, number> }).totals;
    expect(totals.changed_pages).toBe(diff.changes.length);
    expect(totals.new_failures).toBe(diff.changes.reduce((sum, change) => sum + ((change.new_failures as unknown[]) ?? []).length, 0));
    const across = (await server.call('history_diff', { a: '2', b: '3' })).value as { totals: Record<string, number>; changes: Record<string, unknown>[] };
    const added = across.changes.filter((change) => change.status === 'new');
    expect(added.length).toBe(across.totals.new);
    expect(added.length).toBeGreaterThan(0);
    for (const change of across.changes) expect(Object.values(change)).not.toContain(null);
    expect(added[0]).not.toHaveProperty('score_before');
  });

  it("a tool's error names its arguments and tools, not the CLI's flags and commands", async () => {
    const neither = await server.call('history_trend', {});
    expect(neither.isError).toBe(true);
    expect(neither.text).toBe('rsapi: give a URL, project or job');
    const typo = await server.call('history_trend', { project: 'exmaple.com' });
    expect(typo.text).toBe('rsapi: no run in the history read the project exmaple.com\nhint: did you mean project example.com?');
    const unread = await server.call('history_trend', { url: 'example.com/nothing-here' });
    expect(unread.text).toMatch(/history_runs/);
    expect(unread.text).not.toMatch(/--|rsapi history runs/);
  });

  it('history_trend answers one point per run for a project, and a usage error names its argument', async () => {
    const trend = await server.call('history_trend', { project: 'example.com' });
    expect(trend.isError, trend.text).toBe(false);
    expect((trend.value as { points: { run: number }[] }).points.map((point) => point.run)).toEqual([1, 2]);
    const wrong = await server.call('history_trend', { project: 'example.com', since: 'soon' });
    expect(wrong.isError).toBe(true);
    expect(wrong.text).toMatch(/since/);
  });

  it("history_diff with an unknown run is a tool error in the CLI's words", async () => {
    const answer = await server.call('history_diff', { a: '90', b: '91' });
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(/run/);
  });
});

describe('rsapi mcp --allow-write against the phprank mock', () => {
  let mock: MockFixture;
  let server: Server;
  let dataDir: string;
  beforeAll(async () => {
    mock = await startMock({ flavor: 'phprank', apiKey: KEY, rateLimit: 0 });
    const data = tempDir('rsapi-mcp-data-');
    dirs.push(data);
    dataDir = data.path;
    server = await startServer(mock.server.url, ['--allow-write', '--verbose'], { XDG_DATA_HOME: dataDir });
  });
  afterAll(async () => {
    await server?.close();
    await mock?.close();
  });

  it('lists the writes after the reads, destructive where they are, still under 12 KB', async () => {
    const { tools } = await server.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([...READ_TOOLS, ...WRITE_TOOLS]);
    const hints = Object.fromEntries(tools.map((tool) => [tool.name, tool.annotations]));
    expect(hints.create_reports).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: true });
    expect(hints.refresh_reports).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(hints.delete_reports).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(Buffer.byteLength(JSON.stringify({ tools }))).toBeLessThan(12 * 1024);
  });

  it('create_reports called again after the first call completed creates nothing twice: its journal, keyed by the URL set, resumes', async () => {
    const creates = () => mock.server.requests.filter((request) => request.method === 'POST').length;
    const first = await server.call('create_reports', { urls: ['https://example.com/mcp-a', 'https://www.example.com/mcp-b/'] });
    expect(first.isError).toBe(false);
    const made = first.value as { summary: string; reports: { url: string; status: string; id: number; stored_url: string }[] };
    expect(made.summary).toBe('created 2, created by an earlier call 0, unsettled 0, failed 0');
    expect(made.reports.map((report) => [report.url, report.status, report.stored_url])).toEqual([
      ['https://example.com/mcp-a', 'created', 'example.com/mcp-a'],
      ['https://www.example.com/mcp-b/', 'created', 'example.com/mcp-b/'],
    ]);
    expect(creates()).toBe(2);
    // The same set, in another order and form: the same journal.
    const again = await server.call('create_reports', { urls: ['https://example.com/mcp-b/', 'HTTPS://example.com/mcp-a'] });
    expect(again.isError).toBe(false);
    const resumed = again.value as { summary: string; reports: { status: string; id: number }[] };
    expect(resumed.summary).toBe('created 0, created by an earlier call 2, unsettled 0, failed 0');
    expect(resumed.reports.map((report) => report.id).sort()).toEqual(made.reports.map((report) => report.id).sort());
    // Its notes say what was skipped, and where the journal is only by name: no local path is in an answer.
    expect(again.text).toContain('<the journal of these urls>');
    expect(again.text).not.toContain(dataDir);
    expect(creates()).toBe(2);
    expect(readdirSync(join(dataDir, 'rsapi', 'mcp')).filter((name) => name.endsWith('.journal'))).toHaveLength(1);
    // --verbose traces each request on stderr (the log an MCP client keeps): the key is redacted there too (below).
    expect(server.stderr()).toMatch(/> POST http:\/\/127\.0\.0\.1:\d+\/api\/v1\/reports -> 201/);
    expect(server.stderr()).toMatch(/< create_reports: ok, \d+ bytes in \d+ ms/);
  });

  it('create_reports after delete_reports of the same URLs creates each anew, once: a journal entry whose report is gone stands for nothing', async () => {
    const creates = () => mock.server.requests.filter((request) => request.method === 'POST').length;
    const urls = ['https://example.com/mcp-gone-a', 'https://example.com/mcp-gone-b'];
    const first = (await server.call('create_reports', { urls })).value as { reports: { id: number }[] };
    const ids = first.reports.map((report) => String(report.id));
    expect((await server.call('delete_reports', { ids })).value).toEqual({ deleted: ids });
    const before = creates();
    const again = await server.call('create_reports', { urls });
    expect(again.isError, again.text).toBe(false);
    const made = again.value as { summary: string; reports: { status: string; id: number }[] };
    expect(made.summary).toBe('created 2, created by an earlier call 0, unsettled 0, failed 0');
    expect(creates()).toBe(before + 2);
    for (const report of made.reports) {
      expect(ids).not.toContain(String(report.id));
      expect((await server.call('get_report', { id: report.id })).isError).toBe(false);
    }
    // Called once more, the new reports stand: nothing is created.
    const third = (await server.call('create_reports', { urls })).value as { summary: string };
    expect(third.summary).toBe('created 0, created by an earlier call 2, unsettled 0, failed 0');
    expect(creates()).toBe(before + 2);
  });

  it('create_reports cancelled by the client starts no new create; called again, it creates only the rest, each URL once', async () => {
    const slow = await startMock({ flavor: 'phprank', apiKey: KEY, rateLimit: 0, latencyMs: 400 });
    const writer = await startServer(slow.server.url, ['--allow-write'], { XDG_DATA_HOME: dataDir });
    const posts = () => slow.server.requests.filter((request) => request.method === 'POST').length;
    const urls = Array.from({ length: 8 }, (_, i) => `https://example.com/cancel-${i}`);
    try {
      const controller = new AbortController();
      const cancelled = writer.client
        .callTool({ name: 'create_reports', arguments: { urls } }, undefined, { signal: controller.signal })
        .catch((error: unknown) => error);
      while (posts() === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      controller.abort();
      expect(await cancelled).toBeInstanceOf(Error);
      // The four in flight (--concurrency 4) end; no fifth starts, though the first ones are answered in 400 ms.
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      const sent = posts();
      expect(sent).toBeGreaterThan(0);
      expect(sent).toBeLessThanOrEqual(4);
      const again = await writer.call('create_reports', { urls });
      expect(again.isError).toBe(false);
      expect((again.value as { summary: string }).summary).toBe(`created ${8 - sent}, created by an earlier call ${sent}, unsettled 0, failed 0`);
      expect(posts()).toBe(8);
    } finally {
      await writer.close();
      await slow.close();
    }
  });

  it('create_reports refuses a URL the service would refuse, and a password-protected report, before sending anything', async () => {
    const before = mock.server.requests.length;
    const bad = await server.call('create_reports', { urls: ['https://example.com/ok', 'example.com/no-scheme'] });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/^rsapi: urls\[1\]: "example.com\/no-scheme" /);
    const password = await server.call('create_reports', { urls: ['https://example.com/p'], privacy: 'password' });
    expect(password.text).toMatch(
      /^rsapi: privacy: "password" is not one of public, private\nhint: a password-protected report: `rsapi reports create URL --privacy password --password-file PATH`$/,
    );
    expect(mock.server.requests.length).toBe(before);
  });

  it('refresh_reports audits each report again, and says which id failed', async () => {
    const answer = await server.call('refresh_reports', { ids: ['5', '99999'] });
    expect(answer.isError).toBe(true);
    const value = answer.value as { refreshed: number; failed: number; reports: Record<string, unknown>[] };
    expect(value).toMatchObject({ refreshed: 1, failed: 1 });
    expect(value.reports[0]).toMatchObject({ id: 5, result: expect.any(String), generated_at: expect.any(String) });
    expect(value.reports[1]).toMatchObject({ id: '99999', error: expect.stringMatching(/^rsapi: /) });
    expect(mock.server.requests.some((request) => request.method === 'PUT' || request.method === 'PATCH' || request.method === 'POST')).toBe(true);
  });

  it('delete_reports deletes the ids given, and refuses more than 100 in one call, deleting none', async () => {
    const before = mock.server.requests.length;
    const many = await server.call('delete_reports', { ids: Array.from({ length: 101 }, (_, i) => String(i + 1)) });
    expect(many).toMatchObject({
      isError: true,
      text: 'rsapi: ids: 101 given; at most 100 in one call\nhint: nothing was deleted; give at most 100 ids a call',
    });
    expect(mock.server.requests.length).toBe(before);
    const answer = await server.call('delete_reports', { ids: ['7', '8'] });
    expect(answer).toMatchObject({ isError: false, value: { deleted: ['7', '8'] } });
    const gone = await server.call('get_report', { id: 7 });
    expect(gone.isError).toBe(true);
  });
});

describe('rsapi mcp answers within its budget', () => {
  /**
   * 300 reports that fail all 36 checks (rows dense with quotes, which the result escapes once more), one of them with
   * a check value of 300 KB: answers that must be cut.
   */
  const report = (id: number, value = 'y') => ({
    id,
    url: `example.com/${String(id).padStart(4, '0')}`,
    project: 'example.com',
    result: 40,
    generated_at: '2026-01-01T00:00:00.000000Z',
    results: Object.fromEntries(
      CHECK_IDS.map((check) => [check, { passed: false, importance: 'high', value: check === 'title' ? value : 1, errors: { missing: null } }]),
    ),
  });

  it('cuts a list to fit 64 KB with a cursor for the rest, and a report by cutting its values', async () => {
    const raw = await startRawServer((request, response) => {
      const url = new URL(request.url, 'http://x');
      response.setHeader('content-type', 'application/json');
      if (url.pathname.endsWith('/reports/1')) return response.end(JSON.stringify({ data: report(1, 'y'.repeat(300_000)), status: 200 }));
      // A service that echoes the key in a record: the answer shows it masked.
      if (url.pathname.endsWith('/reports/2')) return response.end(JSON.stringify({ data: { ...report(2), url: `example.com/?key=${KEY}` }, status: 200 }));
      const perPage = Number(url.searchParams.get('per_page') ?? 10);
      const page = Number(url.searchParams.get('page') ?? 1);
      const data = Array.from({ length: perPage }, (_, i) => report((page - 1) * perPage + i + 1)).filter((record) => record.id <= 300);
      response.end(JSON.stringify({ data, meta: { current_page: page, last_page: Math.ceil(300 / perPage), per_page: perPage, total: 300 }, status: 200 }));
    });
    const server = await startServer(raw.url);
    try {
      const list = await server.call('list_reports', { limit: 200 });
      expect(list.bytes).toBeLessThan(64 * 1024);
      expect(list.bytes).toBeGreaterThan(60 * 1024);
      const value = list.value as { rows: Row[]; next_cursor: string; total: number };
      expect(value.rows.length).toBeGreaterThan(10);
      expect(value.rows.length).toBeLessThan(200);
      const next = (await server.call('list_reports', { cursor: value.next_cursor, limit: 1 })).value as { rows: Row[] };
      expect(next.rows[0]!.id).toBe(value.rows.length + 1);
      const one = await server.call('get_report', { id: 1 });
      expect(one.bytes).toBeLessThan(64 * 1024);
      const failed = (one.value as { failed: { check: string; value: string }[] }).failed;
      expect(failed.map((check) => check.check)).toContain('title');
      expect(failed.find((check) => check.check === 'title')?.value).toMatch(/^y+… \(cut: 300000 characters in all\)$/);
      const echoed = await server.call('get_report', { id: 2 });
      expect((echoed.value as { url: string }).url).toBe('example.com/?key=***');
    } finally {
      await server.close();
      await raw.close();
    }
  });

  it('an error that echoes a huge argument (a 240 KB path refused with 431) is cut to the budget too', async () => {
    const raw = await startRawServer((_request, response) => response.end('[]'));
    const server = await startServer(raw.url);
    try {
      const refused = await server.call('list_reports', { project: 'é'.repeat(40_000) });
      expect(refused.isError).toBe(true);
      expect(refused.text).toMatch(/^rsapi: /);
      expect(refused.text).toMatch(/… \(cut: \d+ characters in all\)/);
      expect(refused.bytes).toBeLessThan(16 * 1024);
    } finally {
      await server.close();
      await raw.close();
    }
  });

  it('list_reports walks every report once, across a service that ignores paging, to the end, when rows are cut to fit and every page is the whole list; a huge row is cut, not stuck', async () => {
    const raw = await startRawServer((_request, response) => {
      response.setHeader('content-type', 'application/json');
      // Every "page" is all 300 reports as a bare array (the service ignores page and per_page); report 150's URL is
      // 70,000 characters.
      const data = Array.from({ length: 300 }, (_, i) => ({ ...report(300 - i), ...(300 - i === 150 ? { url: `example.com/${'u'.repeat(70_000)}` } : {}) }));
      response.end(JSON.stringify(data));
    });
    const server = await startServer(raw.url);
    try {
      const seen: number[] = [];
      let cursor: string | undefined;
      for (let call = 0; call < 50; call++) {
        const answer = await server.call('list_reports', cursor === undefined ? { limit: 200 } : { cursor, limit: 200 });
        expect(answer.bytes).toBeLessThan(64 * 1024);
        expect(answer.isError, answer.text.slice(0, 300)).toBe(false);
        const value = answer.value as { rows: Row[]; next_cursor?: string };
        expect(value.rows.length).toBeGreaterThan(0);
        seen.push(...value.rows.map((row) => row.id as number));
        cursor = value.next_cursor;
        if (cursor === undefined) break;
      }
      expect(cursor).toBeUndefined();
      expect(seen).toEqual(Array.from({ length: 300 }, (_, i) => 300 - i));
    } finally {
      await server.close();
      await raw.close();
    }
  });
});

describe('rsapi mcp as a pipe', () => {
  it('answers a call whose client closed stdin right after sending it, then exits 0', async () => {
    const mock = await startMock({ flavor: 'phprank', apiKey: KEY, rateLimit: 0, latencyMs: 200 });
    const home = tempDir('rsapi-mcp-pipe-');
    dirs.push(home);
    try {
      const messages = [
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'pipe', version: '1' } },
        },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'report_stats', arguments: {} } },
      ];
      const result = await runCli(['mcp'], {
        env: { RSAPI_BASE_URL: mock.server.url, RSAPI_API_KEY: KEY, RSAPI_CONFIG_DIR: home.path, HOME: home.path },
        input: messages.map((message) => `${JSON.stringify(message)}\n`).join(''),
      });
      seen.push(result.stdout, result.stderr);
      expect(result.code).toBe(0);
      const answers = result.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { id: number; result: { content: { text: string }[] } });
      expect(answers.map((answer) => answer.id)).toEqual([1, 2]);
      expect(JSON.parse(answers[1]!.result.content[0]!.text)).toMatchObject({ reports: 63 });
    } finally {
      await mock.close();
    }
  });
});

describe('rsapi mcp with no key configured', () => {
  it("starts, and answers each call with the CLI's missing-key error and hint", async () => {
    const server = await startServer('http://127.0.0.1:9', [], { RSAPI_API_KEY: '' });
    try {
      const answer = await server.call('list_reports');
      expect(answer).toMatchObject({
        isError: true,
        text: 'rsapi: no API key configured for profile "default"\nhint: run `rsapi auth login`, or set RSAPI_API_KEY, or pass --api-key',
      });
    } finally {
      await server.close();
    }
  });
});

describe('a second client no one here wrote: the MCP Inspector CLI (offline, against the loopback mock)', () => {
  const inspector = join(dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector/package.json')), 'clients/launcher/build/index.js');
  const inspect = async (env: Record<string, string>, ...args: string[]) => {
    const envArgs = Object.entries(env).flatMap(([key, value]) => ['-e', `${key}=${value}`]);
    const { stdout } = await promisify(execFile)(NODE, [inspector, '--cli', ...envArgs, NODE, BIN, 'mcp', ...args], { timeout: 30_000 });
    seen.push(stdout);
    return JSON.parse(stdout) as Record<string, unknown>;
  };

  // One run (about 2 s of CPU: the Inspector loads much): initialize and a call; tools/list is the SDK client's above.
  it('calls list_reports and reads the same answer as the SDK client does', async () => {
    const mock = await startMock({ flavor: 'phprank', apiKey: KEY, rateLimit: 0 });
    const home = tempDir('rsapi-mcp-inspector-');
    dirs.push(home);
    const env = { RSAPI_BASE_URL: mock.server.url, RSAPI_API_KEY: KEY, RSAPI_CONFIG_DIR: home.path, HOME: home.path };
    try {
      const called = await inspect(env, '--method', 'tools/call', '--tool-name', 'list_reports', '--tool-arg', 'limit=2', '--tool-arg', 'result=bad');
      const rows = (JSON.parse((called.content as { text: string }[])[0]!.text) as { rows: Row[] }).rows;
      expect(rows).toHaveLength(2);
      expect(rows.every((row) => row.result === 'bad')).toBe(true);
    } finally {
      await mock.close();
    }
  });
});

describe('the key', () => {
  it('is in no answer and nowhere on stderr', () => {
    expect(seen.length).toBeGreaterThan(30);
    for (const text of seen) expect(text).not.toContain(KEY);
  });
});
