// Bulk `reports create` against the mock with injected faults: no URL lost, none created twice, the journal, Ctrl-C.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reportIdentity } from '../../../../../src/api/model/report-url.js';
import { createAll } from '../../../../../src/cli/commands/reports/create/create-all.js';
import { parseHistory } from '../../../../../src/cli/commands/reports/create/journal.js';
import { runPool } from '../../../../../src/cli/bulk/pool.js';
import { createProgress, plainProgress } from '../../../../../src/cli/commands/reports/create/progress.js';
import { NotFoundError } from '../../../../../src/api/errors.js';
import { ExitCode, exitCodeOf } from '../../../../../src/cli/runtime/exit-codes.js';
import { BIN, cleanEnv, type CliResult } from '../../../../helpers/cli.js';
import { scratchMaker } from '../../../../helpers/scratch.js';
import { FakeClock } from '../../../../helpers/fake-clock.js';
import { VirtualClock } from '../../../../helpers/virtual-clock.js';
import { runInProcess } from '../../../../helpers/run.js';
import { mockPerTest, type MockFixture } from '../../../../helpers/mock.js';
import { runOnTerminal } from '../../../../helpers/terminal.js';
import { seededRandom } from '../../../../mock/http.js';

const mock = mockPerTest({ seed: 5 });

const scratch = scratchMaker('rsapi-bulk-');

/** …/p/1 is a substring of …/p/10 and …/p/100: the look-up after a lost answer must still find the exact one. */
function urls(host: string, count: number): string[] {
  return Array.from({ length: count }, (_, index) => `https://${host}/p/${index + 1}`);
}

interface JournalLine {
  url: string;
  status: string;
  id?: number;
  code?: number;
}

function journalLines(path: string): JournalLine[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as JournalLine)
    .filter((line) => (line.status as string) !== 'ended');
}

function lastByUrl(lines: JournalLine[]): Map<string, JournalLine> {
  return new Map(lines.map((line) => [line.url, line]));
}

function ndjson(stdout: string): { id: number; url: string }[] {
  return stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { id: number; url: string });
}

/** The mock's reports for these URLs, as url -> ids. */
function stored(fixture: MockFixture, wanted: string[]): Map<string, number[]> {
  const set = new Set(wanted);
  const byUrl = new Map<string, number[]>();
  for (const report of fixture.server.reports()) {
    if (!set.has(report.url)) continue;
    byUrl.set(report.url, [...(byUrl.get(report.url) ?? []), report.id]);
  }
  return byUrl;
}

function expectExactlyOnce(fixture: MockFixture, wanted: string[]): Map<string, number> {
  const byUrl = stored(fixture, wanted);
  expect([...byUrl.keys()].sort()).toEqual([...wanted].sort());
  const twice = [...byUrl].filter(([, ids]) => ids.length !== 1);
  expect(twice).toEqual([]);
  return new Map([...byUrl].map(([url, ids]) => [url, ids[0]!]));
}

