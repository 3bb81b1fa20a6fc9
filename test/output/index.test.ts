// json and ndjson output: records passed through as received, --fields, buffering and streaming.
import { describe, expect, it } from 'vitest';
import { createListWriter, writeRecord, type OutputOptions } from '../../src/output/index.js';
import { BufferSink, writeList } from './buffer-sink.js';

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

  it('keeps only --fields, in order, unknown names as null', async () => {
    const out = await writeList([report, other], options('json', ['score', 'missing', 'id']));
    const parsed = JSON.parse(out.text) as Record<string, unknown>[];
    expect(parsed).toEqual([
      { score: '71', missing: null, id: 12 },
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
