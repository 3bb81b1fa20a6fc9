// A hostile service against a real terminal and a pipe: nothing it sends drives the terminal; pipes keep the data exact.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/run.js';
import { ALL_ATTACKS, RAW_CONTROLS, TERMINAL_ATTACKS, hostileReport, startHostileServer, type HostileServer } from '../helpers/hostile-server.js';
import { tempHomePerTest } from '../helpers/settings.js';
import { runOnTerminal } from '../helpers/terminal.js';

const KEY = 'hostile-terminal-key-Qz81';
const records = [hostileReport(7), { ...hostileReport(8), url: `https://example.com/${TERMINAL_ATTACKS.newline}` }];
const projects = [{ project: `evil${TERMINAL_ATTACKS.newline}.com` }, { project: `${TERMINAL_ATTACKS.clearScreen}x` }];

let server: HostileServer;
const home = tempHomePerTest('rsapi-hostile-', 'config');
let env: Record<string, string | undefined>;

beforeAll(async () => {
  server = await startHostileServer((request) => {
    if (request.method === 'POST') {
      return {
        status: 422,
        json: { message: `Bad ${ALL_ATTACKS}`, errors: { [`url${TERMINAL_ATTACKS.windowTitle}`]: [`no ${TERMINAL_ATTACKS.clipboard}`] } },
      };
    }
    if (request.url.startsWith('/api/v1/projects')) return { json: { data: projects, links: { next: null } } };
    if (request.url.startsWith('/api/v1/reports/')) return { json: { data: records[0] } };
    if (request.url.startsWith('/api/v1/reports')) return { json: { data: records, links: { next: null } } };
    return { status: 409, json: { message: `Conflict ${ALL_ATTACKS}` } };
  });
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  // CI: no spinner on a slow machine; its own erase sequence is not service text, but RAW_CONTROLS would match it.
  env = { HOME: home.path, RSAPI_CONFIG_DIR: home.settings.dir, TERM: 'xterm-256color', COLUMNS: '200', LINES: '40', NO_COLOR: '1', CI: 'true' };
});

const connection = () => ['--base-url', server.url, '--api-key', KEY];

/** The run on a terminal (in-process, every stream a TTY): what the screen would show, stdout and stderr together. */
async function onTerminal(args: string[]): Promise<{ screen: string; code: number }> {
  const { stdout, stderr, code } = await runInProcess({ argv: args, env, tty: true, columns: 200 });
  return { screen: stdout + stderr, code };
}

describe('on a terminal, nothing the service sends reaches it raw', () => {
  it.each([
    ['a table of reports', ['reports', 'list']],
    ['one report as a table', ['reports', 'show', '7']],
    ['-q ids and project names', ['projects', 'list', '-q']],
    ['csv', ['reports', 'list', '-o', 'csv']],
    ['tsv', ['reports', 'list', '-o', 'tsv']],
    ['json', ['reports', 'list', '-o', 'json']],
    ['ndjson', ['reports', 'list', '-o', 'ndjson']],
    ['one record as json', ['reports', 'show', '7', '--json']],
    ['rsapi api', ['api', 'GET', '/reports']],
    ['a 422 with hostile message, field names and messages', ['reports', 'create', 'https://example.com/']],
    ['an unlisted 4xx with a hostile message', ['api', 'GET', '/elsewhere']],
  ])('%s', async (_name, args) => {
    const { screen, code } = await onTerminal([...args, ...connection()]);
    expect(screen).not.toMatch(RAW_CONTROLS);
    // Escaped visibly, never dropped.
    expect(screen).toMatch(/\\(x1b|u001b|x07|x9b|u009b|u202e|u2066)/);
    expect(code === 0 || code === 5).toBe(true);
  });

  it('a 422 is exit 5 and lists each hostile field escaped, one line each', async () => {
    const { screen, code } = await onTerminal(['reports', 'create', 'https://example.com/', ...connection()]);
    expect(code).toBe(5);
    expect(screen).toContain('url\\x1b]0;pwned\\x07: no \\x1b]52;c;ZWNobyBwd25lZA==\\x07');
    // Escaped in one line of the message, however the terminal's width breaks that line at its spaces.
    expect(screen.replace(/\n {2}/g, ' ')).toMatch(/rsapi: the service rejected the request: Bad .*first\\nsecond/);
  });

  it('-q shows a project name holding a newline as one escaped line', async () => {
    const { screen } = await onTerminal(['projects', 'list', '-q', ...connection()]);
    expect(screen).toContain('evilfirst\\nsecond.com');
    expect(screen.split(/\r?\n/).filter((line) => line.includes('evil'))).toHaveLength(1);
  });

  it('on a real pseudo-terminal too: a table of reports and a hostile 422', async () => {
    for (const args of [
      ['reports', 'list'],
      ['reports', 'create', 'https://example.com/'],
    ]) {
      const { screen } = await runOnTerminal([...args, ...connection()], { env });
      expect(screen).not.toMatch(RAW_CONTROLS);
      expect(screen).toMatch(/\\(x1b|u001b|x07|x9b|u009b|u202e|u2066)/);
    }
  });
});

describe('into a pipe, data formats stay exact', () => {
  it('json is the records as sent, controls and all', async () => {
    const { stdout, code } = await runInProcess({ argv: ['reports', 'list', '-o', 'json', ...connection()] });
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual(records);
  });

  it('ndjson is one exact record a line', async () => {
    const { stdout } = await runInProcess({ argv: ['reports', 'list', '-o', 'ndjson', ...connection()] });
    expect(
      stdout
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual(records);
  });

  it('csv keeps the raw characters (quoted as RFC 4180 says)', async () => {
    const { stdout } = await runInProcess({ argv: ['reports', 'list', '-o', 'csv', '--fields', 'id,project', ...connection()] });
    expect(stdout).toBe(`id,project\r\n7,${records[0]!.project}\r\n8,${records[1]!.project}\r\n`);
  });

  it('tsv keeps the raw characters, escaping only what would break its lines', async () => {
    const { stdout } = await runInProcess({ argv: ['reports', 'list', '--fields', 'id,url', ...connection()] });
    const url = String(records[0]!.url).replace(/\\/g, '\\\\');
    expect(stdout).toBe(`7\t${url}\n8\thttps://example.com/first\\nsecond\n`);
  });

  it('-q never splits one name over two lines, and says on stderr which name it escaped', async () => {
    const { stdout, stderr } = await runInProcess({ argv: ['projects', 'list', '-q', ...connection()] });
    expect(stdout).toBe(`evilfirst\\nsecond.com\n${TERMINAL_ATTACKS.clearScreen}x\n`);
    expect(stderr).toBe('rsapi: warning: the project name evilfirst\\nsecond.com holds a line break; written escaped\n');
  });

  it('stderr is escaped even when it is not a terminal (CI logs are shown on terminals)', async () => {
    const { stderr, code } = await runInProcess({ argv: ['reports', 'create', 'https://example.com/', ...connection()] });
    expect(code).toBe(5);
    expect(stderr).not.toMatch(RAW_CONTROLS);
    expect(stderr).toContain('\\x1b]52;c;');
    expect(stderr.trimEnd().split('\n')).toHaveLength(2);
  });
});
