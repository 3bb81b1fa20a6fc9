// An empty flag value (an unset shell variable) is refused before any request, on every command: it would widen a filter.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../../helpers/run.js';
import { startMock, type MockFixture } from '../../helpers/mock.js';
import { tempDir } from '../../helpers/cli.js';

let mock: MockFixture;
const dir = tempDir('rsapi-empty-');

beforeAll(async () => {
  mock = await startMock();
});
afterAll(async () => {
  await mock.close();
  dir.cleanup();
});

const rows: { name: string; argv: string[]; flag: string }[] = [
  { name: 'reports list --project', argv: ['reports', 'list', '--project', '', '--fail-on', 'bad'], flag: '--project' },
  { name: 'reports list --search (spaces only)', argv: ['reports', 'list', '--search', '  '], flag: '--search' },
  { name: 'reports stats --project', argv: ['reports', 'stats', '--project', ''], flag: '--project' },
  { name: 'reports stats --search', argv: ['reports', 'stats', '--search', ''], flag: '--search' },
  { name: 'global --fields', argv: ['reports', 'list', '--fields', ''], flag: '--fields' },
  { name: 'global --fields before the command', argv: ['--fields', '', 'reports', 'list'], flag: '--fields' },
  { name: 'reports list --baseline', argv: ['reports', 'list', '--baseline', ''], flag: '--baseline' },
  { name: 'reports show --junit', argv: ['reports', 'show', '1', '--junit', ''], flag: '--junit' },
  { name: 'reports list --summary', argv: ['reports', 'list', '--summary', ''], flag: '--summary' },
  { name: 'reports create --journal', argv: ['reports', 'create', 'https://example.com/', '--journal', ''], flag: '--journal' },
  { name: 'reports create --from-file', argv: ['reports', 'create', '--from-file', ''], flag: '--from-file' },
  { name: 'projects list --search', argv: ['projects', 'list', '--search', ''], flag: '--search' },
  { name: 'projects delete --concurrency', argv: ['projects', 'delete', 'x', '--yes', '--concurrency', ''], flag: '--concurrency' },
  { name: 'reports delete --concurrency', argv: ['reports', 'delete', '1', '--yes', '--concurrency', ''], flag: '--concurrency' },
  { name: 'global --profile', argv: ['reports', 'list', '--profile', ''], flag: '--profile' },
  { name: 'global --base-url (as before)', argv: ['--base-url', '', 'reports', 'list'], flag: '--base-url' },
];

describe('an empty flag value is refused, naming the flag (exit 2, nothing sent)', () => {
  it.each(rows)('$name', async ({ argv, flag }) => {
    const before = mock.server.requests.length;
    const result = await runInProcess({ argv, env: { ...mock.env, HOME: dir.path } });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`rsapi: ${flag} is empty\nhint: is the shell variable you meant to pass set?\n`);
    expect(mock.server.requests.length).toBe(before);
  });

  it('a non-empty value of the same flag still works', async () => {
    const result = await runInProcess({ argv: ['reports', 'list', '--project', 'nonexistent.example', '--json'], env: mock.env });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([]);
  });
});
