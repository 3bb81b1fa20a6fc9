// Each reports/projects command and flag, checked by the request the mock service received and by the output.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../../../helpers/run.js';
import { startMock, type MockFixture } from '../../../helpers/mock.js';
import type { RecordedRequest } from '../../../../src/mock/server.js';

let mock: MockFixture;

beforeAll(async () => {
  mock = await startMock();
});
afterAll(async () => {
  await mock.close();
});

/** Runs the command and returns the requests it made. */
async function requestsOf(args: string[], input?: string) {
  const before = mock.server.requests.length;
  const result = await runInProcess({ argv: args, env: mock.env, stdin: input });
  return { result, requests: mock.server.requests.slice(before) };
}

const listCases: { name: string; args: string[]; query: Record<string, string> }[] = [
  { name: 'no flags sends no parameters', args: [], query: {} },
  { name: '--search', args: ['--search', 'pricing'], query: { search: 'pricing' } },
  { name: '--search-by', args: ['--search', 'x', '--search-by', 'url'], query: { search: 'x', search_by: 'url' } },
  { name: '--project', args: ['--project', 'example.com'], query: { project: 'example.com' } },
  { name: '--result', args: ['--result', 'decent'], query: { result: 'decent' } },
  { name: '--sort-by and --sort', args: ['--sort-by', 'score', '--sort', 'asc'], query: { sort_by: 'score', sort: 'asc' } },
  { name: '--per-page', args: ['--per-page', '25'], query: { per_page: '25' } },
  { name: '--page', args: ['--page', '3'], query: { page: '3' } },
];

describe('reports list', () => {
  it.each(listCases)('$name', async ({ args, query }) => {
    const { result, requests } = await requestsOf(['reports', 'list', ...args]);
    expect(result.code, result.stderr).toBe(0);
    expect(requests).toHaveLength(1);
    const request = requests[0] as RecordedRequest;
    expect(request.method).toBe('GET');
    expect(request.path).toBe('/api/v1/reports');
    expect(request.query).toEqual(query);
  });

  it('sends the contract headers', async () => {
    const { requests } = await requestsOf(['reports', 'list']);
    const headers = (requests[0] as RecordedRequest).headers;
    expect(headers.authorization).toBe(`Bearer ${mock.server.apiKey}`);
    expect(headers.accept).toBe('application/json');
    expect(headers['user-agent']).toMatch(/^rsapi\/\d+\.\d+\.\d+/);
  });

  it('filters for real: every record has the asked result and project', async () => {
    const { result } = await requestsOf(['reports', 'list', '--result', 'bad', '--project', 'example.com', '--all', '-o', 'json']);
    const records = JSON.parse(result.stdout) as { result: string; project: string }[];
    expect(records.length).toBeGreaterThan(0);
    for (const record of records) expect(record).toMatchObject({ result: 'bad', project: 'example.com' });
  });

  it('--all follows every page of a length-aware list', async () => {
    const { result, requests } = await requestsOf(['reports', 'list', '--all', '--per-page', '25', '-o', 'json']);
    const ids = (JSON.parse(result.stdout) as { id: number }[]).map((r) => r.id);
    expect(new Set(ids).size).toBe(mock.server.reports().length);
    expect(requests).toHaveLength(Math.ceil(mock.server.reports().length / 25));
  });

  it('--limit stops after N records without fetching pages it does not need', async () => {
    const { result, requests } = await requestsOf(['reports', 'list', '--limit', '15', '--per-page', '10', '-o', 'ndjson']);
    expect(result.stdout.trim().split('\n')).toHaveLength(15);
    expect(requests.map((r) => r.query.page)).toEqual([undefined, '2']);
  });
});

