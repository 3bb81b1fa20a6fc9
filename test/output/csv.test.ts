// csv output: RFC 4180 quoting, CRLF, header handling, raw values, --fields.
import { describe, expect, it } from 'vitest';
import { createListWriter, writeRecord, type OutputOptions } from '../../src/output/index.js';
import { BufferSink } from './buffer-sink.js';

/** A strict RFC 4180 parser: every record must end in CRLF; a quote may only open or close a field or be doubled. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let i = 0;
  while (i < text.length) {
    let field = '';
    if (text[i] === '"') {
      i++;
      for (;;) {
        if (i >= text.length) throw new Error('unterminated quoted field');
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        field += text[i];
        i++;
      }
    } else {
      while (i < text.length && text[i] !== ',' && text[i] !== '\r' && text[i] !== '\n') {
        if (text[i] === '"') throw new Error(`bare quote at ${i}`);
        field += text[i];
        i++;
      }
    }
    row.push(field);
    if (text[i] === ',') {
      i++;
    } else if (text.startsWith('\r\n', i)) {
      rows.push(row);
      row = [];
      i += 2;
    } else {
      throw new Error(`expected , or CRLF at ${i}`);
    }
  }
  if (row.length > 0) throw new Error('last record without CRLF');
  return rows;
}

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
    const out = new BufferSink();
    const writer = createListWriter(out, options(['a', 'b', 'c', 'd', 'e']));
    const values = { a: 'x,y', b: 'say "hi"', c: 'line1\nline2', d: 'cr\rhere', e: 'plain text' };
    await writer.write(values);
    await writer.end();
    expect(out.text).toBe('a,b,c,d,e\r\n"x,y","say ""hi""","line1\nline2","cr\rhere",plain text\r\n');
    expect(parseCsv(out.text)[1]).toEqual(Object.values(values));
  });

  it('writes objects as compact JSON, quoted, and unknown --fields as empty', async () => {
    const out = new BufferSink();
    const writer = createListWriter(out, options(['id', 'extra', 'nope']));
    await writer.write({ id: 3, extra: { a: [1, 2] } });
    await writer.end();
    expect(parseCsv(out.text)).toEqual([
      ['id', 'extra', 'nope'],
      ['3', '{"a":[1,2]}', ''],
    ]);
  });

  it('writes the header alone for no records', async () => {
    const out = new BufferSink();
    await createListWriter(out, options(undefined, 'project')).end();
    expect(out.text).toBe('project,created_at\r\n');
  });

  it('takes project count columns from the first record and keeps them for every row', async () => {
    const out = new BufferSink();
    const writer = createListWriter(out, options(undefined, 'project'));
    await writer.write({ project: 'a', created_at: 'c1', reports_count: 4 });
    await writer.write({ project: 'b', created_at: 'c2', reports_count: '0', other_count: 9 });
    await writer.end();
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
