// table output: columns, display transforms, colour on and off, vertical single-record tables.
process.env.TZ = 'Asia/Kolkata'; // UTC+05:30, no daylight saving: local times below are fixed.

import { describe, expect, it } from 'vitest';
import { createListWriter, writeRecord, type OutputOptions } from '../../src/output/index.js';
import { BufferSink } from './buffer-sink.js';

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

/** The cells of the table's data lines, trimmed (cli-table3 draws cells between │ characters). */
function rows(text: string): string[][] {
  return stripAnsi(text)
    .split('\n')
    .filter((line) => line.startsWith('│'))
    .map((line) => line.slice(1, -1).split('│').map((cell) => cell.trim()));
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
    expect(out.text).toContain('│ pending │');
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
    expect(out.text).toContain('https://x/\\u001b[2J\\nnext');
  });
});

describe('table record', () => {
  const record = { id: 12, url: 'https://e.com/', privacy: '2', result: 'bad', updated_at: '2026-11-20T09:14:03.000000Z', extra: [1, 2] };

  it('shows every field as a field | value row', async () => {
    const out = new BufferSink();
    await writeRecord(out, record, options(false));
    expect(rows(out.text)).toEqual([
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
    expect(rows(out.text)).toEqual([
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