describe('reports show, update, create, delete', () => {
  it('show fetches one report by id', async () => {
    const { result, requests } = await requestsOf(['reports', 'show', '7', '--json']);
    expect(result.code).toBe(0);
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/v1/reports/7']);
    expect(JSON.parse(result.stdout)).toMatchObject({ id: 7 });
  });

  it('show rejects an id that cannot be one before any request', async () => {
    const { result, requests } = await requestsOf(['reports', 'show', '7;rm']);
    expect(result.code).toBe(2);
    expect(requests).toHaveLength(0);
  });

  it('update sends only the fields given, privacy by name', async () => {
    const { result, requests } = await requestsOf(['reports', 'update', '8', '--privacy', 'private', '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(requests[0]).toMatchObject({ method: 'PATCH', path: '/api/v1/reports/8', form: { privacy: '1' } });
    expect(JSON.parse(result.stdout)).toMatchObject({ id: 8, privacy: 1 });
  });

  it('update --refresh reads the report, then sends update=1 and results=1; no warning when generated_at moved', async () => {
    const { result, requests } = await requestsOf(['reports', 'update', '8', '--refresh']);
    expect(result.code, result.stderr).toBe(0);
    expect(requests.map((request) => request.method)).toEqual(['GET', 'PATCH']);
    expect(requests[1]?.form).toEqual({ update: '1', results: '1' });
    expect(result.stderr).toBe('');
  });

  it('update with a password from stdin sends privacy 2 and the password', async () => {
    const { result, requests } = await requestsOf(['reports', 'update', '8', '--privacy', 'password', '--password-stdin'], 's3cret-pass\n');
    expect(result.code, result.stderr).toBe(0);
    expect(requests[0]?.form).toEqual({ privacy: '2', password: 's3cret-pass' });
    expect(result.stdout + result.stderr).not.toContain('s3cret-pass');
  });

  it('a password without privacy password is a usage error, nothing sent', async () => {
    const { result, requests } = await requestsOf(['reports', 'update', '8', '--password-stdin'], 'pw-12345\n');
    expect(result.code).toBe(2);
    expect(requests).toHaveLength(0);
  });

  it('create sends the URL form-encoded and prints the new report', async () => {
    const url = 'https://create-one.example.com/page?a=1&b=2';
    const { result, requests } = await requestsOf(['reports', 'create', url, '--privacy', '1', '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(requests[0]).toMatchObject({ method: 'POST', path: '/api/v1/reports', form: { url, privacy: '1' } });
    expect(requests[0]?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    const report = JSON.parse(result.stdout) as { id: number; url: string };
    expect(report.url).toBe(url);
    expect(mock.server.reports().filter((r) => r.url === url)).toHaveLength(1);
  });

  it('create with one bad URL among good ones sends nothing and names the bad line', async () => {
    const { result, requests } = await requestsOf(['reports', 'create', 'https://ok.example.com/', 'ftp://nope.example.com/', 'not a url']);
    expect(result.code).toBe(2);
    expect(requests).toHaveLength(0);
    expect(result.stderr).toMatch(/argument 2: "ftp:\/\/nope.example.com\/"/);
    expect(result.stderr).toMatch(/argument 3: "not a url"/);
  });

  it('delete without a terminal and without --yes refuses and deletes nothing', async () => {
    const { result, requests } = await requestsOf(['reports', 'delete', '9']);
    expect(result.code).toBe(2);
    expect(requests).toHaveLength(0);
    expect(mock.server.reports().some((r) => r.id === 9)).toBe(true);
  });

  it('delete --yes deletes', async () => {
    const { result, requests } = await requestsOf(['reports', 'delete', '10', '--yes']);
    expect(result.code, result.stderr).toBe(0);
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(['DELETE /api/v1/reports/10']);
    expect(mock.server.reports().some((r) => r.id === 10)).toBe(false);
  });
});

describe('projects', () => {
  it('list maps every flag', async () => {
    const { result, requests } = await requestsOf([
      'projects',
      'list',
      '--search',
      'example',
      '--search-by',
      'project',
      '--sort-by',
      'project',
      '--sort',
      'asc',
      '--per-page',
      '50',
      '-o',
      'json',
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(requests[0]?.query).toEqual({ search: 'example', search_by: 'project', sort_by: 'project', sort: 'asc', per_page: '50' });
    const names = (JSON.parse(result.stdout) as { project: string }[]).map((p) => p.project);
    expect(names).toEqual([...names].sort());
  });

  it('delete percent-encodes the name as one path segment', async () => {
    const url = 'https://odd-name.example.com/';
    await requestsOf(['reports', 'create', url]);
    const { result, requests } = await requestsOf(['projects', 'delete', 'odd-name.example.com', '--yes']);
    expect(result.code, result.stderr).toBe(0);
    expect(requests[0]).toMatchObject({ method: 'DELETE', path: '/api/v1/projects/odd-name.example.com' });
    const weird = await requestsOf(['projects', 'delete', 'a b/c', '--yes']);
    expect(weird.requests[0]?.path).toBe('/api/v1/projects/a%20b%2Fc');
    expect(weird.result.code).toBe(4);
  });

  it('an empty name or a path step (. or ..) anywhere in the batch is refused before any request', async () => {
    for (const name of ['..', '.', '']) {
      const { result, requests } = await requestsOf(['projects', 'delete', 'example.com', name, '--yes']);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/is not a project name/);
      expect(requests).toHaveLength(0);
    }
  });
});
