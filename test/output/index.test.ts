// json and ndjson output: records passed through as received, --fields, buffering and streaming.
process.env.TZ = 'UTC';
import { describe, expect, it } from 'vitest';
import { createListWriter, writeRecord, type OutputOptions, OUTPUT_FORMATS, type OutputFormat, type RecordKind } from '../../src/output/index.js';
import { BufferSink, writeList } from './buffer-sink.js';
import { StatsCollector } from '../../src/output/stats/report-stats.js';

const report = {
  id: 12,
  url: 'https://example.com/?a=1,b="2"',
  project: 'example.com',
  result: 'decent',
  score: '71',
  privacy: 0,
  generated_at: '2026-11-20T09:14:03.000000Z',
  extra: { nested: [1, null, 'x'] },
  note: null,
};
const other = { id: '13', url: 'https://example.org/', unknown_flag: true };

function options(format: OutputOptions['format'], fields?: string[]): OutputOptions {
  return { format, kind: 'report', color: true, ...(fields ? { fields } : {}) };
}

describe('json list', () => {
  it('writes nothing before end(), then one pretty array with a trailing newline', async () => {
    const out = new BufferSink();
    const writer = createListWriter(out, options('json'));
    await writer.write(report);
    await writer.write(other);
    expect(out.chunks).toEqual([]);
    await writer.end();
    expect(out.text).toBe(`${JSON.stringify([report, other], null, 2)}\n`);
    expect(JSON.parse(out.text)).toEqual([report, other]);
  });

  it('keeps unknown fields, their values and the key order untouched', async () => {
    const out = await writeList([report], options('json'));
    const [parsed] = JSON.parse(out.text) as Record<string, unknown>[];
    expect(Object.keys(parsed ?? {})).toEqual(Object.keys(report));
    expect(parsed?.score).toBe('71');
    expect(parsed?.extra).toEqual({ nested: [1, null, 'x'] });
    expect(parsed?.generated_at).toBe('2026-11-20T09:14:03.000000Z');
  });

  it('keeps only --fields, in order, unknown names as null; score read by the record model (a number)', async () => {
    const out = await writeList([report, other], options('json', ['score', 'missing', 'id']));
    const parsed = JSON.parse(out.text) as Record<string, unknown>[];
    expect(parsed).toEqual([
      { score: 71, missing: null, id: 12 },
      { score: null, missing: null, id: '13' },
    ]);
    expect(Object.keys(parsed[0] ?? {})).toEqual(['score', 'missing', 'id']);
  });

  it('prints an empty array for no records', async () => {
    const out = await writeList([], options('json'));
    expect(out.text).toBe('[]\n');
  });
});

describe('json record', () => {
  it('writes one pretty object', async () => {
    const out = new BufferSink();
    await writeRecord(out, report, options('json'));
    expect(out.text).toBe(`${JSON.stringify(report, null, 2)}\n`);
  });
  it('applies --fields', async () => {
    const out = new BufferSink();
    await writeRecord(out, report, options('json', ['url', 'nope']));
    expect(JSON.parse(out.text)).toEqual({ url: report.url, nope: null });
  });
});

describe('ndjson', () => {
  it('writes one compact line per record as it arrives', async () => {
    const out = new BufferSink();
    const writer = createListWriter(out, options('ndjson'));
    await writer.write(report);
    expect(out.text).toBe(`${JSON.stringify(report)}\n`);
    await writer.write({ ...other, text: 'two\nlines' });
    await writer.end();
    const lines = out.text.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe('');
    expect(JSON.parse(lines[0] ?? '')).toEqual(report);
    expect(JSON.parse(lines[1] ?? '')).toEqual({ ...other, text: 'two\nlines' });
  });

  it('applies --fields', async () => {
    const out = await writeList([report], options('ndjson', ['id', 'x']));
    expect(out.text).toBe('{"id":12,"x":null}\n');
  });

  it('writes nothing for no records', async () => {
    const out = await writeList([], options('ndjson'));
    expect(out.text).toBe('');
  });

  it('writes one line for a single record', async () => {
    const out = new BufferSink();
    await writeRecord(out, other, options('ndjson'));
    expect(out.text).toBe(`${JSON.stringify(other)}\n`);
  });
});