describe('bulk create under faults', () => {
  it('300 URLs with dropped answers, 503s after storing, plain 503s and latency: one report per distinct URL, output and journal agree', async () => {
    // The latency and the run's backoff share one virtual time: requests overlap as they would, at no real cost.
    const clock = new VirtualClock();
    const fixture = await mock({ latencyMs: 5, dropAfterCreate: 0.2, failAfterCreate: 0.1, failRate: 0.05, random: seededRandom(7), clock });
    const dir = scratch();
    // Longest first: when …/p/1 is looked up, …/p/1x and …/p/1xx are already there and newer.
    const wanted = urls('bulk.example', 300).reverse();
    const input = ['# 300 pages, two given twice, one bad line', '', ...wanted, wanted[4], wanted[250], 'not a url'].join('\n');
    const file = join(dir, 'urls.txt');
    writeFileSync(file, `${input}\n`);
    const journal = join(dir, 'journal.ndjson');

    const result = await runInProcess({
      argv: ['reports', 'create', '--from-file', file, '--skip-invalid', '--concurrency', '8', '--retries', '4', '--journal', journal, '-o', 'ndjson'],
      env: fixture.env,
      clock,
    });

    expect(result.stderr).toMatch(/created 300 \(\d+ found after a lost answer\), failed 0, duplicates 2, invalid 1/);
    expect(result.code).toBe(0);
    const ids = expectExactlyOnce(fixture, wanted);
    const printed = ndjson(result.stdout);
    expect(printed).toHaveLength(300);
    expect(new Map(printed.map((record) => [record.url, record.id]))).toEqual(ids);
    const last = lastByUrl(journalLines(journal));
    expect(last.size).toBe(300);
    for (const [url, id] of ids) expect(last.get(url)).toMatchObject({ status: 'created', id });
    // The faults did happen: more POSTs than URLs, and look-ups by URL.
    const posts = fixture.server.requests.filter((request) => request.method === 'POST');
    expect(posts.length).toBeGreaterThan(300);
    expect(fixture.server.requests.some((request) => request.method === 'GET' && request.query.search_by === 'url')).toBe(true);
  });

  it("the last attempt's lost answer is looked up too: with no retries left, a stored report still counts as created", async () => {
    const fixture = await mock({ dropAfterCreate: 1 });
    const wanted = urls('last-attempt.example', 5);
    const result = await runInProcess({ argv: ['reports', 'create', ...wanted, '--retries', '0', '-o', 'ndjson'], env: fixture.env });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('created 5 (5 found after a lost answer), failed 0');
    const ids = expectExactlyOnce(fixture, wanted);
    expect(new Map(ndjson(result.stdout).map((record) => [record.url, record.id]))).toEqual(ids);
  });

  it('stalled requests time out, are watched, and end unsettled (exit 7, maybeCreated), never sent twice; the resume looks them up, then sends them', async () => {
    const fixture = await mock({ stallRate: 0.25, random: seededRandom(3) });
    const journal = join(scratch(), 'journal.ndjson');
    const wanted = urls('stall.example', 12);
    // The timeouts are real (a stalled request never answers); the watch after each is the clock's: a fake one ends it at once.
    const first = await runInProcess({
      argv: ['reports', 'create', ...wanted, '--timeout', '0.4', '--retries', '5', '--concurrency', '6', '--journal', journal, '-o', 'ndjson'],
      env: fixture.env,
      clock: new FakeClock(),
    });
    const stalled = fixture.server.requests.filter((request) => request.method === 'POST' && request.status === undefined).map((request) => request.form.url);
    expect(stalled.length).toBeGreaterThan(0);
    expect(first.code).toBe(ExitCode.network);
    expect(first.stderr).toContain(`unsettled ${stalled.length}`);
    // Never a second POST for a URL whose first one may still be running.
    const posted = fixture.server.requests.filter((request) => request.method === 'POST').map((request) => request.form.url);
    expect(new Set(posted).size).toBe(posted.length);
    const last = lastByUrl(journalLines(journal));
    for (const url of stalled) expect(last.get(url ?? '')).toMatchObject({ status: 'failed', code: 7, maybeCreated: true });

    fixture.server.options.stallRate = 0;
    const second = await runInProcess({
      argv: ['reports', 'create', ...wanted, '--timeout', '0.4', '--journal', journal, '-o', 'ndjson'],
      env: fixture.env,
      clock: new FakeClock(),
    });
    expect(second.code).toBe(0);
    // The resumed run prints every report of the run: the first run's, read back, and those it created now.
    expect(
      ndjson(second.stdout)
        .map((record) => record.url)
        .sort(),
    ).toEqual([...wanted].sort());
    expectExactlyOnce(fixture, wanted);
  });

  it('Ctrl-C midway: requests under way finish, the journal stays consistent, exit 130; the re-run completes without a duplicate', async () => {
    const fixture = await mock({ latencyMs: 25, dropAfterCreate: 0.2, failAfterCreate: 0.1, random: seededRandom(11) });
    const dir = scratch();
    const wanted = urls('resume.example', 300);
    const file = join(dir, 'urls.txt');
    writeFileSync(file, `${wanted.join('\n')}\n`);
    const journal = join(dir, 'journal.ndjson');
    const args = ['reports', 'create', '--from-file', file, '--concurrency', '4', '--retries', '4', '--journal', journal, '-o', 'ndjson'];

    const first = await runInterrupted(args, fixture.env, () => countCreated(journal) >= 40);
    expect(first.code).toBe(130);
    expect(first.stderr).toContain('interrupted');
    expect(first.stderr).toMatch(/not started \d+ \(interrupted\)/);
    const afterFirst = journalLines(journal);
    const settled = lastByUrl(afterFirst);
    // Every URL that was started has its outcome: nothing left "sending".
    expect([...settled.values()].filter((line) => line.status === 'sending')).toEqual([]);
    const createdFirst = [...settled.values()].filter((line) => line.status === 'created');
    expect(createdFirst.length).toBeGreaterThanOrEqual(40);
    expect(createdFirst.length).toBeLessThan(300);
    expect(
      ndjson(first.stdout)
        .map((record) => record.url)
        .sort(),
    ).toEqual(createdFirst.map((line) => line.url).sort());

    // The re-run is in-process: the mock's latency and the run's waits move to one virtual time.
    const clock = new VirtualClock();
    fixture.server.options.clock = clock;
    const second = await runInProcess({ argv: args, env: fixture.env, clock });
    expect(second.code).toBe(0);
    expect(second.stderr).toMatch(new RegExp(`resuming the journal \\S+ of \\d+ s ago: skipping ${createdFirst.length} URLs already created`));
    const ids = expectExactlyOnce(fixture, wanted);
    // The re-run prints every report of the run, the first run's read back with the rest: one each.
    const printed = ndjson(second.stdout);
    expect(printed).toHaveLength(300);
    expect(new Map(printed.map((record) => [record.url, record.id]))).toEqual(ids);
    const last = lastByUrl(journalLines(journal));
    for (const [url, id] of ids) expect(last.get(url)).toMatchObject({ status: 'created', id });
  });
});

