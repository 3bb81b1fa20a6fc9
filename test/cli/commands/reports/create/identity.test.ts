// A report's identity as phpRank stores it (no scheme, no `www.`, no root slash, the final URL of a redirect): de-duplication, journal, shards, baselines, look-up.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { reportIdentity } from '../../../../../src/api/model/report-url.js';
import { systemClock, type Clock } from '../../../../../src/api/http/clock.js';
import { CreateLedger, pickRedirected } from '../../../../../src/api/create/ledger.js';
import type { ApiRecord } from '../../../../../src/api/model/record.js';
import { parseHistory } from '../../../../../src/cli/commands/reports/create/journal.js';
import { shareOf } from '../../../../../src/cli/bulk/shard.js';
import { scratchMaker } from '../../../../helpers/scratch.js';
import { sendJson, startRawServer, type RawServer, type SeenRequest } from '../../../../helpers/raw-server.js';
import { startMock } from '../../../../helpers/mock.js';
import { GateClock } from '../../../../helpers/gate-clock.js';
import { runInProcess, testTerminal } from '../../../../helpers/run.js';
import { childNamed, childrenNamed, parseXml } from '../../../../helpers/xml.js';
import { createInvocation, run as runProgram } from '../../../../../src/cli/program.js';

const closers: (() => unknown)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const scratch = scratchMaker('rsapi-identity-');

interface StoredReport {
  id: number;
  url: string;
  project: string;
  result: number;
  created_at: string;
  generated_at: string;
}

interface PhpRankOptions {
  /** The audit before a create is stored; the report is stored even when the client gave up meanwhile. */
  storeDelayMs?: number;
  /** The clock the audit waits on (real time by default; a GateClock holds it until the test opens the gate). */
  audit?: Clock;
  /** Creates whose answer is lost (the connection reset once the report is stored), counted from the first. */
  dropCreates?: number;
  /** Reports there before the test. */
  reports?: Omit<StoredReport, 'id' | 'project' | 'created_at' | 'generated_at'>[];
}

interface PhpRankServer extends RawServer {
  reports: StoredReport[];
  env: Record<string, string>;
  posts(): string[];
}

