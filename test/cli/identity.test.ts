// A report's identity as phpRank stores it (no scheme, no `www.`, no root slash, the final URL of a redirect): de-duplication, journal, shards, baselines, look-up.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { reportIdentity } from '../../src/api/report-url.js';
import { shareOf } from '../../src/cli/ci/shard.js';
import { tempDir } from '../helpers/cli.js';
import { sendJson, startRawServer, type RawServer, type SeenRequest } from '../helpers/raw-server.js';
import { runInProcess } from '../helpers/run.js';

const closers: (() => unknown)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

function scratch(): string {
  const dir = tempDir('rsapi-identity-');
  closers.push(dir.cleanup);
  return dir.path;
}

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
  return final.href.replace(/^https?:\/\//, '').replace(/^www\./, '').replace(/^([^/]*)\/$/, '$1');
}

/**
 * A plain node:http server answering as phpRank 1.x-13 does on the calls a create makes: POST stores the
 * cleaned final URL after an audit; GET lists with `search` on the cleaned term, `project`, `sort_by`
 * id|url|result (others ignored), `per_page`, `status: 200` beside a length-aware page, Laravel's Date header.
 */
async function phpRank(options: PhpRankOptions = {}): Promise<PhpRankServer> {
  const reports: StoredReport[] = [];
  const store = (url: string): StoredReport => {
    const at = new Date().toISOString().replace(/\.\d+Z$/, '.000000Z');
    const cleaned = storedForm(url);
    const report = { id: reports.length + 1, url: cleaned, project: cleaned.split(/[/?]/)[0]!, result: 71, created_at: at, generated_at: at };
    reports.push(report);
    return report;
  };
  for (const report of options.reports ?? []) store(report.url).result = report.result;
  let dropsLeft = options.dropCreates ?? 0;
  const server = await startRawServer(async (request, response) => {
    const target = new URL(request.url, 'http://x');
    if (request.method === 'POST' && target.pathname === '/api/v1/reports') {
      await delay(options.storeDelayMs ?? 0);
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
    posts: () => server.requests.filter((request: SeenRequest) => request.method === 'POST').map((request) => new URLSearchParams(request.body).get('url') ?? ''),
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
    const run = await runInProcess({ argv: ['reports', 'create', 'https://www.example.com/', 'http://example.com', 'HTTPS://Example.com:443', '-o', 'ndjson'], env: server.env });
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
    const at = new Date(Date.now() - 1_000).toISOString();
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
    const lines = readFileSync(journal, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { url: string; status: string; id?: number });
    expect(lines.filter((line) => line.status === 'created').map((line) => [reportIdentity(line.url), line.id])).toEqual([
      ['journal.example/a', 90],
      ['journal.example/b', 1],
      ['journal.example/c', 2],
    ]);
  });

  it('a baseline written from stored URLs (reports list -o json) matches the URLs of a create run: none new, none vanished', async () => {
    const server = await phpRank({ reports: [{ url: 'https://www.example.com/', result: 90 }, { url: 'https://example.com/pricing', result: 80 }] });
    const baseline = join(scratch(), 'baseline.json');
    const listed = await runInProcess({ argv: ['reports', 'list', '--all', '-o', 'json'], env: server.env });
    expect(listed.code).toBe(0);
    writeFileSync(baseline, listed.stdout);
    expect((JSON.parse(listed.stdout) as { url: string }[]).map((record) => record.url).sort()).toEqual(['example.com', 'example.com/pricing']);
    const run = await runInProcess({ argv: ['reports', 'create', 'https://www.example.com/', 'http://www.example.com/pricing', '--baseline', baseline, '-q'], env: server.env });
    expect(run.stderr).toMatch(/of 2 reports/);
    expect(run.stderr).not.toMatch(/new|vanished/);
  });
});
