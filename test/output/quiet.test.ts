// -q: only identifiers, one a line, whatever the format.
import { describe, expect, it } from 'vitest';
import { OUTPUT_FORMATS, writeRecord, type OutputFormat, type RecordKind } from '../../src/output/index.js';
import { BufferSink, writeList } from './buffer-sink.js';

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
