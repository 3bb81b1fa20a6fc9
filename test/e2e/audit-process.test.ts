// `rsapi audit` as a real process against two mocks (production and staging): a run killed with SIGKILL on one service
// leaves the same job's audit of the other whole, a cron overlap is refused in audit's words, and Ctrl-C or SIGTERM
// ends a run that says it was interrupted and how to finish it.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, startCli, type CliResult } from '../helpers/cli.js';
import { GateClock } from '../helpers/gate-clock.js';
import { mockPerTest, posts, reportsPerPage, type MockFixture } from '../helpers/mock.js';
import { startRawServer } from '../helpers/raw-server.js';
import { scratchMaker } from '../helpers/scratch.js';

const mock = mockPerTest({ flavor: 'phprank', rateLimit: 0, seed: 0 });
const scratch = scratchMaker('rsapi-audit-process-');
const stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

const PAGES = Array.from({ length: 20 }, (_, index) => `https://shop.example.org/p/${index + 1}`);

/** A folder holding the audit's file (job `shop`, the 20 pages), and the env of an audit of `service` from it. */
function site(): { dir: string; env: (service: MockFixture) => Record<string, string> } {
  const dir = scratch();
  writeFileSync(join(dir, 'rsapi.config.json'), JSON.stringify({ audit: { job: 'shop', urls: PAGES } }));
  // One machine: the same home, data folder and history for every service.
  return { dir, env: (service) => ({ ...service.env, HOME: dir, XDG_DATA_HOME: join(dir, 'data') }) };
}

/** `rsapi audit ARGS` started in `dir`, as cron starts it; its output gathered. */
function startAudit(dir: string, env: Record<string, string>, ...args: string[]) {
  const started = startCli(['audit', '--config', join(dir, 'rsapi.config.json'), ...args], { cwd: dir, env });
  stops.push(() => started.child.kill('SIGKILL'));
  return started;
}

function audit(dir: string, env: Record<string, string>, ...args: string[]): Promise<CliResult> {
  return runCli(['audit', '--config', join(dir, 'rsapi.config.json'), ...args], { env, timeoutMs: 60_000 });
}

const ONCE_EACH = new Map(PAGES.map((page) => [page.replace('https://', ''), 1]));