describe('bulk create: journal', () => {
  it('tolerates a torn last line, skips created URLs, and finds a URL left "sending" instead of creating it again', async () => {
    const fixture = await mock();
    const dir = scratch();
    const journal = join(dir, 'journal.ndjson');
    const [sending, done, torn] = urls('journal.example', 3) as [string, string, string];
    // `sending` (…/p/1) was stored by the service, but the run was killed before its answer was journaled;
    // since then, more than a page of newer reports whose URLs contain it (…/p/10, …/p/100) were created.
    const before = await runInProcess({ argv: ['reports', 'create', sending, '--json'], env: fixture.env });
    const storedId = (JSON.parse(before.stdout) as { id: number }).id;
    const newer = ['10', '11', '12', '13', '14', '15', '16', '17', '18', '19', '100', '101'].map((n) => `https://journal.example/p/${n}`);
    expect((await runInProcess({ argv: ['reports', 'create', ...newer, '-q'], env: fixture.env })).code).toBe(0);
    const at = new Date().toISOString();
    writeFileSync(
      journal,
      [
        JSON.stringify({ url: done, status: 'created', id: 1, at }),
        JSON.stringify({ url: sending, status: 'sending', at }),
        `{"url":"${torn}","status":"crea`,
      ].join('\n'),
    );

    const result = await runInProcess({ argv: ['reports', 'create', done, sending, torn, '--journal', journal, '-o', 'ndjson'], env: fixture.env });

    expect(result.code).toBe(0);
    expect(result.stderr).toContain('skipping 1 URL already created');
    const printed = ndjson(result.stdout);
    expect(printed.map((record) => record.url).sort()).toEqual([sending, torn].sort());
    expect(printed.find((record) => record.url === sending)?.id).toBe(storedId);
    expect(stored(fixture, [sending]).get(sending)).toEqual([storedId]);
    expect(stored(fixture, [done]).size).toBe(0); // skipped: never sent
    // The torn line (never acted on) is cut off; every line now is whole.
    const lines = readFileSync(journal, 'utf8').split('\n');
    expect(lines).not.toContain(`{"url":"${torn}","status":"crea`);
    expect(
      lines
        .slice(2)
        .filter(Boolean)
        .every((line) => JSON.parse(line) !== undefined),
    ).toBe(true);
    // Every URL done: the run's last line ends the journal; before it, each URL shows created.
    const text = readFileSync(journal, 'utf8');
    expect(parseHistory(text).endedAt).toBeDefined();
    const history = parseHistory(text.slice(0, text.trimEnd().lastIndexOf('\n') + 1));
    expect([...history.created].sort()).toEqual([done, sending, torn].map(reportIdentity).sort());
    expect(history.unreadable).toBe(0);
  });

  it('records failures with their exit code; a later run retries only those, and the exit code is the first failure class', async () => {
    // The mock's window and the run's waits share one virtual time: waiting out a window costs no real time.
    const clock = new VirtualClock();
    const fixture = await mock({ rateLimit: 4, rateLimitWindowMs: 1500, clock });
    const dir = scratch();
    const journal = join(dir, 'journal.ndjson');
    const wanted = urls('limited.example', 7);
    wanted[4] = 'https://down.example/p/5';
    const args = ['reports', 'create', ...wanted, '--concurrency', '1', '--retries', '0', '--journal', journal, '-o', 'tsv', '--fields', 'url'];

    // The service cannot fetch down.example's page (422, exit 5) until it can.
    fixture.server.options.unreachable = ['down.example'];
    const first = await runInProcess({ argv: args, env: fixture.env, clock });
    expect(first.code).toBe(ExitCode.validation);
    // Paced to the limit: the request that found the window's end met a 429, waited out even with --retries 0.
    expect(first.stdout.trim().split('\n')).toEqual([...wanted.slice(0, 4), ...wanted.slice(5)]);
    expect(first.stderr).toContain(`rsapi: ${wanted[4]}: `);
    expect(first.stderr).not.toContain('rate limited');
    expect(first.stderr).toContain('created 6, failed 1 (exit 5)');
    const failed = [...lastByUrl(journalLines(journal)).values()].filter((line) => line.status === 'failed');
    expect(failed.map((line) => [line.url, line.code])).toEqual([[wanted[4], 5]]);

    fixture.server.options.unreachable = [];
    await clock.sleep(1600);
    const second = await runInProcess({ argv: args, env: fixture.env, clock });
    expect(second.code).toBe(0);
    // Every URL of the run: those the first run created (read back, in input order), then the one retried.
    expect(second.stdout.trim().split('\n')).toEqual([...wanted.slice(0, 4), ...wanted.slice(5), wanted[4]]);
    expect(second.stderr).toContain('skipping 6 URLs already created');
    expectExactlyOnce(fixture, wanted);
  });
});

