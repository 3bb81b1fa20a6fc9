// table output: columns, display transforms, colour on and off, vertical single-record tables.
process.env.TZ = 'Asia/Kolkata'; // UTC+05:30, no daylight saving: local times below are fixed.

import { describe, expect, it } from 'vitest';
import { createListWriter, writeRecord, type OutputOptions } from '../../../src/output/index.js';
import { displayWidth, truncateToWidth } from '../../../src/output/table/width.js';
import { BufferSink } from '../buffer-sink.js';

const ANSI = /\u001b\[/;
const stripAnsi = (text: string): string => text.replace(/\u001b\[[0-9;]*m/g, '');

const reports = [
  { id: 1, url: 'https://good.example/', project: 'p1', result: 'good', score: 95, privacy: 0, generated_at: '2026-11-20T09:14:03.000000Z', extra: 'hidden' },
  { id: '2', url: 'https://decent.example/', project: 'p2', result: 'decent', score: '71', privacy: '1', generated_at: null },
  { id: 3, url: 'https://bad.example/', result: 'bad', privacy: 2, generated_at: '2026-01-01T00:00:00Z' },
];

const options = (color: boolean, extra: Partial<OutputOptions> = {}): OutputOptions => ({ format: 'table', kind: 'report', color, ...extra });

async function renderList(records: Record<string, unknown>[], opts: OutputOptions): Promise<BufferSink> {
  const out = new BufferSink();
  const writer = createListWriter(out, opts);
  for (const record of records) await writer.write(record);
  expect(out.text).toBe(''); // a table is drawn at end()
  await writer.end();
  return out;
}

/** The cells of every line, trimmed: columns start where the header's names start (cells are left-aligned, ASCII here). */
function rows(text: string): string[][] {
  const lines = stripAnsi(text)
    .split('\n')
    .filter((line) => line !== '');
  const header = lines[0] ?? '';
  const starts = [...header.matchAll(/\S+/g)].map((match) => match.index);
  return lines.map((line) => starts.map((start, i) => line.slice(start, starts[i + 1]).trim()));
}

/** The cells of a field/value table: the name, then the rest of the line. */
function recordRows(text: string): string[][] {
  return stripAnsi(text)
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const [, name = '', value = ''] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
      return [name, value];
    });
}

describe('table list', () => {
  it('shows the default report columns with display transforms', async () => {
    const out = await renderList(reports, options(false));
    expect(rows(out.text)).toEqual([
      ['id', 'url', 'project', 'result', 'score', 'privacy', 'generated_at'],
      ['1', 'https://good.example/', 'p1', 'good', '95', 'public', '2026-11-20 14:44:03'],
      ['2', 'https://decent.example/', 'p2', 'decent', '71', 'private', ''],
      ['3', 'https://bad.example/', '', 'bad', '', 'password', '2026-01-01 05:30:00'],
    ]);
    expect(out.text).not.toContain('hidden');
    expect(out.text.endsWith('\n')).toBe(true);
  });

  it('has no colour code at all when colour is off', async () => {
    const out = await renderList(reports, options(false));
    expect(out.text).not.toMatch(ANSI);
  });

  it('colours results green, yellow and red when colour is on', async () => {
    const out = await renderList(reports, options(true));
    expect(out.text).toContain('\u001b[32mgood\u001b[39m');
    expect(out.text).toContain('\u001b[33mdecent\u001b[39m');
    expect(out.text).toContain('\u001b[31mbad\u001b[39m');
    expect(rows(out.text)[1]).toEqual(['1', 'https://good.example/', 'p1', 'good', '95', 'public', '2026-11-20 14:44:03']);
  });

  it('leaves an unknown result plain even with colour', async () => {
    const out = await renderList([{ id: 1, result: 'pending' }], options(true, { fields: ['result'] }));
    expect(out.text).toBe('\u001b[1mresult\u001b[22m\npending\n');
  });

  it('follows --fields, with unknown fields, objects as JSON and any ISO date-time converted', async () => {
    const records = [{ id: 1, extra: { a: [1] }, seen: '2026-11-20T09:14:03Z', score: '0' }];
    const out = await renderList(records, options(false, { fields: ['seen', 'nope', 'extra', 'score'] }));
    expect(rows(out.text)).toEqual([
      ['seen', 'nope', 'extra', 'score'],
      ['2026-11-20 14:44:03', '', '{"a":[1]}', '0'],
    ]);
  });

  it('shows project columns with the counts of the first record', async () => {
    const projects = [
      { project: 'example.com', created_at: '2026-11-20T09:14:03Z', reports_count: '4', id: 9 },
      { project: 'b.org', created_at: null, reports_count: 0 },
    ];
    const out = await renderList(projects, options(false, { kind: 'project' }));
    expect(rows(out.text)).toEqual([
      ['project', 'created_at', 'reports_count'],
      ['example.com', '2026-11-20 14:44:03', '4'],
      ['b.org', '', '0'],
    ]);
  });

  it('prints nothing for an empty list (the caller hints on stderr)', async () => {
    const out = await renderList([], options(true));
    expect(out.chunks).toEqual([]);
  });

  it('cannot be driven by escape sequences in the data', async () => {
    const out = await renderList([{ id: 1, url: 'https://x/\u001b[2J\nnext' }], options(false));
    expect(out.text).not.toMatch(ANSI);
    expect(out.text).toContain('https://x/\\x1b[2J\\nnext');
  });
});