// -q: only identifiers, one a line, whatever the format.
describe('-q', () => {
  const reports = [{ id: 12, url: 'a' }, { url: 'no id' }, { id: '13', project: 'p' }];
  const projects = [
    { project: 'example.com', id: 1 },
    { project: 'b.org', reports_count: 2 },
  ];

  describe.each(OUTPUT_FORMATS.map((format) => ({ format })))('quiet with $format', ({ format }: { format: OutputFormat }) => {
    const options = (kind: RecordKind) => ({ format, kind, quiet: true, color: true, fields: ['url'] });

    it('lists report ids, skipping records without one', async () => {
      const out = await writeList(reports, options('report'));
      expect(out.text).toBe('12\n13\n');
    });

    it('lists project names', async () => {
      const out = await writeList(projects, options('project'));
      expect(out.text).toBe('example.com\nb.org\n');
    });

    it('prints the id of a single record', async () => {
      const out = new BufferSink();
      await writeRecord(out, { id: 99, url: 'x' }, options('report'));
      expect(out.text).toBe('99\n');
    });
  });
});

// The renderers read records through the record model: the same rows from a seed-dialect and a phpRank report, json/ndjson untouched, projects with their reports and average.
describe('The renderers read records through the record model', () => {
  /** One report in each dialect: phpRank sends the score as `result` (after an update an unrounded float) and no `score`. */
  const SEED = {
    id: 7,
    url: 'example.com/a',
    project: 'example.com',
    result: 'decent',
    score: 79,
    privacy: 0,
    generated_at: '2026-11-20T09:00:00.000000Z',
  };
  const PHPRANK = {
    id: 7,
    url: 'example.com/a',
    project: 'example.com',
    result: 78.57142857142857,
    privacy: 0,
    generated_at: '2026-11-20T09:00:00.000000Z',
    status: 200,
  };

  const options = (format: OutputFormat, extra: Partial<OutputOptions> = {}): OutputOptions => ({ format, kind: 'report', color: false, ...extra });

  async function render(records: Record<string, unknown>[], opts: OutputOptions): Promise<string> {
    return (await writeList(records, opts)).text;
  }

  describe('reports through the record model', () => {
    it.each(['table', 'csv', 'tsv'] as const)('%s shows a phpRank report as it shows the same report in the seed dialect', async (format) => {
      const seed = await render([SEED], options(format));
      const phprank = await render([PHPRANK], options(format));
      expect(phprank).toBe(seed);
      expect(phprank).toContain('decent');
    });

    it('the table shows a float score to one decimal; csv and tsv keep the number exact; phpRank reads its float as stored', async () => {
      const float = { ...SEED, score: 78.57142857142857 };
      expect(await render([float], options('table', { fields: ['id', 'result', 'score'] }))).toBe('id  result  score\n7   decent  78.6\n');
      expect(await render([float], options('csv', { fields: ['result', 'score'] }))).toBe('result,score\r\ndecent,78.57142857142857\r\n');
      expect(await render([float], options('tsv', { fields: ['result', 'score'] }))).toBe('decent\t78.57142857142857\n');
      expect(await render([PHPRANK], options('tsv', { fields: ['result', 'score'] }))).toBe('decent\t79\n');
    });

    it('reads numeric strings and the thresholds as phpRank does (good > 79, decent 49-79, bad < 49)', async () => {
      const records = [{ result: '80' }, { result: 79 }, { result: '49' }, { result: 48.4 }].map((r, i) => ({ id: i, ...r }));
      expect(await render(records, options('tsv', { fields: ['id', 'result', 'score'] }))).toBe('0\tgood\t80\n1\tdecent\t79\n2\tdecent\t49\n3\tbad\t48\n');
    });

    it('one record (reports show) in a table shows the label and the score', async () => {
      const out = new BufferSink();
      await writeRecord(out, PHPRANK, options('table', { fields: ['result', 'score'] }));
      expect(out.text).toBe('result  decent\nscore   79\n');
    });

    it.each(['json', 'ndjson'] as const)('%s passes the record through as the service sent it', async (format) => {
      const text = await render([PHPRANK], options(format));
      const parsed: unknown = format === 'json' ? JSON.parse(text) : [JSON.parse(text)];
      expect(parsed).toEqual([PHPRANK]);
      const one = new BufferSink();
      await writeRecord(one, PHPRANK, options(format));
      expect(JSON.parse(one.text)).toEqual(PHPRANK);
    });

    it('-q prints the ids, whatever the dialect', async () => {
      expect(await render([PHPRANK, { ...SEED, id: 8 }], options('table', { quiet: true }))).toBe('7\n8\n');
    });

    it('a result that is neither a label nor a number is shown as sent, with no score made up', async () => {
      expect(await render([{ id: 1, result: 'pending' }], options('csv', { fields: ['result', 'score'] }))).toBe('result,score\r\npending,\r\n');
    });
  });

  describe('projects through the model', () => {
    const projectOptions = (format: OutputFormat, extra: Partial<OutputOptions> = {}) => options(format, { kind: 'project', ...extra });
    /** phpRank's project: the count, and the SUM of scores as a string. */
    const PHPRANK_PROJECTS = [
      { project: 'example.com', created_at: '2026-11-20T09:00:00.000000Z', reports: 3, result: '235' },
      { project: 'shop.example.org', created_at: '2026-11-21T10:30:00.000000Z', reports: '2', result: 157.14285714285714 },
    ];

    it('phpRank rows show project, reports, average (sum over count, one decimal) and created_at', async () => {
      expect(await render(PHPRANK_PROJECTS, projectOptions('table'))).toBe(
        [
          'project           reports  average  created_at',
          'example.com       3        78.3     2026-11-20 09:00:00',
          'shop.example.org  2        78.6     2026-11-21 10:30:00',
          '',
        ].join('\n'),
      );
      expect(await render(PHPRANK_PROJECTS, projectOptions('csv'))).toBe(
        'project,reports,average,created_at\r\nexample.com,3,78.3,2026-11-20T09:00:00.000000Z\r\nshop.example.org,2,78.6,2026-11-21T10:30:00.000000Z\r\n',
      );
    });

    it('a project with no reports has no average rather than a division by zero', async () => {
      expect(await render([{ project: 'a.test', reports: 0, result: '0', created_at: null }], projectOptions('tsv'))).toBe('a.test\t0\t\t\n');
    });

    it('a seed-dialect project shows as before', async () => {
      expect(await render([{ project: 'a.test', created_at: null, reports_count: 4 }], projectOptions('tsv'))).toBe('a.test\t\t4\n');
    });

    it('json keeps phpRank projects as sent (no average added)', async () => {
      expect(JSON.parse(await render(PHPRANK_PROJECTS, projectOptions('json')))).toEqual(PHPRANK_PROJECTS);
    });

    it('fits 80 columns with long project names', async () => {
      const long = [{ project: 'a-rather-long-subdomain.of-an-example-company.co.uk', created_at: '2026-11-20T09:00:00Z', reports: 120, result: '9000.5' }];
      const text = await render([...long, ...PHPRANK_PROJECTS], projectOptions('table', { width: 80 }));
      for (const line of text.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
      expect(text).toContain('75');
    });
  });

  describe('stats through the model', () => {
    it('count labels and score figures of phpRank reports as of the same seed reports', () => {
      const scores = [95, 80, 79, 49, 48, 12, 79];
      const label = (score: number) => (score > 79 ? 'good' : score >= 49 ? 'decent' : 'bad');
      const collect = (records: Record<string, unknown>[]) => {
        const stats = new StatsCollector(true);
        for (const record of records) stats.add(record);
        return { total: stats.total(), perProject: stats.perProject() };
      };
      const seed = collect(scores.map((score, i) => ({ project: `p${i % 2}`, result: label(score), score })));
      const phprank = collect(scores.map((score, i) => ({ project: `p${i % 2}`, result: i % 2 ? String(score) : score })));
      expect(phprank).toEqual(seed);
      expect(phprank.total).toMatchObject({ reports: 7, good: 2, decent: 3, bad: 2, other: 0, scored: 7, min: 12, max: 95 });
    });
  });
});