describe('bulk create: input and output', () => {
  it('an invalid line stops the run before any request, naming it', async () => {
    const fixture = await mock();
    const result = await runInProcess({ argv: ['reports', 'create', '--from-file', '-'], env: fixture.env, stdin: 'https://a.example/\nftp://b.example/\n' });
    expect(result.code).toBe(ExitCode.usage);
    expect(result.stderr).toContain('stdin:2: "ftp://b.example/"');
    expect(fixture.server.requests).toHaveLength(0);
  });

  it('reads stdin, skips comments and blanks, sends duplicates once; json is one array in input order', async () => {
    const fixture = await mock({ latencyMs: 5 });
    const wanted = urls('order.example', 12);
    const input = ['# header', ...wanted, '', wanted[0], '   '].join('\n');
    const result = await runInProcess({ argv: ['reports', 'create', '--from-file', '-', '--json', '--concurrency', '6'], env: fixture.env, stdin: input });
    expect(result.code).toBe(0);
    const records = JSON.parse(result.stdout) as { url: string }[];
    expect(records.map((record) => record.url)).toEqual(wanted);
    expect(result.stderr).toContain(`${wanted[0]} given more than once; creating it once`);
    expect(result.stderr).toContain('created 12, failed 0, duplicates 1');
    expect(fixture.server.requests.filter((request) => request.method === 'POST')).toHaveLength(12);
  });

  it('one URL prints one json object and no summary; its failure is the usual error and exit code', async () => {
    const fixture = await mock();
    const ok = await runInProcess({ argv: ['reports', 'create', 'https://one.example/', '--json'], env: fixture.env });
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ url: 'https://one.example/' });
    expect(ok.stderr).toBe('');
    const refused = await runInProcess({
      argv: ['reports', 'create', 'https://one.example/', '--json'],
      env: { ...fixture.env, RSAPI_API_KEY: 'wrong-key-123' },
    });
    expect(refused.code).toBe(ExitCode.auth);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(/^rsapi: authentication refused/);
  });

  it('the gate judges every created report after the output (exit 10)', async () => {
    const fixture = await mock();
    const result = await runInProcess({ argv: ['reports', 'create', ...urls('gate.example', 3), '--fail-on', 'good', '--json'], env: fixture.env });
    expect(result.code).toBe(ExitCode.gate);
    expect(JSON.parse(result.stdout)).toHaveLength(3);
    expect(result.stderr).toContain('rsapi: gate failed');
  });

  it('--concurrency must be a whole number from 1 to 32', async () => {
    for (const value of ['0', '33', 'two']) {
      const result = await runInProcess({
        argv: ['reports', 'create', 'https://a.example/', '--concurrency', value],
        env: { RSAPI_BASE_URL: 'http://127.0.0.1:9' },
      });
      expect(result.code).toBe(ExitCode.usage);
      expect(result.stderr).toContain('--concurrency must be a whole number from 1 to 32');
    }
  });

  it('no progress bar when stderr is not a terminal: only the summary line', async () => {
    const fixture = await mock();
    const result = await runInProcess({ argv: ['reports', 'create', ...urls('plain.example', 5), '-q'], env: fixture.env });
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split('\n')).toHaveLength(5);
    expect(result.stderr).toBe('created 5, failed 0\n');
  });
});

