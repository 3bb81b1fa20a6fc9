// The journal across runs, run as processes (the built binary) against the mock: what an earlier run left unsettled
// outlives another run's end and is never created twice; a resume keeps only readings younger than --resume-within,
// and says how old they are. Then what parseHistory makes of lines (the same rules, without a service).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { parseHistory } from '../../../../../src/cli/commands/reports/create/journal.js';
import { runCli } from '../../../../helpers/cli.js';
import { mockPerTest, type MockFixture } from '../../../../helpers/mock.js';
import { scratchMaker } from '../../../../helpers/scratch.js';

const mock = mockPerTest({ seed: 0 });
const scratch = scratchMaker('rsapi-journal-');

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The reports the mock holds for a URL. */
function reportsOf(fixture: MockFixture, url: string): number {
  return fixture.server.reports().filter((report) => report.url === url).length;
}

/** The POSTs the mock was sent for a URL. */
function postsOf(fixture: MockFixture, url: string): number {
  return fixture.server.requests.filter((request) => request.method === 'POST' && request.form.url === url).length;
}

/** The journal's lines, each as its object. */
function linesOf(path: string): Record<string, unknown>[] {
  return readFileSync(path, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The lines with every `at` moved `ms` into the past: the journal as a run that many ms later reads it. */
function agedBy(lines: readonly Record<string, unknown>[], ms: number): string {
  return lines.map((line) => `${JSON.stringify({ ...line, at: new Date(Date.parse(String(line.at)) - ms).toISOString() })}\n`).join('');
}

describe('a journal holding a URL an earlier run left unsettled (issue 46.1: never twice)', () => {
  it('another run that ends the journal keeps that URL, and a later run of it finds its report: one report, never two', async () => {
    // The first create is stored only after 5 s: its answer is lost (timeout 0.2 s), and the 3 s watch ends before it shows.
    const fixture = await mock({ storeDelayMs: 5_000 });
    const journal = join(scratch(), 'run.journal');
    const first = 'https://capcheck.example.com/';
    const env = fixture.env;

    const run1 = await runCli(['reports', 'create', first, '--timeout', '0.2', '--journal', journal], { env });
    expect(run1.code, run1.stderr).toBe(7);
    expect(linesOf(journal).at(-1)).toMatchObject({ url: first, status: 'failed', maybeCreated: true });

    // Run 2: other pages, every one done: it ends the journal, but keeps what run 1 left unsettled, and says so.
    fixture.server.options.storeDelayMs = 0;
    const others = ['https://other.example.com/a', 'https://other.example.com/b', 'https://other.example.com/c'];
    const run2 = await runCli(['reports', 'create', ...others, '--journal', journal], { env });
    expect(run2.code, run2.stderr).toBe(0);
    expect(run2.stderr).toContain(`rsapi: the journal ${journal} keeps 1 unsettled URL of an earlier run: ${first}; a run of it looks it up first`);
    expect(linesOf(journal).at(-1)).toMatchObject({ status: 'ended', urls: 3, carried: 1 });

    // The service has stored run 1's report by now.
    for (let waited = 0; reportsOf(fixture, first) === 0 && waited < 10_000; waited += 100) await delay(100);
    expect(reportsOf(fixture, first)).toBe(1);

    // Run 3 of the first URL: it starts the ended journal afresh, but looks the URL up first and finds its report.
    const run3 = await runCli(['reports', 'create', first, '--timeout', '0.2', '--journal', journal, '--json'], { env });
    expect(run3.code, run3.stderr).toBe(0);
    expect(JSON.parse(run3.stdout)).toMatchObject({ url: first });
    expect(postsOf(fixture, first)).toBe(1);
    expect(reportsOf(fixture, first)).toBe(1);
    // Settled by this run: its own end keeps nothing of it.
    expect(run3.stderr).not.toContain('unsettled URL of an earlier run');
    // Settled now: the next end keeps nothing, and the journal holds this run alone.
    expect(
      linesOf(journal)
        .filter((line) => line.url === first)
        .map((line) => line.status),
    ).toEqual(['sending', 'failed', 'sending', 'created']);
    const run4 = await runCli(['reports', 'create', ...others, '--journal', journal], { env });
    expect(run4.code, run4.stderr).toBe(0);
    expect(run4.stderr).not.toContain('unsettled URL of an earlier run');
    expect(linesOf(journal).some((line) => line.url === first)).toBe(false);
  }, 40_000);
});

describe('a journal of --existing refresh: a report re-audited is no create', () => {
  it('writes no `sending` line for a report the service holds; a run killed mid-refresh, resumed, makes none twice', async () => {
    const fixture = await mock();
    const [had, alsoHad, added] = ['https://weekly.example/1', 'https://weekly.example/2', 'https://weekly.example/3'];
    const first = await runCli(['reports', 'create', had, alsoHad], { env: fixture.env });
    expect(first.code, first.stderr).toBe(0);
    const journal = join(scratch(), 'weekly.journal');
    const pages = [had, alsoHad, added];
    const week = await runCli(['reports', 'create', ...pages, '--existing', 'refresh', '--concurrency', '1', '--journal', journal], { env: fixture.env });
    expect(week.code, week.stderr).toBe(0);
    const statuses = (url: string) => linesOf(journal).flatMap((line) => (line.url === url ? [line.status] : []));
    // A refresh makes no report, so a resume may send it again: only the page that had none is journaled before its send.
    expect(pages.map(statuses)).toEqual([['created'], ['created'], ['sending', 'created']]);

    // Killed while the second page was being re-audited: its refresh left no line, and the run no `ended` one.
    writeFileSync(
      journal,
      `${linesOf(journal)
        .filter((line) => line.url === had)
        .map((line) => JSON.stringify(line))
        .join('\n')}\n`,
    );
    const resumed = await runCli(['reports', 'create', ...pages, '--existing', 'refresh', '--journal', journal, '-o', 'ndjson'], { env: fixture.env });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain('skipping 1 URL already created');
    expect(
      resumed.stdout
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { url: string }).url)
        .sort(),
    ).toEqual([...pages].sort());
    expect(pages.map((page) => reportsOf(fixture, page))).toEqual([1, 1, 1]);
    expect(pages.map((page) => postsOf(fixture, page))).toEqual([1, 1, 1]);
  });
});

