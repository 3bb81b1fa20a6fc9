// The `history` verbs (src/cli/commands/history/) on SQLite and PostgreSQL alike: two weeks of a site recorded from a
// loopback phpRank, then runs, show, trend, diff (and its gates), prune, export and import; the two stores' outputs
// compared; the errors for too few runs and unknown ones; concurrent writers into one store.
import { existsSync, readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../helpers/cli.js';
import { mockPerTest } from '../../../helpers/mock.js';
import { postgresPerFile } from '../../../helpers/postgres.js';
import { startRawServer, type RawServer } from '../../../helpers/raw-server.js';
import { runInProcess } from '../../../helpers/run.js';
import { scratchMaker } from '../../../helpers/scratch.js';

const scratch = scratchMaker('rsapi-history-cmd-');
const mock = mockPerTest();
const pg = postgresPerFile();
const pgMissing = pg.missing;

function checks(failing: readonly string[]) {
  return Object.fromEntries(
    ['title', 'meta_description', 'https_encryption', 'http2'].map((id) => [
      id,
      { passed: !failing.includes(id), importance: 'high', value: `${id}:${failing.includes(id)}` },
    ]),
  );
}

/** Two weeks of a site: a.example.com gets a newly failing check and drops 10 points, b is fixed, c goes, d comes. */
const WEEKS = [
  [
    { id: 1, url: 'a.example.com', project: 'a.example.com', result: 90, generated_at: '2026-01-01T10:00:00.000000Z', results: checks([]) },
    { id: 2, url: 'b.example.com/x', project: 'b.example.com', result: 70, generated_at: '2026-01-01T10:00:00.000000Z', results: checks(['title']) },
    { id: 3, url: 'c.example.com', project: 'c.example.com', result: 50, generated_at: '2026-01-01T10:00:00.000000Z', results: checks(['http2']) },
  ],
  [
    { id: 1, url: 'a.example.com', project: 'a.example.com', result: 80, generated_at: '2026-01-08T10:00:00.000000Z', results: checks(['meta_description']) },
    { id: 2, url: 'b.example.com/x', project: 'b.example.com', result: 75, generated_at: '2026-01-08T10:00:00.000000Z', results: checks([]) },
    { id: 4, url: 'd.example.com', project: 'd.example.com', result: 60, generated_at: '2026-01-08T10:00:00.000000Z', results: checks([]) },
  ],
];

interface Site {
  server: RawServer;
  week: number;
}

async function startSite(): Promise<Site> {
  const site = { week: 0 } as Site;
  site.server = await startRawServer((_request, response) => {
    const data = WEEKS[site.week] ?? [];
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ data, meta: { current_page: 1, last_page: 1, per_page: 100, total: data.length }, status: 200 }));
  });
  return site;
}

let site: Site;

beforeAll(async () => {
  site = await startSite();
}, 60_000);
afterAll(async () => {
  await site?.server.close();
});

/** How many of this process's file descriptors are open on `path` (Linux's /proc/self/fd). */
function openDescriptorsOf(path: string): number {
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === path;
    } catch {
      return false;
    }
  }).length;
}

const env = () => ({ RSAPI_BASE_URL: `${site.server.url}/api/v1`, RSAPI_API_KEY: 'test-key-1234567890' });
const rsapi = (history: string, ...argv: string[]) => runInProcess({ argv: [...argv, '--history', history], env: env() });

/** Records both weeks into `history`; returns the outputs of every reading verb, with the times of the runs left out. */
async function twoWeeks(history: string) {
  for (const week of [0, 1]) {
    site.week = week;
    const recorded = await rsapi(history, 'reports', 'list', '--all', '--record', '--json');
    expect(recorded.code, recorded.stderr).toBe(0);
  }
  const read = async (...argv: string[]) => {
    const result = await rsapi(history, 'history', ...argv);
    expect(result.code, result.stderr).toBe(0);
    return result.stdout;
  };
  const withoutTimes = (json: string) =>
    JSON.stringify(JSON.parse(json), (key, value: unknown) => (key === 'started' || key === 'finished' ? undefined : value));
  return {
    runs: withoutTimes(await read('runs', '--json')),
    show: await read('show', '1', '-o', 'tsv'),
    diff: withoutTimes(await read('diff', '--json')),
    diffCsv: await read('diff', '-o', 'csv'),
    trend: withoutTimes(await read('trend', 'https://www.a.example.com/', '--check', 'meta_description', '--json')),
    project: withoutTimes(await read('trend', '--project', 'b.example.com', '--json')),
  };
}

const STORES = [
  { name: 'sqlite', history: () => join(scratch(), 'history.db'), skip: false },
  { name: 'postgres', history: () => pg.url(), skip: pgMissing !== undefined },
];

