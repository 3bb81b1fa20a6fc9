// gh habits: --json FIELDS, --jq EXPR (jq compiled to WebAssembly), view = show, help topics, RSAPI_* defaults for CI.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../../helpers/run.js';
import { startMock, type MockFixture } from '../../helpers/mock.js';
import { BIN, cleanEnv, runCli } from '../../helpers/cli.js';

let mock: MockFixture;

beforeAll(async () => {
  mock = await startMock({ seed: 3 });
});
afterAll(async () => {
  await mock.close();
});

async function ok(argv: string[], env: Record<string, string> = {}, tty = false) {
  const result = await runInProcess({ argv, env: { ...mock.env, ...env }, tty });
  expect(result.code, result.stderr).toBe(0);
  return result.stdout;
}

async function refused(argv: string[], env: Record<string, string> = {}) {
  const before = mock.server.requests.length;
  const result = await runInProcess({ argv, env: { ...mock.env, ...env } });
  expect(result.code, result.stderr).toBe(2);
  expect(result.stdout).toBe('');
  expect(mock.server.requests.length).toBe(before);
  return result.stderr;
}

describe('--json FIELDS (gh form)', () => {
  it.each([
    { name: 'after the verb', argv: ['reports', 'list', '--json', 'id,url'] },
    { name: 'with =', argv: ['reports', 'list', '--json=id,url'] },
    { name: 'before the command', argv: ['--json', 'id,url', 'reports', 'list'] },
  ])('$name: same as --json --fields id,url', async ({ argv }) => {
    const records = JSON.parse(await ok(argv)) as Record<string, unknown>[];
    expect(records).toHaveLength(3);
    for (const record of records) expect(Object.keys(record)).toEqual(['id', 'url']);
  });

  it('one known field name is a field list; a command name or an id is not', async () => {
    const urls = JSON.parse(await ok(['reports', 'list', '--json', 'url'])) as Record<string, unknown>[];
    expect(Object.keys(urls[0]!)).toEqual(['url']);
    expect(JSON.parse(await ok(['--json', 'reports', 'list']))).toHaveLength(3);
    const first = (JSON.parse(await ok(['reports', 'list', '--json'])) as { id: number }[])[0]!;
    expect(JSON.parse(await ok(['reports', 'show', '--json', String(first.id)]))).toMatchObject({ id: first.id });
  });

  it('fields given twice are refused', async () => {
    expect(await refused(['reports', 'list', '--json', 'id,url', '--fields', 'score'])).toMatch(/fields are given twice/);
  });
});

describe('--jq EXPR', () => {
  it('filters the JSON output; strings are printed raw', async () => {
    const ids = JSON.parse(await ok(['reports', 'list', '--json'])) as { id: number; url: string }[];
    expect(await ok(['reports', 'list', '--jq', '.[].url'])).toBe(`${ids.map((r) => r.url).join('\n')}\n`);
    expect(await ok(['reports', 'list', '--jq', 'length'])).toBe('3\n');
    expect(JSON.parse(await ok(['reports', 'list', '--jq', '[.[] | {id}]']))).toEqual(ids.map((r) => ({ id: r.id })));
  });

  it('works on ndjson (a stream of documents), on show, and on api', async () => {
    expect((await ok(['reports', 'list', '-o', 'ndjson', '--jq', '.id'])).trim().split('\n')).toHaveLength(3);
    const id = (await ok(['reports', 'list', '--jq', '.[0].id'])).trim();
    expect(await ok(['reports', 'view', id, '--jq', '.id'])).toBe(`${id}\n`);
    expect(await ok(['api', 'GET', `/reports/${id}`, '--jq', '.data.id'])).toBe(`${id}\n`);
  });

  it('escapes control characters of raw strings on a terminal only', async () => {
    const tty = await ok(['api', 'GET', '/reports', '--jq', '"a\\u001bb"'], {}, true);
    expect(tty).toBe('a\\x1bb\n');
    const piped = await ok(['api', 'GET', '/reports', '--jq', '"a\\u001bb"']);
    expect(piped).toBe('a\u001bb\n');
  });

  it('runs in the built binary too (the bundled WebAssembly chunk)', async () => {
    const result = await runCli(['reports', 'list', '--jq', 'length'], { env: mock.env });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('3\n');
  });

  it('a syntax error is exit 2 before any request; a table or -q with --jq is refused', async () => {
    expect(await refused(['reports', 'list', '--jq', '.['])).toMatch(/^rsapi: --jq: jq: error: syntax error/);
    expect(await refused(['reports', 'list', '--jq', '.', '-o', 'csv'])).toMatch(/--jq filters JSON output; it cannot be combined with -o csv/);
    expect(await refused(['reports', 'list', '--jq', '.', '-q'])).toMatch(/cannot be combined with -q/);
  });

  it("a runtime error is exit 2 with jq's message, nothing on stdout", async () => {
    const result = await runInProcess({ argv: ['reports', 'list', '--jq', '.foo'], env: mock.env });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^rsapi: --jq: jq: error .*Cannot index array with string \(?"foo"\)?/);
  });
});