describe('a killed run resumed later (issue 47.1: --resume-within)', () => {
  /** Three pages created, then the journal as a kill would leave it: no ended line, the third page still `sending`. */
  async function killedRun(fixture: MockFixture, pages: readonly string[]): Promise<Record<string, unknown>[]> {
    const journal = join(scratch(), 'created.journal');
    const run = await runCli(['reports', 'create', ...pages, '--concurrency', '1', '--journal', journal], { env: fixture.env });
    expect(run.code, run.stderr).toBe(0);
    const third = pages[2];
    return linesOf(journal).filter((line) => line.status !== 'ended' && !(line.url === third && line.status === 'created'));
  }

  it('a week later: the pages it created are audited again, the one in doubt is looked up (never sent blind), none skipped', async () => {
    const fixture = await mock();
    const pages = ['https://stale.example/1', 'https://stale.example/2', 'https://stale.example/3'];
    const lines = await killedRun(fixture, pages);
    const journal = join(scratch(), 'week-old.journal');
    writeFileSync(journal, agedBy(lines, 7 * DAY));
    // A dry run reads the journal as the run will: every page would be sent.
    const dry = await runCli(['reports', 'create', ...pages, '--journal', journal, '--dry-run', '-q'], { env: fixture.env });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout.trim().split('\n')).toEqual(pages);

    const resumed = await runCli(['reports', 'create', ...pages, '--journal', journal], { env: fixture.env });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).not.toContain('skipping');
    expect(resumed.stderr).toContain(`rsapi: the journal ${journal} shows 2 URLs created more than 24 h ago (--resume-within): auditing them again`);
    expect(pages.map((page) => postsOf(fixture, page))).toEqual([2, 2, 1]);
    expect(reportsOf(fixture, pages[2]!)).toBe(1);
  });

  it('3 hours later: it says how old the journal is and skips the pages created; --resume-within 8d keeps a week-old one', async () => {
    const fixture = await mock();
    const pages = ['https://fresh.example/1', 'https://fresh.example/2', 'https://fresh.example/3'];
    const lines = await killedRun(fixture, pages);
    const recent = join(scratch(), 'recent.journal');
    writeFileSync(recent, agedBy(lines, 3 * HOUR));
    const resumed = await runCli(['reports', 'create', ...pages, '--journal', recent], { env: fixture.env });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain(`rsapi: resuming the journal ${recent} of 3 h ago: skipping 2 URLs already created`);
    expect(pages.map((page) => postsOf(fixture, page))).toEqual([1, 1, 1]);

    const old = join(scratch(), 'old.journal');
    writeFileSync(old, agedBy(lines, 7 * DAY));
    const kept = await runCli(['reports', 'create', ...pages, '--journal', old, '--resume-within', '8d'], { env: fixture.env });
    expect(kept.code, kept.stderr).toBe(0);
    expect(kept.stderr).toContain(`rsapi: resuming the journal ${old} of 7 d ago: skipping 2 URLs already created`);
    expect(pages.map((page) => postsOf(fixture, page))).toEqual([1, 1, 1]);
  });

  it('a bad --resume-within is a usage error before any request', async () => {
    const fixture = await mock();
    const run = await runCli(['reports', 'create', 'https://a.example/', '--journal', join(scratch(), 'j'), '--resume-within', 'soon'], {
      env: fixture.env,
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--resume-within takes a duration such as 90d, 12h, 2w or 30m');
    expect(fixture.server.requests).toHaveLength(0);
  });
});