describe.each(STORES)('history verbs on $name', ({ history, skip }) => {
  it.skipIf(skip)('diff names the newly failing check, the fix, the drop, the new and the vanished URL; its gates exit 10', async () => {
    const where = history();
    if (where.startsWith('postgres')) await resetPostgres(where);
    const out = await twoWeeks(where);
    const diff = JSON.parse(out.diff);
    expect(diff.from.id).toBe(1);
    expect(diff.to.id).toBe(2);
    expect(
      diff.changes.map((c: { url: string; status: string; new_failures: string[]; fixed: string[]; score_change: number | null }) => [
        c.url,
        c.status,
        c.new_failures,
        c.fixed,
        c.score_change,
      ]),
    ).toEqual([
      ['a.example.com', 'changed', ['meta_description'], [], -10],
      ['b.example.com/x', 'changed', [], ['title'], 5],
      ['d.example.com', 'new', [], [], null],
      ['c.example.com', 'vanished', [], [], null],
    ]);
    expect(JSON.parse(out.trend).map((p: { score: number; passed: boolean }) => [p.score, p.passed])).toEqual([
      [90, true],
      [80, false],
    ]);
    const gate = await rsapi(where, 'history', 'diff', '--fail-on-new-failures');
    expect(gate.code).toBe(10);
    expect(gate.stderr).toContain('new failures: a.example.com: meta_description (Meta description)');
    const drop = await rsapi(where, 'history', 'diff', '--max-drop', '5');
    expect(drop.code).toBe(10);
    expect((await rsapi(where, 'history', 'diff', '--max-drop', '10')).code).toBe(0);
  });
});

describe('the two stores', () => {
  it.skipIf(pgMissing !== undefined)('give the same output for the same recorded runs (runs, show, diff, trend)', async () => {
    await resetPostgres(pg.url());
    const sqlite = await twoWeeks(join(scratch(), 'history.db'));
    const postgres = await twoWeeks(pg.url());
    expect(postgres).toEqual(sqlite);
  });
});