describe('table record', () => {
  const record = { id: 12, url: 'https://e.com/', privacy: '2', result: 'bad', updated_at: '2026-11-20T09:14:03.000000Z', extra: [1, 2] };

  it('shows every field as a field | value row', async () => {
    const out = new BufferSink();
    await writeRecord(out, record, options(false));
    expect(recordRows(out.text)).toEqual([
      ['id', '12'],
      ['url', 'https://e.com/'],
      ['privacy', 'password'],
      ['result', 'bad'],
      ['updated_at', '2026-11-20 14:44:03'],
      ['extra', '[1,2]'],
    ]);
    expect(out.text).not.toMatch(ANSI);
  });

  it('shows only --fields, in order, and colours the result when colour is on', async () => {
    const out = new BufferSink();
    await writeRecord(out, record, options(true, { fields: ['result', 'missing', 'id'] }));
    expect(recordRows(out.text)).toEqual([
      ['result', 'bad'],
      ['missing', ''],
      ['id', '12'],
    ]);
    expect(out.text).toContain('\u001b[31mbad\u001b[39m');
  });

  it('prints nothing for a record without fields', async () => {
    const out = new BufferSink();
    await writeRecord(out, {}, options(false));
    expect(out.text).toBe('');
  });
});

describe('display width', () => {
  it('counts wide East Asian characters and emoji as two columns, combining marks as none', () => {
    expect(displayWidth('https://a.example/')).toBe(18);
    expect(displayWidth('日本語')).toBe(6);
    expect(displayWidth('한국')).toBe(4);
    expect(displayWidth('ｆｕｌｌ')).toBe(8);
    expect(displayWidth('👍🏽')).toBe(2);
    expect(displayWidth('👨‍👩‍👧')).toBe(2);
    expect(displayWidth('🇫🇷')).toBe(2);
    expect(displayWidth('e\u0301')).toBe(1);
    expect(displayWidth('café…')).toBe(5);
  });

  it('cuts text to a width with an ellipsis, never splitting a wide character or an emoji', () => {
    expect(truncateToWidth('https://example.com/', 10)).toBe('https://e…');
    expect(truncateToWidth('日本語のページ', 6)).toBe('日本…');
    expect(truncateToWidth('日本語のページ', 5)).toBe('日本…');
    expect(truncateToWidth('a👨‍👩‍👧b', 3)).toBe('a…');
    expect(truncateToWidth('short', 10)).toBe('short');
  });
});