async function until(condition: () => boolean, timeoutMs = 30_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out waiting for the condition');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('rsapi audit as a process', () => {
  it('killed half-way against production, then run against staging with the same file: staging audits every page; production resumes with none twice', async () => {
    const production = await mock({ latencyMs: 100 });
    const staging = await mock();
    const { dir, env } = site();
    const killed = startAudit(dir, env(production), '--concurrency', '2');
    await until(() => posts(production) >= 8);
    killed.child.kill('SIGKILL');
    expect((await killed.done).signal).toBe('SIGKILL');
    const created = posts(production);
    expect(created).toBeLessThan(PAGES.length);

    const onStaging = await audit(dir, env(staging));
    expect(onStaging.code, onStaging.stderr).toBe(0);
    expect(onStaging.stdout.split('\n')[0]).toBe("audit shop: 20 pages audited, recorded as run 2, the job's first");
    expect(onStaging.stderr).not.toContain('already created');
    expect(reportsPerPage(staging)).toEqual(ONCE_EACH);

    // Production's journal is its own: the killed run resumes there, each page created once in all.
    const resumed = await audit(dir, env(production));
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(
      /rsapi: took over the lock .*history\.db\.audit-shop-[0-9a-f]{12}\.journal\.lock of pid \d+ on host .*: its process \(pid \d+\) is gone/,
    );
    expect(resumed.stderr).toMatch(/skipping \d+ URLs already created/);
    expect(resumed.stdout.split('\n')[0]).toMatch(/^audit shop: 20 pages audited, recorded as run 3/);
    expect(reportsPerPage(production)).toEqual(ONCE_EACH);
  }, 90_000);

  it("an audit of a job another audit of it is running refuses at once with exit 2, naming that run and what to do in audit's words", async () => {
    // The mock holds every request until the gate opens: the first audit stays under way until the second has met its lock.
    const gate = new GateClock();
    const production = await mock({ latencyMs: 1_000, clock: gate });
    stops.push(() => gate.open());
    const { dir, env } = site();
    const first = startAudit(dir, env(production));
    await until(() => production.server.requests.length > 0);
    const second = await audit(dir, env(production));
    expect(second.code).toBe(2);
    expect(second.stderr).toMatch(
      new RegExp(
        `another \`rsapi audit\` of job shop is running \\(pid ${first.child.pid} on host ${hostname()} since \\d{4}-[^)]+ \\(\\d+ s ago\\); lock file `,
      ),
    );
    expect(second.stderr).toContain('wait for it, or give this one another job with --job');
    expect(second.stderr).not.toContain('--journal');
    gate.open();
    const result = await first.done;
    expect(result.code, result.stderr).toBe(0);
    expect(reportsPerPage(production)).toEqual(ONCE_EACH);
  }, 60_000);

  it.each(['SIGINT', 'SIGTERM'] as const)(
    '%s: the last line says it was interrupted and to run `rsapi audit` again (exit 130); that run finishes it',
    async (signal) => {
      const production = await mock({ latencyMs: 150 });
      const { dir, env } = site();
      const run = startAudit(dir, env(production), '--concurrency', '2');
      await until(() => posts(production) >= 4);
      run.child.kill(signal);
      const interrupted = await run.done;
      expect(interrupted.code, interrupted.stderr).toBe(130);
      const last = interrupted.stdout.trimEnd().split('\n').at(-1);
      expect(last).toMatch(
        /^interrupted: \d+ of 20 pages audited; \d+ not: .*\d+ not started \(interrupted\); run `rsapi audit` again to finish: its journal resumes the run$/,
      );
      expect(`${interrupted.stdout}${interrupted.stderr}`).not.toContain('--journal');
      const again = await audit(dir, env(production));
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).not.toContain('interrupted');
      expect(reportsPerPage(production)).toEqual(ONCE_EACH);
    },
    60_000,
  );

  it('SIGTERM while the sitemap is being fetched ends the audit as interrupted (exit 130), not as a sitemap that cannot be fetched (7)', async () => {
    const production = await mock();
    // A site whose sitemap never answers: the audit is still fetching it when SIGTERM comes.
    const site = await startRawServer(() => {});
    stops.push(() => void site.close());
    const dir = scratch();
    writeFileSync(join(dir, 'rsapi.config.json'), JSON.stringify({ audit: { job: 'shop', sitemaps: [`${site.url}/sitemap.xml`] } }));
    const run = startAudit(dir, { ...production.env, HOME: dir, XDG_DATA_HOME: join(dir, 'data') });
    await until(() => site.requests.some((request) => request.url === '/sitemap.xml'));
    run.child.kill('SIGTERM');
    const result = await run.done;
    expect(result.code, result.stderr).toBe(130);
    expect(result.stderr).not.toContain('cannot fetch the sitemap');
    expect(posts(production)).toBe(0);
  }, 30_000);

  it("SIGTERM with --html and --junit keeps last week's complete files and writes the partial ones beside them, saying where; --partial-files writes over them", async () => {
    const production = await mock({ latencyMs: 150 });
    const { dir, env } = site();
    const html = join(dir, 'audit.html');
    const junit = join(dir, 'junit.xml');
    const files = ['--html', html, '--junit', junit];
    const week = await audit(dir, env(production), ...files);
    expect(week.code, week.stderr).toBe(0);
    const complete = { html: readFileSync(html, 'utf8'), junit: readFileSync(junit, 'utf8') };

    const stopped = async (...more: string[]) => {
      const run = startAudit(dir, env(production), '--concurrency', '2', ...files, ...more);
      // The week's refreshes: the requests of 4 pages at least under way.
      const before = production.server.requests.length;
      await until(() => production.server.requests.length >= before + 8);
      run.child.kill('SIGTERM');
      return run.done;
    };
    const interrupted = await stopped();
    expect(interrupted.code, interrupted.stderr).toBe(130);
    expect(readFileSync(html, 'utf8')).toBe(complete.html);
    expect(readFileSync(junit, 'utf8')).toBe(complete.junit);
    const partialHtml = readFileSync(join(dir, 'audit.partial.html'), 'utf8');
    expect(partialHtml).toMatch(/not started/);
    expect(readFileSync(join(dir, 'junit.partial.xml'), 'utf8')).toMatch(/not started/);
    expect(interrupted.stderr).toContain(
      `rsapi: the run stopped early (interrupted): its files are partial, written to ${join(dir, 'audit.partial.html')} (${html} is left as it was), ` +
        `${join(dir, 'junit.partial.xml')} (${junit} is left as it was); --partial-files writes them under their names`,
    );
    expect(interrupted.stdout).toContain(`wrote: ${join(dir, 'audit.partial.html')}, ${join(dir, 'junit.partial.xml')}\n`);

    // Asked for, a partial run's files take their names.
    const asked = await stopped('--partial-files');
    expect(asked.code, asked.stderr).toBe(130);
    expect(readFileSync(html, 'utf8')).toMatch(/not started/);
    expect(asked.stderr).not.toContain('stopped early');
    // A complete run's files take their names, and the partial ones an earlier run left beside them go.
    const whole = await audit(dir, env(production), ...files);
    expect(whole.code, whole.stderr).toBe(0);
    expect(existsSync(join(dir, 'audit.partial.html'))).toBe(false);
    expect(existsSync(join(dir, 'junit.partial.xml'))).toBe(false);
  }, 90_000);
});