describe('history errors', () => {
  it('a diff with one run, an unknown run id and a history that does not exist are one-line errors, exit 4', async () => {
    const where = join(scratch(), 'history.db');
    const none = await rsapi(where, 'history', 'runs');
    expect(none.code).toBe(4);
    expect(none.stderr).toMatch(/^rsapi: no history at .*history\.db yet\n/);
    expect(existsSync(where)).toBe(false);
    site.week = 0;
    expect((await rsapi(where, 'reports', 'list', '--all', '--record')).code).toBe(0);
    const one = await rsapi(where, 'history', 'diff');
    expect(one.code).toBe(4);
    expect(one.stdout).toBe('');
    expect(one.stderr).toMatch(/^rsapi: fewer than two comparable runs to diff: only one complete run \(1\)/);
    const unknown = await rsapi(where, 'history', 'show', '99');
    expect(unknown.code).toBe(4);
    expect(unknown.stderr).toMatch(/^rsapi: no run 99 in the history\n/);
    expect((await rsapi(where, 'history', 'diff', '1', '99')).code).toBe(4);
    expect((await rsapi(where, 'history', 'trend', '--since', 'soon', 'a.example.com')).code).toBe(2);
  });

  it.skipIf(pgMissing !== undefined)('a refused PostgreSQL password: the reports print, one line says so, exit 11, the password never shown', async () => {
    const url = new URL(pg.url());
    url.password = 'wrong-password-123';
    const result = await runInProcess({ argv: ['reports', 'list', '--record', '--history', url.href, '--json', '--verbose'], env: env() });
    expect(result.code).toBe(11);
    expect(JSON.parse(result.stdout)).toHaveLength(3);
    expect(result.stderr).toMatch(/rsapi: history: the history database postgres:\/\/rsapi:\*\*\*@127\.0\.0\.1:\d+\/\w+ refused the login/);
    expect(result.stderr).not.toContain('wrong-password-123');
    const read = await runInProcess({ argv: ['history', 'runs', '--history', url.href], env: env() });
    expect(read.code).toBe(11);
  });

  it('prune keeps the newest runs; export then import moves a history, and a second import adds nothing', async () => {
    const where = join(scratch(), 'history.db');
    await twoWeeks(where);
    const exported = await rsapi(where, 'history', 'export');
    expect(exported.stdout.trim().split('\n')).toHaveLength(2);
    const file = join(scratch(), 'export.ndjson');
    await import('node:fs/promises').then((fs) => fs.writeFile(file, exported.stdout));
    const other = join(scratch(), 'other.db');
    const first = await rsapi(other, 'history', 'import', file, '--json');
    expect(JSON.parse(first.stdout)).toEqual({ imported: 2, already_there: 0 });
    expect(JSON.parse((await rsapi(other, 'history', 'import', file, '--json')).stdout)).toEqual({ imported: 0, already_there: 2 });
    expect((await rsapi(other, 'history', 'import', file, '-o', 'csv')).stdout).toBe('imported,already_there\r\n0,2\r\n');
    expect((await rsapi(other, 'history', 'prune', '--keep-runs', '5', '-o', 'tsv')).stdout).toBe('0\t0\n');
    expect((await rsapi(other, 'history', 'diff', '--json')).stdout).toBe((await rsapi(where, 'history', 'diff', '--json')).stdout);
    const pruned = await rsapi(where, 'history', 'prune', '--keep-runs', '1', '--json');
    expect(JSON.parse(pruned.stdout)).toEqual({ removed_runs: 1, removed_snapshots: 3 });
    expect(JSON.parse((await rsapi(where, 'history', 'runs', '--json')).stdout).map((r: { id: number }) => r.id)).toEqual([2]);
  });

  it('an export line is one run, written as its snapshots are read: the same line as the whole run stringified', async () => {
    const where = join(scratch(), 'history.db');
    await twoWeeks(where);
    const lines = (await rsapi(where, 'history', 'export')).stdout.trim().split('\n');
    const shown = JSON.parse((await rsapi(where, 'history', 'show', '2', '--json')).stdout);
    const second = JSON.parse(lines[1] as string);
    expect(second.run.id).toBe(2);
    expect(second.snapshots.map((snapshot: { identity: string }) => snapshot.identity)).toEqual(shown.map((row: { url: string }) => row.url));
    expect(lines[1]).toBe(JSON.stringify(second));
    // Ids as a list shows them: numbers (jq's `select(.id == 4)` finds them).
    expect(shown.map((row: { id: unknown }) => row.id)).toEqual([1, 2, 4]);
  });

  it('an export cut short: the runs before the cut are imported, the line is named, and importing the whole file adds the rest', async () => {
    const where = join(scratch(), 'history.db');
    await twoWeeks(where);
    const whole = (await rsapi(where, 'history', 'export')).stdout;
    const cut = join(scratch(), 'cut.ndjson');
    writeFileSync(cut, whole.slice(0, whole.length - 40));
    const other = join(scratch(), 'other.db');
    const partial = await rsapi(other, 'history', 'import', cut);
    expect(partial.code).toBe(2);
    expect(partial.stderr).toMatch(
      new RegExp(`^rsapi: ${cut}: line 2 is not JSON\n.*the 1 run before it is in the history; importing the file again adds only what is not`),
    );
    expect(JSON.parse((await rsapi(other, 'history', 'runs', '--json')).stdout)).toHaveLength(1);
    // The file left part-way is closed by the import, not by the garbage collector (Node 26 makes that an error).
    await expect.poll(() => openDescriptorsOf(cut), { timeout: 2_000 }).toBe(0);
    const file = join(scratch(), 'whole.ndjson');
    writeFileSync(file, whole);
    expect(JSON.parse((await rsapi(other, 'history', 'import', file, '--json')).stdout)).toEqual({ imported: 1, already_there: 1 });
  });

  it('an imported run of an older export takes its place in time: newest, last and a trend go by when it started, not by id', async () => {
    const where = join(scratch(), 'history.db');
    await twoWeeks(where);
    const [first, second] = (await rsapi(where, 'history', 'export')).stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    // Run 2 of `other` (week two's readings) is dated a year before its run 1; an older rsapi's export has no `recorded`.
    second.run.started = '2025-01-01T00:00:00.000Z';
    for (const line of [first, second]) delete line.run.recorded;
    const file = join(scratch(), 'moved.ndjson');
    writeFileSync(file, `${JSON.stringify(first)}\n${JSON.stringify(second)}\n`);
    const other = join(scratch(), 'other.db');
    expect((await rsapi(other, 'history', 'import', file)).code).toBe(0);
    const runs = JSON.parse((await rsapi(other, 'history', 'runs', '--json')).stdout);
    expect(runs.map((run: { id: number }) => run.id)).toEqual([1, 2]);
    const diff = JSON.parse((await rsapi(other, 'history', 'diff', '--json')).stdout);
    expect([diff.from.id, diff.to.id]).toEqual([2, 1]);
    const trend = JSON.parse((await rsapi(other, 'history', 'trend', 'a.example.com', '--json')).stdout);
    expect(trend.map((point: { run: number }) => point.run)).toEqual([2, 1]);
    expect(JSON.parse((await rsapi(other, 'history', 'prune', '--keep-runs', '1', '--json')).stdout)).toMatchObject({ removed_runs: 1 });
    expect(JSON.parse((await rsapi(other, 'history', 'runs', '--json')).stdout).map((run: { id: number }) => run.id)).toEqual([1]);
  });

  it('import and prune into a pipe (tsv, no header) say on stderr in one line what their two numbers are; named formats and a terminal do not', async () => {
    const where = join(scratch(), 'history.db');
    await twoWeeks(where);
    const file = join(scratch(), 'export.ndjson');
    writeFileSync(file, (await rsapi(where, 'history', 'export')).stdout);
    const other = join(scratch(), 'other.db');
    const imported = await rsapi(other, 'history', 'import', file);
    expect([imported.code, imported.stdout]).toEqual([0, '2\t0\n']);
    expect(imported.stderr).toBe('rsapi: the two numbers are the runs imported and the runs already there (-o csv or --json names them)\n');
    const pruned = await rsapi(other, 'history', 'prune', '--keep-runs', '1', '-o', 'tsv');
    expect([pruned.code, pruned.stdout]).toEqual([0, '1\t3\n']);
    expect(pruned.stderr).toBe('rsapi: the two numbers are the runs removed and the snapshots no kept run referenced (-o csv or --json names them)\n');
    expect((await rsapi(other, 'history', 'import', file, '--json')).stderr).toBe('');
    expect((await rsapi(other, 'history', 'prune', '--keep-runs', '1', '-o', 'csv')).stderr).toBe('');
    const onTerminal = await runInProcess({ argv: ['history', 'import', file, '--history', other], env: env(), tty: true });
    expect(onTerminal.stdout).toMatch(/^imported \d+ runs/);
    expect(onTerminal.stderr).toBe('');
  });

  it('a line whose fields a store could not take is refused with its reason, and the history is left as it was', async () => {
    const where = join(scratch(), 'history.db');
    await twoWeeks(where);
    const [line] = (await rsapi(where, 'history', 'export')).stdout.trim().split('\n');
    const good = JSON.parse(line as string);
    const other = join(scratch(), 'other.db');
    const broken: [string, (run: { run: Record<string, unknown>; snapshots: Record<string, unknown>[] }) => void, RegExp][] = [
      ['a selection that is not JSON', (r) => (r.run.selection = 'oops'), /run\.selection is not a JSON object in a string/],
      ['a selection as an object', (r) => (r.run.selection = { all: true }), /run\.selection is not a string/],
      ['no origin', (r) => delete r.run.origin, /run\.origin is missing or not a string/],
      ['a start that is no time', (r) => (r.run.started = 'x'), /run\.started is not a time such as/],
      ['a snapshot with no identity', (r) => delete r.snapshots[0]!.identity, /snapshots\[0\]\.identity is missing/],
      ['a NUL in a URL', (r) => (r.snapshots[1]!.identity = 'a\u0000b'), /snapshots\[1\]\.identity holds a NUL character/],
      ['checks mangled', (r) => (r.snapshots[0]!.checksText = 'title'), /snapshots\[0\]\.checksText is not the checks as export writes them/],
    ];
    for (const [name, breakIt, said] of broken) {
      const run = structuredClone(good);
      breakIt(run);
      const file = join(scratch(), 'broken.ndjson');
      writeFileSync(file, `${JSON.stringify(run)}\n`);
      const result = await rsapi(other, 'history', 'import', file);
      expect(result.code, name).toBe(2);
      expect(result.stderr, name).toMatch(said);
    }
    expect(existsSync(other)).toBe(false);
  });

  it('a file that is no export, or none at all, is exit 2 and makes no history; - reads stdin', async () => {
    const other = join(scratch(), 'other.db');
    const notExport = join(scratch(), 'list.json');
    // Long enough that the refusal of line 1 leaves the file part-way: it is closed by the import all the same.
    writeFileSync(notExport, `[{"id": 1}]\n${'[{"id": 2}]\n'.repeat(20_000)}`);
    const refused = await rsapi(other, 'history', 'import', notExport);
    expect(refused.code).toBe(2);
    await expect.poll(() => openDescriptorsOf(notExport), { timeout: 2_000 }).toBe(0);
    expect(refused.stderr).toMatch(
      /line 1 is not a run of `rsapi history export`: a line is \{ "run": \{\.\.\.\}, "snapshots": \[\.\.\.\] \}\n.*give a file written by `rsapi history export`/,
    );
    const missing = await rsapi(other, 'history', 'import', join(scratch(), 'none.ndjson'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^rsapi: cannot read the export file .*none\.ndjson: no such file/);
    const directory = await rsapi(other, 'history', 'import', scratch());
    expect(directory.code).toBe(2);
    expect(directory.stderr).toMatch(/^rsapi: cannot read the export file .*: it is a directory/);
    expect(existsSync(other)).toBe(false);
    const where = join(scratch(), 'history.db');
    await twoWeeks(where);
    const exported = (await rsapi(where, 'history', 'export')).stdout;
    const piped = await runInProcess({ argv: ['history', 'import', '-', '--history', other, '--json'], env: env(), stdin: exported });
    expect(JSON.parse(piped.stdout)).toEqual({ imported: 2, already_there: 0 });
  });
});

describe('--baseline from the history', () => {
  it('--baseline last compares with the last complete run of the same selection; it records nothing by itself', async () => {
    const where = join(scratch(), 'history.db');
    const none = await rsapi(where, 'reports', 'list', '--baseline', 'last', '--json');
    expect(none.code).toBe(4);
    expect(none.stdout).toBe('');
    site.week = 0;
    expect((await rsapi(where, 'reports', 'list', '--all', '--record')).code).toBe(0);
    site.week = 1;
    const requestsBefore = site.server.requests.length;
    const gated = await rsapi(where, 'reports', 'list', '--baseline', 'last', '--fail-on-new-failures', '--json');
    expect(gated.code).toBe(10);
    expect(JSON.parse(gated.stdout)).toHaveLength(3);
    expect(gated.stderr).toContain('since run 1 of the history');
    expect(gated.stderr).toMatch(/new failures: a\.example\.com: .*meta_description/);
    expect(site.server.requests.length).toBeGreaterThan(requestsBefore);
    expect(JSON.parse((await rsapi(where, 'history', 'runs', '--json')).stdout)).toHaveLength(1);
    const other = await rsapi(where, 'reports', 'list', '--project', 'a.example.com', '--baseline', 'last');
    expect(other.code).toBe(4);
    expect(other.stderr).toMatch(/^rsapi: --baseline last: no earlier run of this job \(`reports list` \{"all":true,"project":"a\.example\.com"\}\) on http/);
    expect(other.stderr).toMatch(/hint: run the same command with --record: its first run starts the job's history/);
    expect((await rsapi(where, 'reports', 'list', '--baseline', 'run:1', '--max-drop', '5')).code).toBe(10);
    expect((await rsapi(where, 'reports', 'list', '--baseline', 'run:99')).code).toBe(4);
    expect((await rsapi(where, 'reports', 'list', '--baseline', 'since:soon')).code).toBe(2);
  });

  it('a duration reaching before 1970 means every run; a run id past what a store holds is exit 2, nothing sent', async () => {
    const where = join(scratch(), 'history.db');
    await twoWeeks(where);
    for (const argv of [
      ['history', 'runs', '--since', '99999999999d', '--json'],
      ['history', 'trend', 'a.example.com', '--since', '99999999999999999999w', '--json'],
      ['history', 'diff', '--since', '99999999999d', '--json'],
      ['history', 'prune', '--keep', '99999999999d', '--json'],
    ]) {
      const result = await rsapi(where, ...argv);
      expect(result.code, `${argv.join(' ')}: ${result.stderr}`).toBe(0);
    }
    expect(JSON.parse((await rsapi(where, 'history', 'runs', '--since', '99999999999d', '--json')).stdout)).toHaveLength(2);
    const requests = site.server.requests.length;
    const since = await rsapi(where, 'reports', 'list', '--all', '--baseline', 'since:99999999999d', '--json');
    expect(since.code, since.stderr).toBe(0);
    for (const id of ['99999999999999999999', '2147483648', '0']) {
      const shown = await rsapi(where, 'history', 'show', id);
      expect(shown.code).toBe(2);
      expect(shown.stderr).toMatch(/a run id is a whole number from 1 to 2147483647/);
      const baseline = await rsapi(where, 'reports', 'list', '--baseline', `run:${id}`);
      expect(baseline.code).toBe(2);
      expect(baseline.stderr).toMatch(new RegExp(`--baseline run:${id}: a run id is a whole number from 1 to 2147483647`));
    }
    expect(site.server.requests.length).toBe(requests + 1);
    const none = await rsapi(where, 'reports', 'list', '--project', 'x.example.com', '--baseline', 'since:3d');
    expect(none.stderr).toMatch(/^rsapi: --baseline since:3d: no earlier run of this job/);
  });
});

describe('history diff --assert', () => {
  it("judges the later run's reports by the file, as reports list does: exit 10 naming the URL, 0 when it passes", async () => {
    const where = join(scratch(), 'history.db');
    await twoWeeks(where);
    const rules = join(scratch(), 'rsapi.config.json');
    writeFileSync(rules, JSON.stringify({ assert: [{ match: 'a.example.com', checks: { meta_description: 'error' } }, { minScore: 50 }] }));
    const failed = await rsapi(where, 'history', 'diff', '--assert', rules, '--json');
    expect(failed.code).toBe(10);
    expect(JSON.parse(failed.stdout).to.id).toBe(2);
    expect(failed.stderr).toMatch(/^rsapi: assertions failed \(.*rsapi\.config\.json\): 1 of 3 reports fails an error rule$/m);
    expect(failed.stderr).toContain('rsapi:   a.example.com: meta_description');
    writeFileSync(rules, JSON.stringify({ assert: [{ minScore: 50 }] }));
    const passed = await rsapi(where, 'history', 'diff', '--assert', rules, '--json');
    expect(passed.code, passed.stderr).toBe(0);
    const typo = await rsapi(where, 'history', 'diff', '--assert', join(scratch(), 'none.json'));
    expect(typo.code).toBe(2);
  });
});

describe('history trend on a terminal', () => {
  it('keeps every line to the width: the newest points of 60 runs after …, the table fitted', async () => {
    const where = join(scratch(), 'history.db');
    const { openHistory } = await import('../../../../src/history/open.js');
    const { historyLocation } = await import('../../../../src/history/location.js');
    const { snapshotOf } = await import('../../../../src/history/snapshot.js');
    const store = await openHistory(historyLocation(where));
    for (let week = 0; week < 60; week++) {
      const id = await store.startRun({
        started: new Date(Date.UTC(2026, 0, 1 + week)).toISOString(),
        command: 'reports list',
        selection: '{}',
        origin: 'http://127.0.0.1:1',
        shard: undefined,
        ci: undefined,
      });
      const record = {
        id: 1,
        url: 'a.example.com',
        project: 'a.example.com',
        result: 40 + (week % 50),
        generated_at: `2026-01-01T00:00:${String(week).padStart(2, '0')}Z`,
        results: checks(week % 2 ? ['title'] : []),
      };
      await store.addSnapshots(id, [snapshotOf(record, 'http://127.0.0.1:1')!]);
      await store.finishRun(id, { finished: new Date().toISOString(), exitCode: 0, complete: true });
    }
    await store.close();
    const result = await runInProcess({
      argv: ['history', 'trend', 'a.example.com', '--check', 'title', '--service', 'http://127.0.0.1:1', '--history', where],
      env: env(),
      tty: true,
      columns: 40,
    });
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('a.example.com: 60 runs');
    for (const line of lines.slice(1, 4)) {
      expect([...line].length, line).toBeLessThanOrEqual(40);
      expect(line).toMatch(/^(score|failed|title) +…/);
    }
    expect(lines[1]).toMatch(/ 40 → 49 {2}\(scale 0–100\)$/);
  });
});

describe('concurrent writers', () => {
  it('two processes recording into one SQLite file at once keep every snapshot', async () => {
    const fixture = await mock({ seed: 150 });
    const where = join(scratch(), 'history.db');
    const args = ['reports', 'list', '--all', '--per-page', '10', '--record', '--history', where, '--json'];
    const results = await Promise.all([runCli(args, { env: fixture.env }), runCli(args, { env: fixture.env })]);
    for (const result of results) expect(result.code, result.stderr).toBe(0);
    const runs = JSON.parse((await rsapi(where, 'history', 'runs', '--json')).stdout);
    expect(runs.map((run: { reports: number; complete: boolean }) => [run.reports, run.complete])).toEqual([
      [150, true],
      [150, true],
    ]);
  });

  it('three runs side by side in one process recording into one SQLite file keep every snapshot', async () => {
    const fixture = await mock({ seed: 150 });
    const where = join(scratch(), 'history.db');
    const args = ['reports', 'list', '--all', '--per-page', '10', '--record', '--history', where, '-o', 'ndjson'];
    const results = await Promise.all([1, 2, 3].map(() => runInProcess({ argv: args, env: fixture.env })));
    for (const result of results) expect(result.code, result.stderr).toBe(0);
    const runs = JSON.parse((await rsapi(where, 'history', 'runs', '--json')).stdout);
    expect(runs.map((run: { reports: number }) => run.reports)).toEqual([150, 150, 150]);
  });

  it.skipIf(pgMissing !== undefined)('four shards of one create recording into one PostgreSQL database at once keep every snapshot', async () => {
    const fixture = await mock({ seed: 0 });
    const database = { url: pg.url() };
    await resetPostgres(database.url);
    {
      const urls = Array.from({ length: 16 }, (_, i) => `https://shard-${i}.example.com/`).join('\n');
      const shard = (i: number) =>
        runInProcess({
          argv: ['reports', 'create', '--from-file', '-', '--shard', `${i}/4`, '--record', '--history', database.url, '-o', 'ndjson'],
          env: fixture.env,
          stdin: urls,
        });
      const results = await Promise.all([1, 2, 3, 4].map(shard));
      for (const result of results) expect(result.code, result.stderr).toBe(0);
      const runs = JSON.parse((await runInProcess({ argv: ['history', 'runs', '--history', database.url, '--json'], env: fixture.env })).stdout);
      expect(runs).toHaveLength(4);
      expect(runs.map((run: { shard: string }) => run.shard).sort()).toEqual(['1/4', '2/4', '3/4', '4/4']);
      expect(runs.reduce((sum: number, run: { reports: number }) => sum + run.reports, 0)).toBe(16);
    }
  });
});

/** An empty history in the file's database: the tables dropped, so run ids start at 1 again. */
async function resetPostgres(url: string): Promise<void> {
  const { default: pgClient } = await import('pg');
  const client = new pgClient.Client({ connectionString: url });
  await client.connect();
  await client.query(
    'DROP TABLE IF EXISTS history_run_snapshots, history_snapshots, history_contents, history_check_sets, history_pages, history_runs, history_schema, history_job_holders, history_journal, history_pipelines, history_pipeline_shares, history_pipeline_entries',
  );
  await client.end();
}

describe('history trend, import and prune over services and jobs', () => {
  it('trend reads the configured service unless --service; mixed services are named', async () => {
    const where = join(scratch(), 'history.db');
    await twoWeeks(where);
    const { openHistory } = await import('../../../../src/history/open.js');
    const { historyLocation } = await import('../../../../src/history/location.js');
    const { snapshotOf } = await import('../../../../src/history/snapshot.js');
    const staging = 'http://127.0.0.1:9';
    const store = await openHistory(historyLocation(where));
    const id = await store.startRun({
      started: new Date().toISOString(),
      command: 'reports list',
      selection: '{}',
      origin: staging,
      shard: undefined,
      ci: undefined,
    });
    await store.addSnapshots(id, [snapshotOf({ ...WEEKS[0]?.[0], result: 10 }, staging)!]);
    await store.finishRun(id, { finished: new Date().toISOString(), exitCode: 0, complete: true });
    await store.close();
    const scores = async (...argv: string[]) => JSON.parse((await rsapi(where, 'history', 'trend', 'a.example.com', '--json', ...argv)).stdout);
    expect((await scores()).map((p: { score: number }) => p.score)).toEqual([90, 80]);
    expect((await scores('--service', staging)).map((p: { score: number }) => p.score)).toEqual([10]);
    const all = await scores('--service', 'all');
    expect(all.map((p: { service: string; score: number }) => [p.service, p.score])).toEqual([
      [site.server.url, 90],
      [site.server.url, 80],
      [staging, 10],
    ]);
    expect((await rsapi(where, 'history', 'trend', 'a.example.com', '--service', 'ftp://nowhere')).code).toBe(2);
  });

  it('a trend that finds nothing is exit 4, worded for what was asked: an unread URL, project or check with a did-you-mean, --since, --service, --job', async () => {
    const where = join(scratch(), 'history.db');
    await twoWeeks(where);
    const trend = async (...argv: string[]) => {
      const result = await rsapi(where, 'history', 'trend', ...argv);
      expect([result.code, result.stdout], result.stderr).toEqual([4, '']);
      return result.stderr;
    };
    expect(await trend('exmaple.com/nothing')).toBe(
      'rsapi: no run in the history read exmaple.com/nothing\nhint: `rsapi history runs` lists the runs; `rsapi history show RUN` the pages a run read\n',
    );
    expect(await trend('a.exmaple.com')).toBe('rsapi: no run in the history read a.exmaple.com\nhint: did you mean a.example.com?\n');
    expect(await trend('--project', 'b.exmaple.com')).toBe(
      'rsapi: no run in the history read the project b.exmaple.com\nhint: did you mean --project b.example.com?\n',
    );
    expect(await trend('a.example.com', '--check', 'meta_descripton')).toBe(
      'rsapi: no reading of a.example.com has the check meta_descripton\nhint: did you mean --check meta_description?\n',
    );
    expect(await trend('--project', 'a.example.com', '--check', 'titel')).toBe(
      'rsapi: no reading of the project a.example.com has the check titel\nhint: did you mean --check title?\n',
    );
    expect(await trend('a.example.com', '--service', 'http://127.0.0.1:9')).toBe(
      `rsapi: no run read a.example.com from http://127.0.0.1:9\nhint: it was read from ${site.server.url}: --service ${site.server.url}\n`,
    );
    expect(await trend('a.example.com', '--job', 'weekly')).toBe(
      "rsapi: no run of the job weekly in the history\nhint: `rsapi history runs` shows each run's job\n",
    );
    // The runs were recorded just now: a window ending before them is made by a clock a day ahead.
    const { openHistory } = await import('../../../../src/history/open.js');
    const { historyLocation } = await import('../../../../src/history/location.js');
    const store = await openHistory(historyLocation(where));
    const since = new Date(Date.now() + 86_400_000).toISOString();
    const { noReadingError } = await import('../../../../src/cli/commands/history/trend-missing.js');
    const late = await noReadingError(store, { subject: 'a.example.com', project: false, since, origin: undefined, job: undefined, jobRuns: undefined });
    const ofJob = await noReadingError(store, {
      subject: 'a.example.com',
      project: false,
      since: undefined,
      origin: undefined,
      job: 'weekly',
      jobRuns: new Set([99]),
    });
    await store.close();
    expect([late.message, late.hint]).toEqual([
      `no run since ${since} (--since) read a.example.com`,
      'its newest reading is of run 2: a longer --since reaches it',
    ]);
    expect([ofJob.message, ofJob.hint]).toEqual([
      'no run of the job weekly read a.example.com',
      'other runs did (the newest: run 2); without --job the trend shows them',
    ]);
    const found = await rsapi(where, 'history', 'trend', 'a.example.com', '--check', 'title', '--json');
    expect(found.code, found.stderr).toBe(0);
  });

  it('history trend --job NAME alone: one point per run of the job over every page it read, failed checks per page', async () => {
    const where = join(scratch(), 'history.db');
    for (const week of [0, 1]) {
      site.week = week;
      const recorded = await rsapi(where, 'reports', 'list', '--all', '--record', '--job', 'weekly', '--json');
      expect(recorded.code, recorded.stderr).toBe(0);
    }
    const pages = JSON.parse((await rsapi(where, 'history', 'show', '2', '--json')).stdout) as unknown[];
    const result = await rsapi(where, 'history', 'trend', '--job', 'weekly', '--json');
    expect(result.code, result.stderr).toBe(0);
    const points = JSON.parse(result.stdout) as { run: number; reports: number; failed: number | null; failed_total: number | null }[];
    expect(points.map((p) => [p.run, p.reports])).toEqual([
      [1, pages.length],
      [2, pages.length],
    ]);
    for (const point of points) {
      if (point.failed_total !== null) expect(point.failed).toBe(Math.round((point.failed_total / point.reports) * 10) / 10);
    }
    const none = await rsapi(where, 'history', 'trend', '--job', 'monthly');
    expect([none.code, none.stderr]).toEqual([4, "rsapi: no run of the job monthly in the history\nhint: `rsapi history runs` shows each run's job\n"]);
  });

  it('an import that disagrees with what the history holds says so on stderr, a line each, and keeps the stored reading', async () => {
    const where = join(scratch(), 'history.db');
    await twoWeeks(where);
    const [first] = (await rsapi(where, 'history', 'export')).stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    first.run.started = '2025-01-01T00:00:00.000Z';
    first.snapshots[0].score = 12;
    const file = join(scratch(), 'other.ndjson');
    writeFileSync(file, `${JSON.stringify(first)}\n`);
    const before = (await rsapi(where, 'history', 'show', '1', '--json')).stdout;
    const imported = await rsapi(where, 'history', 'import', file);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).toMatch(
      new RegExp(
        `^rsapi: ${file}: line 1: report 1 of a\\.example\\.com \\(generated [^)]*\\) is in the history with another score; the stored one is kept\\nrsapi: the two numbers are`,
      ),
    );
    expect((await rsapi(where, 'history', 'show', '1', '--json')).stdout).toBe(before);
  });

  it('prune --dry-run lists the runs that would go in the chosen format and removes nothing', async () => {
    const where = join(scratch(), 'history.db');
    await twoWeeks(where);
    const dry = await rsapi(where, 'history', 'prune', '--keep-runs', '1', '--dry-run', '-o', 'csv');
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout.split('\r\n')[0]).toBe('id,action,started,command,service,reports,complete');
    expect(dry.stdout.split('\r\n')[1]).toMatch(/^1,delete,[^,]+,reports list --all,http:\/\/127\.0\.0\.1:\d+,3,yes$/);
    expect(dry.stderr).toBe('dry run: 1 run and 3 snapshots no kept run references would be removed; nothing was removed\n');
    expect(JSON.parse((await rsapi(where, 'history', 'runs', '--json')).stdout)).toHaveLength(2);
  });
});
