// tsv output: no header, raw values, escaping that keeps one record on one line.
import { describe, expect, it } from 'vitest';
import { createListWriter, writeRecord, type OutputOptions } from '../../src/output/index.js';
import { BufferSink, writeList } from './buffer-sink.js';

const options = (fields?: string[], kind: OutputOptions['kind'] = 'report'): OutputOptions => ({
  format: 'tsv',
  kind,
  color: false,
  ...(fields ? { fields } : {}),
});

/** Undo the renderer's escaping, the way a script reading the output would. */
function unescapeTsv(field: string): string {
  return field.replace(/\\([tnr\\])/g, (_, c: string) => ({ t: '\t', n: '\n', r: '\r', '\\': '\\' })[c] ?? c);
}

describe('tsv list', () => {
  it('writes default columns, no header, one line per record as it arrives', async () => {
    const out = new BufferSink();
    const writer = createListWriter(out, options());
    await writer.write({ id: 1, url: 'https://a/', project: 'a', result: 'bad', score: '12', privacy: 2, generated_at: 'g', extra: 'x' });
    expect(out.text).toBe('1\thttps://a/\ta\tbad\t12\t2\tg\n');
    await writer.write({ id: 2 });
    await writer.end();
    expect(out.text.split('\n')[1]).toBe('2\t\t\t\t\t\t');
  });

  it('escapes tab, CR, LF and backslash so a record stays on one line', async () => {
    const a = 'tab\there\nnew\rcr';
    const b = 'C:\\dir\\n';
    const out = await writeList([{ a, b }], options(['a', 'b']));
    expect(out.text).toBe('tab\\there\\nnew\\rcr\tC:\\\\dir\\\\n\n');
    const lines = out.text.split('\n');
    expect(lines).toHaveLength(2);
    expect((lines[0] ?? '').split('\t').map(unescapeTsv)).toEqual([a, b]);
  });

  it('writes objects as compact JSON and unknown fields as empty', async () => {
    const out = await writeList([{ id: 7, extra: [1, { b: null }] }], options(['nope', 'extra', 'id']));
    expect(out.text).toBe('\t[1,{"b":null}]\t7\n');
  });

  it('writes nothing for no records', async () => {
    const out = await writeList([], options());
    expect(out.text).toBe('');
  });

  it('keeps the first project record columns for every row', async () => {
    const out = await writeList(
      [
        { project: 'a', created_at: 'c', reports_count: 1 },
        { project: 'b', created_at: 'd' },
      ],
      options(undefined, 'project'),
    );
    expect(out.text).toBe('a\tc\t1\nb\td\t\n');
  });
});

describe('tsv record', () => {
  it('writes one row without header', async () => {
    const out = new BufferSink();
    await writeRecord(out, { project: 'p', created_at: 'c' }, options(undefined, 'project'));
    expect(out.text).toBe('p\tc\n');
  });
});
