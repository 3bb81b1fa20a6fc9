// The rendered documents of the verbs, held byte for byte in test/cli/__outputs__: stdout, stderr, the exit code and
// the files a run writes (JUnit, the summary, Code Quality, the HTML page by its digest). A move inside the house that
// changes one byte of what a user or a CI job reads fails here; a change meant to be seen is written with `-u`.
// Only what differs from run to run (dates, durations, ports, temp paths) is put in words before the comparison.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { mockPerTest, type MockFixture } from '../helpers/mock.js';
import { runInProcess } from '../helpers/run.js';

const mock = mockPerTest({ flavor: 'phprank', rateLimit: 0 });

interface Step {
  argv: string[];
  stdin?: string;
  tty?: boolean;
  columns?: number;
}

interface OutputCase {
  name: string;
  flavor?: 'seed' | 'phprank';
  /** Runs before the one whose output is held (a recorded run, a baseline file). */
  before?: Step[];
  step: Step;
  /** Files the run writes, by their flag's name: read after it. */
  files?: string[];
}

const URLS = 'https://example.com/\nhttps://example.com/pricing\nhttps://shop.example.org/cart\n';

const CASES: OutputCase[] = [
  { name: 'reports-list-json', step: { argv: ['reports', 'list', '--per-page', '5', '--json'] } },
  { name: 'reports-list-table-80', step: { argv: ['reports', 'list', '--limit', '6'], tty: true, columns: 80 } },
  { name: 'reports-list-table-40', step: { argv: ['reports', 'list', '--limit', '4'], tty: true, columns: 40 } },
  { name: 'reports-list-csv-all', step: { argv: ['reports', 'list', '--all', '-o', 'csv', '--sort-by', 'score', '--sort', 'asc'] } },
  { name: 'reports-list-seed-tsv', flavor: 'seed', step: { argv: ['reports', 'list', '--all', '-o', 'tsv'] } },
  { name: 'reports-list-gate-ndjson', step: { argv: ['reports', 'list', '-o', 'ndjson', '--fail-on', 'bad', '--min-score', '40'] } },
  {
    name: 'reports-list-ci-files',
    step: {
      argv: [
        'reports',
        'list',
        '--min-score',
        '50',
        '--fail-on-check',
        'title',
        '--junit',
        '{junit}',
        '--summary',
        '{summary}',
        '--codequality',
        '{codequality}',
        '--html',
        '{html}',
        '-q',
      ],
    },
    files: ['junit', 'summary', 'codequality', 'html'],
  },
  { name: 'reports-list-per-check', step: { argv: ['reports', 'list', '--limit', '3', '-o', 'csv', '--per-check'] } },
  { name: 'reports-list-failing-check', step: { argv: ['reports', 'list', '--failing-check', 'title', '--json', '--fields', 'id,url,score'] } },
  {
    name: 'reports-list-baseline-last',
    before: [
      { argv: ['reports', 'list', '--all', '--record', '--history', '{history}', '-q'] },
      { argv: ['reports', 'create', 'https://example.com/new', '-q'] },
    ],
    step: { argv: ['reports', 'list', '--all', '--record', '--history', '{history}', '--baseline', 'last', '--max-drop', '0', '--summary', '{summary}', '-q'] },
    files: ['summary'],
  },
  { name: 'reports-show', step: { argv: ['reports', 'show', '1'] } },
  { name: 'reports-show-table', step: { argv: ['reports', 'show', '2'], tty: true, columns: 80 } },
  { name: 'reports-stats', step: { argv: ['reports', 'stats'] } },
  { name: 'reports-stats-checks-json', step: { argv: ['reports', 'stats', '--checks', '--json'] } },
  { name: 'reports-create-two', step: { argv: ['reports', 'create', 'https://example.com/a', 'https://example.com/b', '--json'] } },
  { name: 'reports-create-one', step: { argv: ['reports', 'create', 'https://example.com/one'] } },
  {
    name: 'reports-create-file-gate',
    step: { argv: ['reports', 'create', '--from-file', '-', '-o', 'ndjson', '--fail-on', 'bad', '--junit', '{junit}'], stdin: URLS },
    files: ['junit'],
  },
  { name: 'reports-create-dry-run', step: { argv: ['reports', 'create', '--from-file', '-', '--dry-run', '--shard', '1/2'], stdin: `${URLS}not a url\n` } },
  { name: 'reports-create-empty-gate', step: { argv: ['reports', 'create', '--from-file', '-', '--fail-on', 'bad', '--json'], stdin: '' } },
  { name: 'projects-list', step: { argv: ['projects', 'list'] } },
  ...['diff', 'runs', 'trend'].map((verb) => ({
    name: `history-${verb}`,
    before: [
      { argv: ['reports', 'list', '--all', '--record', '--history', '{history}', '-q'] },
      { argv: ['reports', 'create', 'https://example.com/new-page', '-q'] },
      { argv: ['reports', 'delete', '3', '--yes', '-q'] },
      { argv: ['reports', 'list', '--all', '--record', '--history', '{history}', '-q'] },
    ],
    step: { argv: ['history', verb, ...(verb === 'diff' ? ['1', '2'] : verb === 'trend' ? ['https://example.com/'] : []), '--history', '{history}'] },
  })),
];

