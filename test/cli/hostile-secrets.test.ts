// A hostile service and careless settings against the secrets: a canary key and password searched for in every output and file.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startHostileServer, type HostileAnswer, type HostileServer } from '../helpers/hostile-server.js';
import { runInProcess, type InProcessResult } from '../helpers/run.js';
import { tempHomePerTest } from '../helpers/settings.js';
import { runOnTerminal } from '../helpers/terminal.js';

const CANARY = 'canary-key-Zp93LmQ7xR41';
const PASSWORD = 'canary-pass-Hs72Nq';

const home = tempHomePerTest('rsapi-secrets-', 'config');
const servers: HostileServer[] = [];
let env: Record<string, string | undefined>;

beforeEach(() => {
  env = { HOME: home.path, RSAPI_CONFIG_DIR: home.settings.dir };
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(answer: (url: string, method: string) => HostileAnswer = () => ({ json: { data: [], links: { next: null } } })) {
  const server = await startHostileServer((request) => answer(request.url, request.method));
  servers.push(server);
  return server;
}

/** Every file under the test's temp home (settings, journal, anything else rsapi wrote). */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

function expectNoSecret(result: InProcessResult, secrets: string[]): void {
  for (const secret of secrets) {
    expect(result.stdout).not.toContain(secret);
    expect(result.stderr).not.toContain(secret);
    for (const file of filesUnder(home.path)) expect(readFileSync(file, 'utf8'), file).not.toContain(secret);
  }
}

describe('a service that echoes secrets', () => {
  it('a 422 echoing the key and the report password: exit 5, masked on stderr and in the journal', async () => {
    const server = await serve((_url, method) =>
      method === 'POST'
        ? { status: 422, json: { message: `Rejected ${CANARY} with ${PASSWORD}`, errors: { password: [`"${PASSWORD}" is too weak for key ${CANARY}`] } } }
        : { json: { data: [], links: { next: null } } },
    );
    const journal = join(home.path, 'run.journal');
    const result = await runInProcess({
      argv: ['reports', 'create', 'https://a.example/', 'https://b.example/', '--privacy', 'password', '--password-stdin', '--journal', journal],
      env: { ...env, RSAPI_BASE_URL: server.url, RSAPI_API_KEY: CANARY },
      stdin: `${PASSWORD}\n`,
    });
    expect(result.code).toBe(5);
    expect(server.requests.filter((request) => request.method === 'POST')).toHaveLength(2);
    expect(readFileSync(journal, 'utf8')).toMatch(/"status":"failed".*Rejected \*\*\* with \*\*\*/);
    expectNoSecret(result, [CANARY, PASSWORD]);
  });

  it.each([['json'], ['ndjson'], ['csv'], ['tsv'], ['table']])('records carrying a password field and the key are masked in %s', async (format) => {
    const server = await serve(() => ({
      json: { data: [{ id: 1, url: 'https://e.com/', password: PASSWORD, nested: { page_password: PASSWORD }, echo: `key=${CANARY}` }], links: { next: null } },
    }));
    const result = await runInProcess({
      argv: ['reports', 'list', '-o', format, '--fields', 'id,password,nested,echo', '--base-url', server.url, '--api-key', CANARY],
      env,
      tty: format === 'table',
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('***');
    expectNoSecret(result, [CANARY, PASSWORD]);
  });

  it('rsapi api masks a password field at any depth', async () => {
    const server = await serve(() => ({ json: { data: { id: 1, password: PASSWORD, password_protected: true } } }));
    const result = await runInProcess({ argv: ['api', 'GET', '/reports/1', '--base-url', server.url, '--api-key', CANARY], env });
    expect(JSON.parse(result.stdout)).toEqual({ data: { id: 1, password: '***', password_protected: true } });
  });
});

describe('a stored key stays with the origin it was stored for', () => {
  async function loggedIn(): Promise<{ home: HostileServer; elsewhere: HostileServer }> {
    const own = await serve();
    const elsewhere = await serve();
    const login = await runInProcess({ argv: ['auth', 'login', '--with-token', '--base-url', own.url], env, stdin: `${CANARY}\n` });
    expect(login.code).toBe(0);
    expect(home.settings.read().profiles.default).toEqual({ 'base-url': `${own.url}/api/v1`, 'api-key': CANARY, 'key-origin': own.url });
    return { home: own, elsewhere };
  }

  it.each([
    ['--base-url', (url: string) => ({ argv: ['--base-url', url], env: {} })],
    ['RSAPI_BASE_URL', (url: string) => ({ argv: [], env: { RSAPI_BASE_URL: url } })],
  ])('%s pointing elsewhere: exit 3 with a hint to log in there, nothing sent', async (_name, pointAt) => {
    const { home: own, elsewhere } = await loggedIn();
    const before = own.requests.length;
    const target = pointAt(elsewhere.url);
    const result = await runInProcess({ argv: ['reports', 'list', ...target.argv], env: { ...env, ...target.env } });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(`rsapi: the stored key of profile "default" belongs to ${own.url}; it is not sent to ${elsewhere.url}`);
    expect(result.stderr).toContain(`hint: log in there: \`rsapi auth login --base-url ${elsewhere.url}\``);
    expect(elsewhere.requests).toHaveLength(0);
    expect(own.requests.length).toBe(before);
  });

  it('config set base-url elsewhere warns, and the next command does not send the key there', async () => {
    const { elsewhere } = await loggedIn();
    const set = await runInProcess({ argv: ['config', 'set', 'base-url', elsewhere.url], env });
    expect(set.code).toBe(0);
    expect(set.stderr).toMatch(/note: the stored key belongs to .* and is not sent to/);
    const list = await runInProcess({ argv: ['reports', 'list'], env });
    expect(list.code).toBe(3);
    const status = await runInProcess({ argv: ['auth', 'status'], env });
    expect(status.code).toBe(3);
    expect(elsewhere.requests).toHaveLength(0);
  });

  it('a key given on purpose (--api-key, RSAPI_API_KEY) is sent wherever the user points it', async () => {
    const { elsewhere } = await loggedIn();
    const flag = await runInProcess({ argv: ['reports', 'list', '--base-url', elsewhere.url, '--api-key', 'explicit-key-1234'], env });
    const fromEnv = await runInProcess({ argv: ['reports', 'list'], env: { ...env, RSAPI_BASE_URL: elsewhere.url, RSAPI_API_KEY: 'env-key-5678' } });
    expect([flag.code, fromEnv.code]).toEqual([0, 0]);
    expect(elsewhere.requests.map((request) => request.headers.authorization)).toEqual(['Bearer explicit-key-1234', 'Bearer env-key-5678']);
  });

  it('a profile stored before origins were recorded belongs to its stored base URL', async () => {
    const own = await serve();
    const elsewhere = await serve();
    home.settings.store({ default: { 'base-url': `${own.url}/api/v1`, 'api-key': CANARY } });
    expect((await runInProcess({ argv: ['reports', 'list'], env })).code).toBe(0);
    expect((await runInProcess({ argv: ['reports', 'list'], env: { ...env, RSAPI_BASE_URL: elsewhere.url } })).code).toBe(3);
    expect(elsewhere.requests).toHaveLength(0);
  });
});

describe('credentials in a base URL', () => {
  it('are refused in --base-url (exit 2), never echoed', async () => {
    const server = await serve();
    const url = server.url.replace('http://', `http://user:${PASSWORD}@`);
    const result = await runInProcess({ argv: ['reports', 'list', '--base-url', url, '--api-key', CANARY], env });
    expect(result.code).toBe(2);
    expect(server.requests).toHaveLength(0);
    expectNoSecret(result, [PASSWORD, CANARY]);
  });

  it('are masked by auth status (--all too), auth switch, config get and config list when a hand-edited file holds them', async () => {
    home.settings.store({ default: { 'base-url': `http://user:${PASSWORD}@127.0.0.1:9/api/v1`, 'api-key': CANARY } });
    const runs = [
      ['auth', 'status'],
      ['auth', 'status', '--json'],
      ['auth', 'status', '--all'],
      ['auth', 'switch', 'default'],
      ['config', 'get', 'base-url'],
      ['config', 'list'],
      ['reports', 'list'],
    ];
    for (const argv of runs) {
      const result = await runInProcess({ argv, env });
      expect(result.stdout + result.stderr).not.toContain(PASSWORD);
      expect(result.stdout + result.stderr).not.toContain(CANARY);
    }
  });
});

describe('a key that cannot be sent as an HTTP header', () => {
  it.each([
    ['an escape', 'abc\u001b[2Jdef-key'],
    ['a bell', 'abcdef\u0007-key'],
    ['a DEL', 'abcdef\u007f-key'],
    ['a non-ASCII letter', 'abcdéf-key-1234'],
  ])('holding %s is refused at login, with --no-verify too (exit 2, nothing stored)', async (_name, key) => {
    const server = await serve();
    for (const verify of [[], ['--no-verify']]) {
      const result = await runInProcess({ argv: ['auth', 'login', '--with-token', '--base-url', server.url, ...verify], env, stdin: `${key}\n` });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^rsapi: the API key holds a (control character|character beyond printable ASCII); it cannot be sent in an HTTP header\n/);
      expect(result.stderr).not.toContain(key);
    }
    expect(home.settings.exists()).toBe(false);
    expect(server.requests).toHaveLength(0);
  });

  it('is refused at use, from RSAPI_API_KEY or --api-key, before any request', async () => {
    const server = await serve();
    const fromEnv = await runInProcess({ argv: ['reports', 'list', '--base-url', server.url], env: { ...env, RSAPI_API_KEY: 'abcdef\u0007ghij' } });
    const fromFlag = await runInProcess({ argv: ['reports', 'list', '--base-url', server.url, '--api-key', 'abcdef\rghij'], env });
    expect([fromEnv.code, fromFlag.code]).toEqual([2, 2]);
    expect(fromEnv.stderr).toContain('rsapi: the API key in RSAPI_API_KEY holds a control character');
    expect(fromFlag.stderr).toContain('rsapi: the API key given with --api-key holds a control character');
    expect(server.requests).toHaveLength(0);
  });
});

describe('secrets from standard input on a terminal', () => {
  it('--with-token on a terminal asks with the masked prompt instead of reading in clear', async () => {
    const server = await serve();
    const { code, screen } = await runOnTerminal(['auth', 'login', '--with-token', '--base-url', server.url], {
      env: { ...env, TERM: 'xterm-256color' },
      answers: [[/API key/, `${CANARY}\r`]],
      keepInputOpen: true,
    });
    expect(code).toBe(0);
    expect(screen).toContain('*'.repeat(CANARY.length));
    expect(screen).not.toContain(CANARY);
    expect(home.settings.read().profiles.default?.['api-key']).toBe(CANARY);
  });

  it('--password-stdin with stdin a terminal but no terminal to prompt on is refused (exit 2)', async () => {
    const server = await serve();
    const result = await runInProcess({
      argv: ['reports', 'create', 'https://e.com/', '--privacy', 'password', '--password-stdin', '--base-url', server.url, '--api-key', CANARY],
      env,
      tty: { stdin: true },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^rsapi: standard input is a terminal: the password would show as it is typed\n/);
    expect(server.requests).toHaveLength(0);
  });

  it('the first Ctrl-C while reading ids from the terminal exits 130', async () => {
    const server = await serve();
    const { code, screen } = await runOnTerminal(['reports', 'delete', '-', '--yes', '--base-url', server.url, '--api-key', CANARY], {
      env: { ...env, TERM: 'xterm-256color' },
      // Nothing is shown before the read: type once rsapi has surely started, then Ctrl-C once the echo shows.
      typeAfter: { ms: 1500, keys: '12\r' },
      answers: [[/12/, '\u0003']],
      keepInputOpen: true,
      timeoutMs: 10_000,
    });
    expect(code).toBe(130);
    expect(screen).toContain('rsapi: interrupted');
    expect(server.requests).toHaveLength(0);
  });
});

describe('a key echoed back in a form some output encodes', () => {
  // Every character an encoder of ours changes: JSON (" \), XML and HTML (< & " '), Markdown (\ < &), csv ("), tsv (\).
  const KEY = `Zq9<s3cr&t"key\\x'>`;
  /** A report whose url and a field of its own hold the Authorization header the service was sent. */
  const echoing = (request: { headers: Record<string, string | string[] | undefined> }) => {
    const echo = String(request.headers.authorization);
    return { id: 7, url: `https://e.com/${echo}`, project: 'e.com', result: 12, note: echo, generated_at: '2026-11-20T09:14:03.000000Z' };
  };

  it.each([['json'], ['ndjson'], ['csv'], ['tsv'], ['table']])('is masked in -o %s, and in the JUnit, Markdown and HTML files', async (format) => {
    const server = await startHostileServer((request) => ({ json: { data: echoing(request) } }));
    servers.push(server);
    const [junit, summary, html] = ['run.xml', 'summary.md', 'run.html'].map((name) => join(home.path, name));
    const result = await runInProcess({
      argv: ['reports', 'show', '7', '-o', format, '--fields', 'id,url,note', '--junit', junit!, '--summary', summary!, '--html', html!],
      env: { ...env, RSAPI_BASE_URL: server.url, RSAPI_API_KEY: KEY },
      tty: format === 'table',
      columns: 400,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    // The part of the key no encoder changes: in no form of the key, escaped or not, may it show.
    for (const text of [result.stdout, result.stderr, ...[junit, summary, html].map((file) => readFileSync(file!, 'utf8'))]) {
      expect(text).not.toContain('s3cr');
    }
    expect(result.stdout).toContain('***');
  });
});

describe('a key echoed in another form', () => {
  it('percent-encoded or in base64, as a hostile service may echo it: masked on stdout and stderr', async () => {
    const key = 'canary+key/Zp93=LmQ7xR41';
    const echoes = [encodeURIComponent(key), Buffer.from(key).toString('base64'), Buffer.from(key).toString('base64url')];
    const server = await serve(() => ({ json: { data: [{ id: 1, url: `https://e.com/?k=${echoes[0]}`, echo: echoes.join(' ') }], links: { next: null } } }));
    const result = await runInProcess({ argv: ['reports', 'list', '--json', '--base-url', server.url, '--api-key', key], env });
    expect(result.code).toBe(0);
    expectNoSecret(result, [key, ...echoes.map((echo) => echo.replace(/=+$/, ''))]);
  });
});

describe("a history URL's password, in the spellings people write", () => {
  const spellings = [
    { name: 'an unencoded @', url: 'postgres://team:9-vault@pass@127.0.0.1:1/seo', secrets: ['9-vault@pass', '9-vault%40pass', 'vault@pass'] },
    { name: 'an unencoded /', url: 'postgres://team:9-vault/pass@127.0.0.1:1/seo', secrets: ['9-vault/pass', 'vault/pass', '9-vault'] },
    { name: 'a leading tab', url: '\tpostgres://team:9-vault-pass@127.0.0.1:1/seo', secrets: ['9-vault-pass'] },
    { name: 'a leading blank', url: ' postgres://team:9-vault-pass@127.0.0.1:1/seo', secrets: ['9-vault-pass'] },
  ];

  it.each(spellings)('$name: never on stderr when the history cannot be used, nor in config set/list/get', async ({ url, secrets }) => {
    const server = await serve();
    const service = { '--base-url': server.url, '--api-key': CANARY };
    const list = await runInProcess({ argv: ['reports', 'list', '--record', '--history', url, '--json', '--verbose', ...Object.entries(service).flat()], env });
    expect(list.code).toBe(11);
    expect(list.stderr).toMatch(/rsapi: history: .*postgres(ql)?:\/\/(team:)?\*\*\*@127\.0\.0\.1:1\/seo/);
    expectNoSecret(list, secrets);
    const fromEnv = await runInProcess({ argv: ['reports', 'list', '--record', ...Object.entries(service).flat()], env: { ...env, RSAPI_HISTORY: url } });
    expect(fromEnv.code).toBe(11);
    expectNoSecret(fromEnv, secrets);
    for (const argv of [
      ['config', 'set', 'history', url],
      ['config', 'list'],
      ['config', 'list', '--json'],
      ['config', 'get', 'history'],
    ]) {
      const shown = await runInProcess({ argv, env });
      expect(shown.code, shown.stderr).toBe(0);
      expect(shown.stdout + shown.stderr).not.toMatch(/vault/);
    }
  });
});