describe('score and label in json, and --jq reading a field no record has, in both dialects', () => {
  let phprank: MockFixture;
  beforeAll(async () => {
    phprank = await startMock({ flavor: 'phprank', seed: 12 });
  });
  afterAll(async () => {
    await phprank.close();
  });
  const dialects = () => [
    { name: 'seed', env: mock.env },
    { name: 'phprank', env: phprank.env },
  ];

  it('--json id,url,score (docs/output.md) gives each report the score a csv shows, and label its label', async () => {
    for (const { name, env } of dialects()) {
      const json = await runInProcess({ argv: ['reports', 'list', '--json', 'id,url,score,label', '--all'], env });
      expect(json.code, `${name}: ${json.stderr}`).toBe(0);
      expect(json.stderr, name).toBe('');
      const csv = await runInProcess({ argv: ['reports', 'list', '--fields', 'id,score,result', '--all', '-o', 'csv'], env });
      const rows = csv.stdout.trim().split('\r\n').slice(1);
      const records = JSON.parse(json.stdout) as { id: number; score: number; label: string }[];
      expect(
        records.map((r) => `${r.id},${r.score},${r.label}`),
        name,
      ).toEqual(rows);
      for (const record of records) expect(typeof record.score, name).toBe('number');
      const ndjson = await runInProcess({ argv: ['reports', 'list', '-o', 'ndjson', '--fields', 'id,score', '--all'], env });
      expect(
        ndjson.stdout
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line).score),
        name,
      ).toEqual(records.map((r) => r.score));
    }
  });

  it("--jq '.[] | select(.score < 10)': on phpRank (no score field) a warning names the field and the --json form; with it, the right reports", async () => {
    const silent = await runInProcess({ argv: ['reports', 'list', '--all', '--jq', '.[] | select(.score < 10) | .id'], env: phprank.env });
    expect(silent.code, silent.stderr).toBe(0);
    expect(silent.stderr).toBe(
      'rsapi: warning: --jq reads .score, which no record of the output has (null in every one); --json id,url,score takes score from the record model, in either dialect\n',
    );
    const csv = await runInProcess({ argv: ['reports', 'list', '--all', '--fields', 'id,score', '-o', 'csv'], env: phprank.env });
    const low = csv.stdout
      .trim()
      .split('\r\n')
      .slice(1)
      .map((row) => row.split(','))
      .filter(([, score]) => Number(score) < 50)
      .map(([id]) => `${id}\n`)
      .join('');
    expect(low).not.toBe('');
    for (const { name, env } of dialects()) {
      const right = await runInProcess({ argv: ['reports', 'list', '--all', '--json', 'id,url,score', '--jq', '.[] | select(.score < 50) | .id'], env });
      expect(right.code, name).toBe(0);
      expect(right.stderr, name).toBe('');
      if (name === 'phprank') expect(right.stdout).toBe(low);
    }
    const seedRead = await runInProcess({ argv: ['reports', 'list', '--all', '--jq', '.[] | select(.score < 10) | .id'], env: mock.env });
    expect(seedRead.stderr).toBe('');
  });
});

describe('--jq over a large document', () => {
  it('filters 3 MB in seconds (jq-wasm 1.0 copied its input a byte at a time: 473 KB took 48 s)', async () => {
    const { jqOutput } = await import('../../../src/cli/flags/jq.js');
    const written: string[] = [];
    const io = { stdout: { write: (text: string) => written.push(text) }, stdoutIsTTY: false } as never;
    const jq = await jqOutput('map(.n) | add', io);
    const items = Array.from({ length: 30_000 }, (_, n) => ({ n, url: `example.com/${'p'.repeat(80)}/${n}` }));
    const started = performance.now();
    jq.io.stdout.write(JSON.stringify(items));
    await jq.flush();
    expect(written.join('')).toBe(`${(29_999 * 30_000) / 2}\n`);
    expect(performance.now() - started).toBeLessThan(20_000);
  });

  it('Ctrl-C while jq runs ends the process at once, nothing written (jq never yields to a handler)', async () => {
    const before = mock.server.requests.length;
    const child = spawn(process.execPath, [BIN, 'reports', 'list', '--jq', 'last(range(1e12))'], { env: cleanEnv(mock.env) });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    const ended = new Promise<{ code: number | null; signal: string | null }>((resolve) => {
      child.on('close', (code, signal) => resolve({ code, signal }));
    });
    while (mock.server.requests.length === before) await new Promise((resolve) => setTimeout(resolve, 10));
    await new Promise((resolve) => setTimeout(resolve, 500));
    const interrupted = performance.now();
    child.kill('SIGINT');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    const { code, signal } = await ended;
    clearTimeout(timer);
    // Killed by the signal itself (jq was running), or exit 130 (it came while the answer was still being read).
    expect(signal === 'SIGINT' || code === 130, `code ${code}, signal ${signal}`).toBe(true);
    expect(performance.now() - interrupted).toBeLessThan(5_000);
    expect(stdout).toBe('');
  });

  it("a syntax error says jq's own lines, where in the expression, without the expression it echoes", async () => {
    const stderr = await refused(['reports', 'list', '--jq', '.x.y(']);
    expect(stderr).toMatch(/^rsapi: --jq: jq: error: syntax error, unexpected .* at <top-level>, line 1, column 5;/);
    expect(stderr.split('\n')[0]).not.toMatch(/\^/);
    expect(await refused(['reports', 'list', '--jq', '.a |\n  ]'])).toMatch(/, line 2, column 3;/);
  });

  it('the check before the request compiles the expression without running it', async () => {
    const { jqOutput } = await import('../../../src/cli/flags/jq.js');
    const io = { stdout: { write: () => true }, stdoutIsTTY: false } as never;
    await expect(jqOutput('error("ran")', io)).resolves.toHaveProperty('flush');
  });
});