describe('the rendered documents of the verbs, byte for byte', () => {
  it.each(CASES)('$name', async (row) => {
    const fixture = await mock(row.flavor ? { flavor: row.flavor } : {});
    const scratch = tempDir('rsapi-outputs-');
    try {
      const paths: Record<string, string> = {
        junit: join(scratch.path, 'junit.xml'),
        summary: join(scratch.path, 'summary.md'),
        codequality: join(scratch.path, 'codequality.json'),
        html: join(scratch.path, 'run.html'),
        history: join(scratch.path, 'history.db'),
      };
      const argvOf = (step: Step) => step.argv.map((word) => word.replace(/^\{(\w+)\}$/, (_, name: string) => paths[name] ?? word));
      const run = (step: Step) => runInProcess({ argv: argvOf(step), env: fixture.env, stdin: step.stdin, tty: step.tty, columns: step.columns });
      for (const step of row.before ?? []) {
        const earlier = await run(step);
        expect(earlier.code, earlier.stderr).toBe(0);
      }
      // The summary of a run is appended: only the held run's is compared.
      if (existsSync(paths.summary as string)) writeFileSync(paths.summary as string, '');
      const result = await run(row.step);
      const parts = [`exit ${result.code}`, '--- stdout', result.stdout, '--- stderr', result.stderr];
      for (const name of row.files ?? []) {
        const text = readFileSync(paths[name] as string, 'utf8');
        parts.push(
          `--- ${name}`,
          name === 'html'
            ? `sha256 ${createHash('sha256')
                .update(steady(text, fixture, scratch.path))
                .digest('hex')}`
            : text,
        );
      }
      await expect(steady(parts.join('\n'), fixture, scratch.path)).toMatchFileSnapshot(`__outputs__/${row.name}.txt`);
    } finally {
      scratch.cleanup();
    }
  });
});

/** What differs from run to run, in words: the service's address, the temp folder, dates and durations. */
function steady(text: string, fixture: MockFixture, folder: string): string {
  return text
    .replaceAll(fixture.server.url, '<service>')
    .replaceAll(fixture.server.url.replace(/^https?:\/\//, ''), '<service-host>')
    .replaceAll(folder, '<tmp>')
    .replace(/\d{4}-\d\d-\d\d[T ]\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)?/g, '<date>')
    .replace(/\b1[6-9]\d{11}\b/g, '<epoch-ms>')
    .replace(/time="[\d.]+"/g, 'time="<s>"')
    .replace(/\b\d+(\.\d+)? ?(ms|s)\b/g, '<duration>');
}