describe('parseHistory', () => {
  const line = (entry: Record<string, unknown>) => `${JSON.stringify({ at: '2026-05-01T10:00:00.000Z', ...entry })}\n`;
  const sent = line({ url: 'https://a.example/', status: 'sending', newestIdBefore: 7, timeoutMs: 200 });
  const lost = line({ url: 'https://a.example/', status: 'failed', code: 7, maybeCreated: true, at: '2026-05-01T10:00:04.000Z' });
  const others = line({ url: 'https://b.example/', status: 'sending' }) + line({ url: 'https://b.example/', status: 'created', id: 9 });
  const ended = line({ url: '', status: 'ended', urls: 1, at: '2026-05-02T10:00:00.000Z' });

  it('keeps an unsettled URL across an ended line, with its lines and its first send; forgets what was settled', () => {
    const history = parseHistory(sent + lost + others + ended);
    expect(history.endedAt).toBe('2026-05-02T10:00:00.000Z');
    expect(history.created.size).toBe(0);
    expect(history.taken).toEqual([]);
    expect(history.unsettled.get('a.example')).toMatchObject({ sentAt: Date.parse('2026-05-01T10:00:00.000Z'), newestIdBefore: 7, timeoutMs: 200 });
    expect(history.unsettledLines.get('a.example')).toEqual({ url: 'https://a.example/', lines: [sent.trimEnd(), lost.trimEnd()] });
    expect([...history.unsettledLines.keys()]).toEqual(['a.example']);
    // Its lines alone read back as the same attempt (what an emptied journal keeps).
    expect(parseHistory(sent + lost).unsettled.get('a.example')).toEqual(history.unsettled.get('a.example'));
    // Settled after the end: nothing is kept any more.
    const settled = parseHistory(`${sent}${lost}${ended}${line({ url: 'https://a.example/', status: 'created', id: 12 })}${ended}`);
    expect(settled.unsettled.size).toBe(0);
    expect(settled.unsettledLines.size).toBe(0);
  });

  it("reads nothing before an ended line that carried no URL (Journal.end's `carried: 0`); one that does not say reads all", () => {
    const endedClean = line({ url: '', status: 'ended', urls: 1, carried: 0, at: '2026-05-02T10:00:00.000Z' });
    // A line before it that is not a journal line, and one left in doubt: neither counts once the run said it carried none.
    const history = parseHistory(`not a line\n${sent}${others}${endedClean}`);
    expect(history).toMatchObject({ endedAt: '2026-05-02T10:00:00.000Z', unreadable: 0, taken: [] });
    expect([history.created.size, history.unsettled.size, history.unsettledLines.size]).toEqual([0, 0, 0]);
    // An older rsapi's ended line (no `carried`) keeps what was in doubt before it, as does one that carried it.
    expect(parseHistory(`${sent}${others}${ended}`).unsettled.has('a.example')).toBe(true);
    const endedCarrying = line({ url: '', status: 'ended', urls: 1, carried: 1, at: '2026-05-02T10:00:00.000Z' });
    expect([...parseHistory(`${sent}${others}${endedCarrying}`).unsettledLines.keys()]).toEqual(['a.example']);
    // Only the last line: a clean end followed by more lines is read whole.
    expect(parseHistory(`${endedClean}${sent}`).unsettled.has('a.example')).toBe(true);
  });

  it('leaves out a URL created before the resume window (listed as expired), never one in doubt, and dates the oldest kept', () => {
    const since = Date.parse('2026-05-01T12:00:00.000Z');
    const late = line({ url: 'https://c.example/', status: 'created', id: 10, at: '2026-05-01T13:00:00.000Z' });
    const history = parseHistory(sent + others + late, { createdSince: since });
    expect([...history.created]).toEqual(['c.example']);
    expect([...history.expired]).toEqual(['b.example']);
    expect(history.oldestCreatedAt).toBe(Date.parse('2026-05-01T13:00:00.000Z'));
    expect(history.unsettled.has('a.example')).toBe(true);
    expect(history.taken.map((entry) => entry.id)).toEqual([9, 10]);
  });
});