describe('table fitted to a width', () => {
  const longUrl = 'https://www.example.com/a/rather/long/path/to/a/page/that/goes/on/and/on?with=query&and=more';
  const wideRecords = [
    { id: 101, url: longUrl, project: 'www.example.com', result: 'decent', score: 71, privacy: 1, generated_at: '2026-11-20T09:14:03Z' },
    { id: 102, url: 'https://例え.jp/日本語のページ/👍', project: '例え.jp', result: 'good', score: 95, privacy: 0, generated_at: '2026-11-21T09:14:03Z' },
    { id: 103, url: 'https://b.example/', project: 'b.example', result: 'bad', score: 3, privacy: 2, generated_at: '2026-11-22T09:14:03Z' },
  ];

  async function fitted(width: number | undefined, extra: Partial<OutputOptions> = {}) {
    const notices: string[] = [];
    const out = await renderList(wideRecords, options(true, { width, notice: (line) => notices.push(line), ...extra }));
    const lines = out.text
      .split('\n')
      .filter((line) => line !== '')
      .map(stripAnsi);
    return { out, lines, notices };
  }

  for (const width of [80, 60, 40, 30]) {
    it(`no line is wider than ${width} columns, ids and results stay whole, the URL is shortened with …`, async () => {
      const { lines, out } = await fitted(width);
      for (const line of lines) expect(displayWidth(line), line).toBeLessThanOrEqual(width);
      const text = stripAnsi(out.text);
      for (const id of ['101', '102', '103']) expect(text).toMatch(new RegExp(`^${id} `, 'm'));
      for (const result of ['decent', 'good', 'bad']) expect(text).toMatch(new RegExp(`\\b${result}\\b`));
      expect(text).not.toContain(longUrl);
      // Without its scheme, cut in the middle: the host's start and the URL's end stay.
      expect(text).not.toContain('https://');
      expect(text).toMatch(/^101 +www\.[^ ]*…[^ ]*more /m);
    });
  }

  it('the time of day, then project and privacy give way before the URL is cut', async () => {
    const { lines, notices } = await fitted(110);
    expect(lines[0]).toMatch(/^id +url +result +score +generated_at$/);
    expect(lines[1]).toMatch(/^101 +www\.example\.com…[^ ]*\/on\/and\/on\?with=query&and=more +decent +71 +2026-11-20$/);
    expect(notices).toEqual([expect.stringMatching(/^rsapi: project, privacy left out to fit the terminal; --wide shows/)]);
    // With room enough once they are gone (120 columns), the URL shows whole, only its scheme left out.
    const roomy = await fitted(120);
    expect(roomy.lines[1]).toMatch(/^101 +www\.example\.com\/a\/rather\/long\/path\/to\/a\/page\/that\/goes\/on\/and\/on\?with=query&and=more +decent/);
    for (const line of roomy.lines) expect(displayWidth(line), line).toBeLessThanOrEqual(120);
  });

  it('leaves out the last columns when even shortened they cannot fit, and says which', async () => {
    const { lines, notices } = await fitted(40);
    expect(lines[0]).not.toContain('generated_at');
    expect(notices).toEqual([expect.stringMatching(/privacy, generated_at left out to fit the terminal; --wide shows/)]);
  });

  it('without a width (--wide, or not a terminal) shows every value whole', async () => {
    const { out, notices } = await fitted(undefined);
    expect(stripAnsi(out.text)).toContain(longUrl);
    expect(stripAnsi(out.text)).toContain('https://例え.jp/日本語のページ/👍');
    expect(notices).toEqual([]);
  });

  it('aligns columns after wide characters by display width', async () => {
    const { lines } = await fitted(undefined);
    const resultColumn = lines.map((line) => displayWidth(line.slice(0, line.search(/\b(result|decent|good|bad)\b/))));
    expect(new Set(resultColumn).size).toBe(1);
  });

  it("wraps a single record's long values under its values' column instead of cutting them", async () => {
    const out = new BufferSink();
    await writeRecord(out, wideRecords[0] ?? {}, options(false, { width: 40 }));
    const lines = out.text.split('\n').filter(Boolean);
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(40);
    expect(lines).toContain('id            101');
    const url = lines.findIndex((line) => line.startsWith('url '));
    const continued = lines.slice(url + 1).filter((line) => line.startsWith(' '.repeat(14)));
    expect(continued.length).toBeGreaterThan(1);
    expect([lines[url], ...continued].map((line) => line?.slice(14)).join('')).toBe(longUrl);
    expect(out.text).not.toContain('…');
  });

  it('draws 10,000 rows in well under a second, and in chunks rather than one string', async () => {
    const many = Array.from({ length: 10_000 }, (_, i) => ({
      id: i + 1,
      url: `https://www.example-${i % 97}.com/some/longer/path/segment-${i}?q=${i}`,
      project: `example-${i % 97}.com`,
      result: ['good', 'decent', 'bad'][i % 3],
      score: i % 101,
      privacy: i % 3,
      generated_at: '2026-11-20T09:14:03.000000Z',
    }));
    for (const width of [undefined, 80]) {
      // CPU time, not wall time: the suite runs files side by side, and waiting for a core is not drawing slowly.
      const started = process.cpuUsage();
      const out = await renderList(many, options(true, { width }));
      const used = process.cpuUsage(started);
      const elapsed = (used.user + used.system) / 1000;
      expect(elapsed, `width ${width}: ${elapsed.toFixed(0)} ms of CPU`).toBeLessThan(1000);
      expect(out.chunks.length).toBeGreaterThan(10);
      expect(out.text.split('\n').length).toBe(10_002);
    }
  });
});