describe('bulk create on a terminal', () => {
  it('draws a progress bar on stderr, then clears it for the summary', async () => {
    const fixture = await mock({ latencyMs: 20 });
    const args = ['reports', 'create', ...urls('tty.example', 24), '--concurrency', '2', '-o', 'ndjson'];
    const { screen } = await runOnTerminal(args, { env: { ...fixture.env, COLUMNS: '160', TERM: 'xterm' } });
    // The pseudo-terminal says no width (script(1) leaves it 0): the bar is fitted to 80 columns.
    expect(screen).toMatch(/\d+\/24 \| created \d+ \| failed 0 \| in flight [0-2] \|/);
    // Records on the same screen are written above the bar, never onto its line.
    expect(screen).toMatch(/in flight \d[^\r\n]*\r\u001b\[2K\{"id"/);
    expect(screen).not.toMatch(/in flight \d[^\r\n]*\{"id"/);
    expect(screen).toContain('created 24, failed 0');
    expect(fixture.server.reports().filter((report) => report.url.includes('tty.example'))).toHaveLength(24);
  });

  it('counts refreshes as refreshed, not created, on the bar', async () => {
    const fixture = await mock({ latencyMs: 20 });
    const pages = urls('again.example', 12);
    expect((await runInProcess({ argv: ['reports', 'create', ...pages, '-q'], env: fixture.env })).code).toBe(0);
    const args = ['reports', 'create', ...pages, '--existing', 'refresh', '--concurrency', '2', '-q'];
    const { screen } = await runOnTerminal(args, { env: { ...fixture.env, COLUMNS: '160', TERM: 'xterm' } });
    expect(screen).toMatch(/\d+\/12 \| refreshed \d+ \| failed 0 \| in flight [0-2]/);
    expect(screen).not.toMatch(/\d+\/12 \| created [1-9]/);
    expect(screen).toContain('created 0, refreshed 12 (had a report: re-audited), failed 0');
  });

  it("a rate limit's line on stderr goes above the bar, never onto its line", async () => {
    // Four requests in a 3 s window: the fifth is answered 429 with a Retry-After the run says it waits out.
    const fixture = await mock({ latencyMs: 20, rateLimit: 4, rateLimitWindowMs: 3_000 });
    const args = ['reports', 'create', ...urls('paced.example', 8), '--concurrency', '2', '-q'];
    const { screen } = await runOnTerminal(args, { env: { ...fixture.env, COLUMNS: '160', TERM: 'xterm' }, timeoutMs: 40_000 });
    expect(screen).toMatch(/rsapi: .*(429|rate limit)/);
    // Each such line starts on a line of its own: between the bar's text and it, the line is erased (or ended).
    expect(screen).not.toMatch(/(in flight \d|ETA \d)(?:(?!\u001b\[2K|\r|\n)[\s\S])*rsapi: /);
    expect(screen).toContain('created 8, failed 0');
  }, 60_000);
});

describe('bulk building blocks', () => {
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('runPool never has more than N items in flight and starts none after the stop signal', async () => {
    const stop = new AbortController();
    let inFlight = 0;
    let most = 0;
    const seen: number[] = [];
    const { started } = await runPool(
      Array.from({ length: 40 }, (_, i) => i),
      { concurrency: 3, stop: stop.signal },
      async (item) => {
        inFlight++;
        most = Math.max(most, inFlight);
        seen.push(item);
        await sleep(2);
        inFlight--;
        if (seen.length === 10) stop.abort();
      },
    );
    expect(most).toBe(3);
    expect(started).toBe(seen.length);
    expect(started).toBeLessThanOrEqual(12);
    expect(seen).toEqual(Array.from({ length: started }, (_, i) => i));
  });

  it('createAll reports each outcome, keeps going after a failure, and remembers the first failure class', async () => {
    const outcomes: string[] = [];
    const outcome = await createAll({
      urls: ['https://a.example/', 'https://b.example/', 'https://c.example/'],
      concurrency: 1,
      resume: async () => {
        throw new Error('no earlier run');
      },
      create: async ({ url }) => {
        if (url.includes('b.')) throw new NotFoundError({ method: 'POST', path: '/reports' });
        return { report: { id: url.length, url }, recovered: url.includes('c.'), attempts: 1 };
      },
      input: {},
      stop: new AbortController().signal,
      halt: () => {},
      progress: plainProgress({ write: () => true }),
      onCreated: async (url) => void outcomes.push(`ok ${url}`),
      onFailed: (url, _index, error) => void outcomes.push(`failed ${url} ${exitCodeOf(error)}`),
    });
    expect(outcomes).toEqual(['ok https://a.example/', 'failed https://b.example/ 4', 'ok https://c.example/']);
    expect(outcome).toMatchObject({ created: 2, failed: 1, recovered: 1, firstFailure: 4, interrupted: false, notStarted: 0 });
  });

  it('draws a bar with done, failed, in flight, rate and ETA on a terminal, and plain lines elsewhere', async () => {
    let drawn = '';
    const tty = Object.assign({ write: (text: string) => ((drawn += text), true) }, { isTTY: true, columns: 160 });
    const live = await createProgress({ stderr: tty, live: true }, 10);
    live.update({ created: 3, failed: 1, inFlight: 2 });
    live.log('rsapi: https://x.example/: failed');
    live.stop();
    expect(drawn).toMatch(/4\/10 \| created 3 \| failed 1 \| in flight 2 \| [\d.]+\/s \| ETA/);
    expect(drawn).toContain('rsapi: https://x.example/: failed\n');

    let plain = '';
    const pipe = await createProgress({ stderr: { write: (text: string) => ((plain += text), true) }, live: false }, 10);
    pipe.update({ created: 3, failed: 1, inFlight: 2 });
    pipe.log('a line');
    pipe.stop();
    expect(plain).toBe('a line\n');
  });
});

function countCreated(journal: string): number {
  try {
    return readFileSync(journal, 'utf8')
      .split('\n')
      .filter((line) => line.includes('"status":"created"')).length;
  } catch {
    return 0;
  }
}

/** Runs the binary, sends SIGINT once `ready()` holds, and collects the outcome. */
function runInterrupted(args: string[], env: Record<string, string>, ready: () => boolean): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const poll = setInterval(() => {
      if (ready()) {
        clearInterval(poll);
        child.kill('SIGINT');
      }
    }, 10);
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearInterval(poll);
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}