/** phpRank's cleaning: the final URL (an `old` path segment redirects to `new`), no scheme, no leading `www.`, no root slash. */
function storedForm(url: string): string {
  const final = new URL(url);
  final.pathname = final.pathname.replace(/(^|\/)old(?=\/|$)/, '$1new');
  return final.href
    .replace(/^https?:\/\//, '')
    .replace(/^www\./, '')
    .replace(/^([^/]*)\/$/, '$1');
}

/**
 * A plain node:http server answering as phpRank 1.x-13 does on the calls a create makes: POST stores the
 * cleaned final URL after an audit; GET lists with `search` on the cleaned term, `project`, `sort_by`
 * id|url|result (others ignored), `per_page`, `status: 200` beside a length-aware page, Laravel's Date header.
 */
async function phpRank(options: PhpRankOptions = {}): Promise<PhpRankServer> {
  const reports: StoredReport[] = [];
  const store = (url: string, ageMs = 0): StoredReport => {
    const at = new Date(Date.now() - ageMs).toISOString().replace(/\.\d+Z$/, '.000000Z');
    const cleaned = storedForm(url);
    const report = { id: reports.length + 1, url: cleaned, project: cleaned.split(/[/?]/)[0]!, result: 71, created_at: at, generated_at: at };
    reports.push(report);
    return report;
  };
  // Reports there before the test were made a while ago.
  for (const report of options.reports ?? []) store(report.url, 60_000).result = report.result;
  let dropsLeft = options.dropCreates ?? 0;
  const server = await startRawServer(async (request, response) => {
    const target = new URL(request.url, 'http://x');
    if (request.method === 'POST' && target.pathname === '/api/v1/reports') {
      await (options.audit ?? systemClock).sleep(options.storeDelayMs ?? 0);
      const report = store(new URLSearchParams(request.body).get('url') ?? '');
      if (dropsLeft-- > 0) return response.socket?.destroy();
      return sendJson(response, 201, { data: { ...report, privacy: null }, status: 200 });
    }
    if (request.method === 'GET' && target.pathname === '/api/v1/reports') return sendJson(response, 200, listPage(reports, target.searchParams));
    sendJson(response, 404, { message: 'Resource not found.', status: 404 });
  });
  closers.push(() => server.close());
  return {
    ...server,
    reports,
    env: { RSAPI_BASE_URL: server.url, RSAPI_API_KEY: 'phprank-key', RSAPI_CONFIG_DIR: join(scratch(), 'config') },
    posts: () =>
      server.requests.filter((request: SeenRequest) => request.method === 'POST').map((request) => new URLSearchParams(request.body).get('url') ?? ''),
  };
}

function listPage(reports: StoredReport[], query: URLSearchParams): unknown {
  const search = query.get('search');
  const term = search === null ? undefined : storedForm(/^https?:\/\//.test(search) ? search : `http://${search}`);
  const project = query.get('project');
  const sortBy = ['id', 'url', 'result'].includes(query.get('sort_by') ?? '') ? (query.get('sort_by') as 'id' | 'url' | 'result') : 'id';
  const direction = query.get('sort') === 'asc' ? 1 : -1;
  const perPage = [10, 25, 50, 100].includes(Number(query.get('per_page'))) ? Number(query.get('per_page')) : 10;
  const page = Math.max(1, Number(query.get('page') ?? 1) || 1);
  const matching = reports
    .filter((report) => (term === undefined || report.url.includes(term)) && (project === null || report.project === project))
    .sort((a, b) => (a[sortBy] < b[sortBy] ? -direction : a[sortBy] > b[sortBy] ? direction : 0));
  const lastPage = Math.max(1, Math.ceil(matching.length / perPage));
  return {
    data: matching.slice((page - 1) * perPage, page * perPage),
    links: { next: page < lastPage ? `?page=${page + 1}` : null },
    meta: { current_page: page, last_page: lastPage, per_page: perPage, total: matching.length },
    status: 200,
  };
}

describe('one identity for every form of a URL', () => {
  it('https://www.example.com/ and http://example.com are one report: sent once, as first given', async () => {
    const server = await phpRank();
    const run = await runInProcess({
      argv: ['reports', 'create', 'https://www.example.com/', 'http://example.com', 'HTTPS://Example.com:443', '-o', 'ndjson'],
      env: server.env,
    });
    expect(run.code).toBe(0);
    expect(server.posts()).toEqual(['https://www.example.com/']);
    expect(run.stderr).toContain('http://example.com given more than once; creating it once');
    expect(run.stderr).toContain('HTTPS://Example.com:443 given more than once; creating it once');
    expect(server.reports.map((report) => report.url)).toEqual(['example.com']);
  });

  it('a URL and its stored form fall in the same share', () => {
    for (const count of [2, 3, 7]) {
      expect(shareOf('https://www.example.com/', count)).toBe(shareOf('example.com', count));
      expect(shareOf('http://www.example.com/pricing', count)).toBe(shareOf('example.com/pricing', count));
    }
  });

  it('a journal of an earlier version (full URLs as typed) resumes against stored forms: created skipped, sending found, not sent again', async () => {
    const server = await phpRank({ reports: [{ url: 'https://www.journal.example/b', result: 64 }] });
    const journal = join(scratch(), 'journal.ndjson');
    // Written before the stored report was made (a minute ago), and longer ago than the 120 s watch.
    const at = new Date(Date.now() - 150_000).toISOString();
    writeFileSync(
      journal,
      [
        JSON.stringify({ url: 'HTTPS://www.Journal.example/a', status: 'created', id: 90, at }),
        JSON.stringify({ url: 'https://www.journal.example/b', status: 'sending', at }),
        '',
      ].join('\n'),
    );
    const run = await runInProcess({
      argv: ['reports', 'create', 'https://journal.example/a', 'https://journal.example/b', 'https://journal.example/c', '--journal', journal, '-o', 'ndjson'],
      env: server.env,
    });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('skipping 1 URL already created');
    expect(server.posts()).toEqual(['https://journal.example/c']);
    expect(server.reports.map((report) => report.url)).toEqual(['journal.example/b', 'journal.example/c']);
    const lines = readFileSync(journal, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { url: string; status: string; id?: number });
    expect(lines.filter((line) => line.status === 'created').map((line) => [reportIdentity(line.url), line.id])).toEqual([
      ['journal.example/a', 90],
      ['journal.example/b', 1],
      ['journal.example/c', 2],
    ]);
  });

  it('a baseline written from stored URLs (reports list -o json) matches the URLs of a create run: none new, none vanished', async () => {
    const server = await phpRank({
      reports: [
        { url: 'https://www.example.com/', result: 90 },
        { url: 'https://example.com/pricing', result: 80 },
      ],
    });
    const baseline = join(scratch(), 'baseline.json');
    const listed = await runInProcess({ argv: ['reports', 'list', '--all', '-o', 'json'], env: server.env });
    expect(listed.code).toBe(0);
    writeFileSync(baseline, listed.stdout);
    expect((JSON.parse(listed.stdout) as { url: string }[]).map((record) => record.url).sort()).toEqual(['example.com', 'example.com/pricing']);
    const run = await runInProcess({
      argv: ['reports', 'create', 'https://www.example.com/', 'http://www.example.com/pricing', '--baseline', baseline, '-q'],
      env: server.env,
    });
    expect(run.stderr).toMatch(/of 2 reports/);
    expect(run.stderr).not.toMatch(/new|vanished/);
  });
});

/** Runs rsapi in-process and presses Ctrl-C once stderr shows `when` (the run is then where the test wants it). */
async function runUntil(argv: string[], env: Record<string, string>, when: RegExp): Promise<{ code: number; stderr: string }> {
  const { terminal, stderr, cleanup } = testTerminal({ env });
  const ctrlC = new AbortController();
  const watch = setInterval(() => {
    if (when.test(stderr.text)) ctrlC.abort();
  }, 5);
  try {
    const code = await runProgram(argv, createInvocation({ terminal, signal: ctrlC.signal }));
    return { code, stderr: stderr.text };
  } finally {
    clearInterval(watch);
    cleanup();
  }
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await delay(10);
}

function journalOf(path: string): { url: string; status: string; id?: number; maybeCreated?: boolean; newestIdBefore?: number }[] {
  return readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { url: string; status: string })
    .filter((line) => line.status !== 'ended');
}

describe('a redirected page whose answer was lost (stored under its final URL)', () => {
  it('slow audit, answer lost, run stopped while watching; the resume finds it: one report at the server, one POST', async () => {
    const audit = new GateClock();
    const server = await phpRank({
      storeDelayMs: 600,
      audit,
      reports: [
        { url: 'https://example.com/', result: 90 },
        { url: 'https://other.example/old/x', result: 50 },
      ],
    });
    const journal = join(scratch(), 'journal.ndjson');
    const url = 'https://www.example.com/old/x';
    const argv = ['reports', 'create', url, '--timeout', '0.2', '--journal', journal, '-o', 'ndjson'];
    const first = await runUntil(argv, server.env, /watching up to/);
    // The audit ends only now, with the run stopped: the resume must find the report it stored.
    audit.open();
    expect(first.stderr).toContain('interrupted while waiting for the report to show up');
    expect(first.code).toBe(7);
    expect(journalOf(journal).at(-1)).toMatchObject({ url, status: 'failed', maybeCreated: true });
    await until(() => server.reports.length === 3);

    const resumed = await runInProcess({ argv, env: server.env });

    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain(
      `rsapi: ${url} -> report 3 example.com/new/x (the answer was lost; no report under its URL, taken as the only new report of its project since it was sent, with no other create of the project in doubt (the page redirected))`,
    );
    expect(JSON.parse(resumed.stdout)).toMatchObject({ id: 3, url: 'example.com/new/x' });
    expect(server.posts()).toEqual([url]);
    expect(server.reports.filter((report) => report.url === 'example.com/new/x')).toHaveLength(1);
    expect(journalOf(journal).at(-1)).toMatchObject({ url, status: 'created', id: 3 });
  });

  it('the run itself finds it while watching, and says what it matched; a resume then sends nothing', async () => {
    const server = await phpRank({ storeDelayMs: 400 });
    const journal = join(scratch(), 'journal.ndjson');
    const urls = ['https://www.example.com/', 'https://www.example.com/old/pricing'];
    const argv = ['reports', 'create', ...urls, '--timeout', '0.2', '--concurrency', '1', '--journal', journal, '-o', 'ndjson'];
    // Real time: the timeout and the audit (twice as long) are real, so the watch must be too.
    const first = await runInProcess({ argv, env: server.env, clock: systemClock });
    expect(first.code).toBe(0);
    expect(first.stderr).toContain(
      'rsapi: https://www.example.com/old/pricing -> report 2 example.com/new/pricing (the answer was lost; no report under its URL',
    );
    expect(first.stderr).toContain('created 2 (2 found after a lost answer), failed 0');
    // The first send of the run knew no id; the second knew the first one's report.
    expect(
      journalOf(journal)
        .filter((line) => line.status === 'sending')
        .map((line) => line.newestIdBefore),
    ).toEqual([undefined, 1]);
    // As if killed before its last line: a run that did not end is resumed.
    writeFileSync(journal, readFileSync(journal, 'utf8').replace(/[^\n]*"status":"ended"[^\n]*\n$/, ''));
    const again = await runInProcess({ argv, env: server.env });
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('skipping 2 URLs already created');
    expect(server.posts()).toEqual(urls);
    expect(server.reports.map((report) => report.url)).toEqual(['example.com', 'example.com/new/pricing']);
  });

  it('two redirected pages of one project lost at once: neither can be told, both stay unsettled, and a resume sends neither again', async () => {
    const server = await phpRank();
    const journal = join(scratch(), 'journal.ndjson');
    const urls = ['https://example.com/old/a', 'https://example.com/old/b'];
    // A run killed with both requests under way, five minutes ago (its watch, as long as the 120 s create
    // timeout, is over); the service stored both reports after they were sent.
    const sentAt = new Date(Date.now() - 300_000).toISOString();
    writeFileSync(journal, urls.map((url) => `${JSON.stringify({ url, status: 'sending', at: sentAt })}\n`).join(''));
    await runInProcess({ argv: ['reports', 'create', 'https://example.com/old/a', 'https://example.com/old/b', '-q'], env: { ...server.env } });
    expect(server.reports.map((report) => report.url)).toEqual(['example.com/new/a', 'example.com/new/b']);
    const before = server.posts().length;

    const resumed = await runInProcess({ argv: ['reports', 'create', ...urls, '--journal', journal], env: server.env });

    expect(resumed.code).toBe(7);
    expect(resumed.stderr).toMatch(/2 reports created since it was sent could be its page's after a redirect \(ids 2, 1\)/);
    expect(resumed.stderr).toContain('unsettled 2');
    expect(server.posts()).toHaveLength(before);
    expect(server.reports).toHaveLength(2);
  });
});

describe('the look-up rule for a redirected page (pickRedirected)', () => {
  const at = (iso: string) => Date.parse(iso);
  const window = { since: at('2026-05-01T10:00:00Z'), newestIdBefore: 10 };
  const report = (id: number, url: string, created: string): ApiRecord => ({ id, url, project: url.split('/')[0], created_at: created });
  const createdAt = (record: ApiRecord) => Date.parse(String(record.created_at));
  const pick = (records: ApiRecord[], ledger = new CreateLedger(['https://www.example.com/old'])) =>
    pickRedirected('https://www.example.com/old', records, window, ledger, createdAt);

  it('takes the one new report of the project', () => {
    expect(pick([report(11, 'example.com/new', '2026-05-01T10:00:05Z')])).toEqual({ found: expect.objectContaining({ id: 11 }) });
  });

  it('ignores reports older than the send, or not newer than the newest id seen before it', () => {
    expect(pick([report(11, 'example.com/new', '2026-05-01T09:59:00Z'), report(9, 'example.com/x', '2026-05-01T10:00:05Z')])).toEqual({ none: true });
  });

  it('ignores a report another URL of the run took (by its id)', () => {
    const ledger = new CreateLedger(['https://www.example.com/old', 'https://example.com/c'], [{ url: 'https://example.com/c', id: 12 }]);
    const records = [report(12, 'example.com/new/c', '2026-05-01T10:00:06Z'), report(11, 'example.com/new', '2026-05-01T10:00:05Z')];
    expect(pick(records, ledger)).toEqual({ found: expect.objectContaining({ id: 11 }) });
  });

  it("does not ignore a report stored under another URL of the run that took none: it may be this page's (old/x redirects to new/x)", () => {
    const ledger = new CreateLedger(['https://www.example.com/old', 'https://example.com/new'], [{ url: 'https://example.com/new', id: 12 }]);
    // new took 12; 13 is also stored as example.com/new: the redirected page's.
    const records = [report(13, 'example.com/new', '2026-05-01T10:00:06Z'), report(12, 'example.com/new', '2026-05-01T10:00:06Z')];
    expect(pick(records, ledger)).toEqual({ found: expect.objectContaining({ id: 13 }) });
  });

  it('takes nothing by elimination while another URL of the project is in doubt (sent, unanswered), whatever is stored', () => {
    const ledger = new CreateLedger(['https://www.example.com/old', 'https://example.com/b']);
    ledger.willSend(['https://www.example.com/old', 'https://example.com/b']);
    expect(pick([report(11, 'example.com/new', '2026-05-01T10:00:05Z')], ledger)).toEqual({ found: expect.objectContaining({ id: 11 }) });
    ledger.sending('https://example.com/b');
    expect(pick([report(11, 'example.com/new', '2026-05-01T10:00:05Z')], ledger)).toMatchObject({ ambiguous: [{ id: 11 }] });
    ledger.settle('https://example.com/b');
    expect(pick([report(11, 'example.com/new', '2026-05-01T10:00:05Z')], ledger)).toEqual({ found: expect.objectContaining({ id: 11 }) });
    // Another share's URL of the project: never known to be settled here.
    expect(
      pick([report(11, 'example.com/new', '2026-05-01T10:00:05Z')], new CreateLedger(['https://www.example.com/old', 'https://example.com/z'])),
    ).toMatchObject({
      ambiguous: [{ id: 11 }],
    });
  });

  it('is unsure with two new reports in the project, or new reports only in other projects (a redirect to another host?)', () => {
    expect(pick([report(12, 'example.com/y', '2026-05-01T10:00:06Z'), report(11, 'example.com/new', '2026-05-01T10:00:05Z')])).toMatchObject({
      ambiguous: [{ id: 12 }, { id: 11 }],
    });
    expect(pick([report(11, 'elsewhere.example/new', '2026-05-01T10:00:05Z')])).toMatchObject({ ambiguous: [{ id: 11 }] });
  });

  it('of two new reports in the project, takes neither, whatever their seconds (no guess between two unclaimed reports)', () => {
    const sent = { ...window, sentAt: at('2026-05-01T10:00:00.400Z') };
    const records = [report(12, 'example.com/new', '2026-05-01T10:00:03Z'), report(11, 'example.com/y', '2026-05-01T10:00:00Z')];
    expect(pickRedirected('https://www.example.com/old', records, sent, new CreateLedger(), createdAt)).toMatchObject({ ambiguous: [{ id: 12 }, { id: 11 }] });
  });

  it('in the project, a report elsewhere does not make it unsure', () => {
    expect(pick([report(12, 'elsewhere.example/z', '2026-05-01T10:00:06Z'), report(11, 'example.com/new', '2026-05-01T10:00:05Z')])).toEqual({
      found: expect.objectContaining({ id: 11 }),
    });
  });
});

describe('against the mock in the phpRank flavor (an `old` path segment redirects to `new`)', () => {
  it('a redirecting URL with a slow audit whose answer is lost (reset after storing), run stopped while watching, then resumed: one report, one POST', async () => {
    const audit = new GateClock();
    const fixture = await startMock({ flavor: 'phprank', seed: 12, storeDelayMs: 600, dropAfterCreate: 1, rateLimit: 10_000, clock: audit });
    closers.push(() => fixture.close());
    const journal = join(scratch(), 'journal.ndjson');
    const url = 'https://www.example.com/old/pricing';
    const seeded = fixture.server.reports().length;
    const argv = ['reports', 'create', url, '--timeout', '0.2', '--journal', journal, '-o', 'ndjson'];

    const first = await runUntil(argv, fixture.env, /watching up to/);
    // The audit ends only now, with the run stopped: the resume must find the report it stored.
    audit.open();
    expect(first.code).toBe(7);
    expect(journalOf(journal).at(-1)).toMatchObject({ url, status: 'failed', maybeCreated: true });
    await until(() => fixture.server.reports().length === seeded + 1);
    const resumed = await runInProcess({ argv, env: fixture.env });

    const stored = fixture.server.reports().filter((report) => report.url === 'example.com/new/pricing');
    expect(stored).toHaveLength(1);
    expect(fixture.server.reports()).toHaveLength(seeded + 1);
    expect(fixture.server.requests.filter((request) => request.method === 'POST')).toHaveLength(1);
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain(`rsapi: ${url} -> report ${stored[0]!.id} example.com/new/pricing (the answer was lost; no report under its URL`);
    expect(journalOf(journal).at(-1)).toMatchObject({ url, status: 'created', id: stored[0]!.id });
  });

  it('several redirecting URLs, every answer lost, run to the end: each found while watching, one report each', async () => {
    const fixture = await startMock({ flavor: 'phprank', seed: 12, storeDelayMs: 300, dropAfterCreate: 1, rateLimit: 10_000 });
    closers.push(() => fixture.close());
    const urls = ['https://www.example.com/old/a', 'https://shop.example/old', 'http://example.com/b'];
    const seeded = fixture.server.reports().length;
    const run = await runInProcess({
      argv: ['reports', 'create', ...urls, '--timeout', '0.1', '--concurrency', '1', '-o', 'ndjson'],
      env: fixture.env,
      clock: systemClock,
    });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('created 3 (3 found after a lost answer), failed 0');
    expect(run.stderr).toMatch(/rsapi: https:\/\/www\.example\.com\/old\/a -> report \d+ example\.com\/new\/a/);
    expect(run.stderr).toMatch(/rsapi: https:\/\/shop\.example\/old -> report \d+ shop\.example\/new/);
    const added = fixture.server
      .reports()
      .slice(seeded)
      .map((report) => report.url);
    expect(added).toEqual(['example.com/new/a', 'shop.example/new', 'example.com/b']);
  });
});

describe('JUnit cases of a run with a redirect', () => {
  it('name the report as stored and keep the input order, the redirected page in its place', async () => {
    const fixture = await startMock({ flavor: 'phprank', seed: 0, rateLimit: 10_000 });
    closers.push(() => fixture.close());
    const junit = join(scratch(), 'rsapi.xml');
    const urls = ['https://www.example.com/old/z', 'https://example.com/a', 'http://www.example.com/'];
    const run = await runInProcess({ argv: ['reports', 'create', ...urls, '--concurrency', '3', '--junit', junit, '-q'], env: fixture.env });
    expect(run.code).toBe(0);
    const suite = childNamed(parseXml(readFileSync(junit, 'utf8')), 'testsuite')!;
    expect(childrenNamed(suite, 'testcase').map((c) => c.attributes.name)).toEqual(['example.com/new/z', 'example.com/a', 'example.com']);
  });
});

describe('the journal read back for a resume', () => {
  const line = (entry: object) => `${JSON.stringify({ at: '2026-05-01T10:00:00.000Z', ...entry })}\n`;

  it("keeps the lowest newest-id-before of a URL's sends, none once a send did not say, and the ids earlier runs created", () => {
    const history = parseHistory(
      line({ url: 'https://www.a.example/old', status: 'sending', newestIdBefore: 8 }) +
        line({ url: 'https://www.a.example/old', status: 'failed', maybeCreated: true }) +
        line({ url: 'https://a.example/old', status: 'sending', newestIdBefore: 12 }) +
        line({ url: 'https://b.example/', status: 'sending' }) +
        line({ url: 'https://b.example/', status: 'sending', newestIdBefore: 3 }) +
        line({ url: 'https://c.example/x', status: 'sending', newestIdBefore: 2 }) +
        line({ url: 'https://c.example/x', status: 'created', id: 9 }),
    );
    expect(history.unsettled.get('a.example/old')?.newestIdBefore).toBe(8);
    expect(history.unsettled.has('b.example')).toBe(true);
    expect(history.unsettled.get('b.example')?.newestIdBefore).toBeUndefined();
    expect(history.taken).toEqual([{ url: 'https://c.example/x', id: 9 }]);
  });
});