describe('view, help topics', () => {
  it('reports view ID is reports show ID', async () => {
    const id = (await ok(['reports', 'list', '--jq', '.[0].id'])).trim();
    expect(await ok(['reports', 'view', id, '--json'])).toBe(await ok(['reports', 'show', id, '--json']));
  });

  it('rsapi help exit-codes and rsapi help environment print their topic; a near miss is suggested', async () => {
    expect(await ok(['help', 'exit-codes'])).toMatch(/^Exit codes:\n {2}0 +success/);
    const environment = await ok(['help', 'environment']);
    for (const name of ['RSAPI_OUTPUT', 'RSAPI_TIMEOUT', 'RSAPI_RETRIES', 'RSAPI_BASE_URL', 'HTTPS_PROXY']) expect(environment).toContain(name);
    const typo = await runInProcess({ argv: ['help', 'enviroment'] });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('did you mean "environment"?');
  });
});

describe('RSAPI_OUTPUT, RSAPI_TIMEOUT, RSAPI_RETRIES (flag > env > profile)', () => {
  it('RSAPI_OUTPUT sets the format; -o wins over it; it wins over the profile', async () => {
    expect(JSON.parse(await ok(['reports', 'list'], { RSAPI_OUTPUT: 'json' }))).toHaveLength(3);
    expect(await ok(['reports', 'list', '-o', 'csv', '--fields', 'id'], { RSAPI_OUTPUT: 'json' })).toMatch(/^id\r?\n/);
    const stored = await runInProcess({ argv: ['config', 'set', 'output', 'csv'], env: mock.env });
    expect(stored.code).toBe(0);
    try {
      expect(JSON.parse(await ok(['reports', 'list'], { RSAPI_OUTPUT: 'json' }))).toHaveLength(3);
      expect(await ok(['reports', 'list', '--fields', 'id'])).toMatch(/^id\r?\n/);
    } finally {
      await runInProcess({ argv: ['config', 'unset', 'output'], env: mock.env });
    }
  });

  it('a bad value names the variable (exit 2, nothing sent)', async () => {
    expect(await refused(['reports', 'list'], { RSAPI_OUTPUT: 'yaml' })).toMatch(/^rsapi: RSAPI_OUTPUT: output must be one of table, /);
    expect(await refused(['reports', 'list'], { RSAPI_TIMEOUT: '0' })).toMatch(/^rsapi: RSAPI_TIMEOUT: timeout must be a number of seconds/);
    expect(await refused(['reports', 'list'], { RSAPI_RETRIES: '11' })).toMatch(/^rsapi: RSAPI_RETRIES: retries must be a whole number from 0 to 10/);
  });

  it('RSAPI_RETRIES=0 gives up after one attempt; --retries wins over it', async () => {
    const failing = await startMock({ failRate: 1 });
    try {
      const once = await runInProcess({ argv: ['reports', 'list'], env: { ...failing.env, RSAPI_RETRIES: '0' } });
      expect(once.code).toBe(8);
      expect(failing.server.requests).toHaveLength(1);
      await runInProcess({ argv: ['reports', 'list', '--retries', '1'], env: { ...failing.env, RSAPI_RETRIES: '0' } });
      expect(failing.server.requests).toHaveLength(3);
    } finally {
      await failing.close();
    }
  });
});

describe('completion offers the stored profiles', () => {
  it.each(['bash', 'zsh', 'fish'])('%s: --profile and auth switch list them through `rsapi auth status --all -q`', async (shell) => {
    const script = await ok(['completion', shell]);
    expect(script.match(/rsapi auth status --all -q 2>\/dev\/null/g)?.length).toBeGreaterThanOrEqual(2);
  });

  it('auth status --all -q prints the stored names one a line, with no request', async () => {
    await runInProcess({ argv: ['config', 'set', 'timeout', '5', '--profile', 'ci'], env: mock.env });
    const before = mock.server.requests.length;
    expect((await ok(['auth', 'status', '--all', '-q'])).split('\n')).toContain('ci');
    expect(mock.server.requests.length).toBe(before);
  });
});
