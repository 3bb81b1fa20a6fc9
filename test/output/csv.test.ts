// csv output: RFC 4180 quoting, CRLF, header handling, raw values, --fields.
import { describe, expect, it } from 'vitest';
import { createListWriter, writeRecord, type OutputOptions } from '../../src/output/index.js';
import { BufferSink, writeList } from './buffer-sink.js';
import { parseCsv } from '../helpers/csv.js';

const options = (fields?: string[], kind: OutputOptions['kind'] = 'report'): OutputOptions => ({
  format: 'csv',
  kind,
  color: true,
  ...(fields ? { fields } : {}),
});

describe('csv parser used by these tests', () => {
  it('rejects what is not strict csv', () => {
    expect(() => parseCsv('a,b\n')).toThrow();
    expect(() => parseCsv('a"b\r\n')).toThrow();
    expect(() => parseCsv('a,b')).toThrow();
  });
});

describe('csv list', () => {
  it('writes the header with the first record and rows as they come', async () => {
    const out = new BufferSink();
    const writer = createListWriter(out, options());
    await writer.write({ id: 1, url: 'https://a/', project: 'a', result: 'good', score: 90, privacy: 0, generated_at: 'g' });
    expect(out.text).toBe('id,url,project,result,score,privacy,generated_at\r\n1,https://a/,a,good,90,0,g\r\n');
    await writer.write({ id: '2', score: '71', privacy: null });
    await writer.end();
    expect(parseCsv(out.text)).toEqual([
      ['id', 'url', 'project', 'result', 'score', 'privacy', 'generated_at'],
      ['1', 'https://a/', 'a', 'good', '90', '0', 'g'],
      ['2', '', '', '', '71', '', ''],
    ]);
  });

  it('quotes commas, quotes, CR and LF and nothing else', async () => {
    const values = { a: 'x,y', b: 'say "hi"', c: 'line1\nline2', d: 'cr\rhere', e: 'plain text' };
    const out = await writeList([values], options(['a', 'b', 'c', 'd', 'e']));
    expect(out.text).toBe('a,b,c,d,e\r\n"x,y","say ""hi""","line1\nline2","cr\rhere",plain text\r\n');
    expect(parseCsv(out.text)[1]).toEqual(Object.values(values));
  });

  it('writes objects as compact JSON, quoted, and unknown --fields as empty', async () => {
    const out = await writeList([{ id: 3, extra: { a: [1, 2] } }], options(['id', 'extra', 'nope']));
    expect(parseCsv(out.text)).toEqual([
      ['id', 'extra', 'nope'],
      ['3', '{"a":[1,2]}', ''],
    ]);
  });

  it('writes the header alone for no records', async () => {
    const out = await writeList([], options(undefined, 'project'));
    expect(out.text).toBe('project,created_at\r\n');
  });

  it('takes project count columns from the first record and keeps them for every row', async () => {
    const out = await writeList(
      [
        { project: 'a', created_at: 'c1', reports_count: 4 },
        { project: 'b', created_at: 'c2', reports_count: '0', other_count: 9 },
      ],
      options(undefined, 'project'),
    );
    expect(parseCsv(out.text)).toEqual([
      ['project', 'created_at', 'reports_count'],
      ['a', 'c1', '4'],
      ['b', 'c2', '0'],
    ]);
  });
});

describe('csv record', () => {
  it('writes a header and one row', async () => {
    const out = new BufferSink();
    await writeRecord(out, { id: 5, url: 'u', extra: 1 }, options(['url', 'id']));
    expect(out.text).toBe('url,id\r\nu,5\r\n');
  });
});
