// Each output format, produced by the built binary against the mock and parsed back; and a long list of items
// (writeItemList) written as the same document would be.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/run.js';
import { parseCsv } from '../helpers/csv.js';
import { startMock, type MockFixture } from '../helpers/mock.js';
import { startRawServer } from '../helpers/raw-server.js';
import { createListWriter, OUTPUT_FORMATS, renderDocument, writeItemList, type ItemList } from '../../src/output/index.js';
import { JSON_HELD_AT_MOST } from '../../src/output/formats.js';
import { BufferSink, writeList } from './buffer-sink.js';

let mock: MockFixture;

beforeAll(async () => {
  mock = await startMock();
});
afterAll(async () => {
  await mock.close();
});

const list = (...args: string[]) => runInProcess({ argv: ['reports', 'list', '--per-page', '25', ...args], env: mock.env });

describe('output formats', () => {
  it('json: one array, records as the service sent them', async () => {
    const { code, stdout } = await list('-o', 'json');
    expect(code).toBe(0);
    const records = JSON.parse(stdout) as Record<string, unknown>[];
    expect(records).toHaveLength(25);
    expect(Object.keys(records[0]!)).toEqual(['id', 'url', 'project', 'result', 'score', 'privacy', 'generated_at', 'created_at', 'updated_at']);
  });

  it('--json is -o json, before or after the command', async () => {
    const after = await list('--json');
    const before = await runInProcess({ argv: ['--json', 'reports', 'list', '--per-page', '25'], env: mock.env });
    expect(JSON.parse(after.stdout)).toEqual(JSON.parse(before.stdout));
  });

  it('ndjson: one object a line', async () => {
    const { stdout } = await list('-o', 'ndjson', '--all');
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(mock.server.reports().length);
    for (const line of lines) expect(JSON.parse(line)).toHaveProperty('url');
  });

  it('csv: RFC 4180 with a header row of the default columns', async () => {
    const { stdout } = await list('-o', 'csv');
    const rows = parseCsv(stdout);
    expect(rows[0]).toEqual(['id', 'url', 'project', 'result', 'score', 'privacy', 'generated_at']);
    expect(rows).toHaveLength(26);
  });

  it('tsv without a terminal: no header, no colour, one record a line', async () => {
    const { stdout, stderr } = await list();
    const lines = stdout.trim().split('\n');
    expect(lines, stderr).toHaveLength(25);
    expect(lines[0]!.split('\t')).toHaveLength(7);
    expect(stdout).not.toMatch(/\u001b/);
  });

  it('--fields picks fields in order, including ones the client does not know', async () => {
    const { stdout } = await list('--fields', 'score,updated_at,no_such_field,id', '-o', 'json');
    const records = JSON.parse(stdout) as Record<string, unknown>[];
    expect(Object.keys(records[0]!)).toEqual(['score', 'updated_at', 'no_such_field', 'id']);
    expect(records[0]!.no_such_field).toBeNull();
    const csv = parseCsv((await list('--fields', 'url,updated_at', '-o', 'csv')).stdout);
    expect(csv[0]).toEqual(['url', 'updated_at']);
    expect(csv[1]![1]).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it('-q prints only ids; for projects, names', async () => {
    const { stdout } = await list('-q');
    expect(
      stdout
        .trim()
        .split('\n')
        .every((line) => /^\d+$/.test(line)),
    ).toBe(true);
    const projects = await runInProcess({ argv: ['projects', 'list', '-q'], env: mock.env });
    expect(projects.stdout.trim().split('\n').sort()).toEqual(
      mock.server
        .projects()
        .map((p) => p.project)
        .sort(),
    );
  });

  it('a stored default output format applies when no flag is given', async () => {
    const set = await runInProcess({ argv: ['config', 'set', 'output', 'ndjson'], env: mock.env });
    expect(set.code, set.stderr).toBe(0);
    const { stdout } = await list();
    expect(JSON.parse(stdout.trim().split('\n')[0]!)).toHaveProperty('id');
    const flag = await list('-o', 'tsv');
    expect(flag.stdout.split('\n')[0]).toMatch(/^\d+\t/);
    await runInProcess({ argv: ['config', 'unset', 'output'], env: mock.env });
  });

  it('a failure midway leaves no half-written JSON on stdout', async () => {
    // Page 1 answers with a next link; page 2 is a server fault.
    const pages: string[] = [];
    const server = await startRawServer((request, response) => {
      const page = new URL(request.url, 'http://x').searchParams.get('page') ?? '1';
      pages.push(page);
      if (page === '1') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({ data: [{ id: 1, url: 'https://a.example/' }], links: { next: 'http://x/api/v1/reports?page=2' }, meta: { current_page: 1 } }),
        );
      } else {
        response.writeHead(500, { 'content-type': 'application/json' });
        response.end('{"message":"Server Error"}');
      }
    });
    try {
      const { code, stdout, stderr } = await runInProcess({ argv: ['reports', 'list', '--all', '--json'], env: { ...mock.env, RSAPI_BASE_URL: server.url } });
      expect(pages).toEqual(['1', '2']);
      expect(code).toBe(8);
      expect(stderr).toMatch(/server error: Server Error \(HTTP 500, GET \/reports\?per_page=100&page=2\)/);
      expect(stdout).toBe('');
    } finally {
      await server.close();
    }
  });
});

describe('-q', () => {
  it("writes each report's id as sent, and reads nothing else of the record (no shaping for a format first)", async () => {
    let read = 0;
    const record = (id: number) =>
      Object.defineProperty({ id, url: `https://example.com/${id}`, result: 80 }, 'results', {
        enumerable: true,
        get: () => {
          read++;
          return { title: { passed: false, importance: 'high', value: 'x' } };
        },
      });
    const out = await writeList([record(7), record(8)], { format: 'tsv', kind: 'report', quiet: true, color: false });
    expect(out.text).toBe('7\n8\n');
    expect(read).toBe(0);
  });
});

describe('an item list (a recorded run read one report at a time)', () => {
  type Item = { id: number; url: string; big?: bigint };
  const items = (count: number): Item[] =>
    Array.from({ length: count }, (_, i) => ({
      id: i + 1,
      url: i === 1 ? `example.com/a\nb\u001b[31m-${i}` : `example.com/ünï-${i}`,
      big: i === 2 ? 2n ** 60n : undefined,
    }));
  const list = (source: AsyncIterable<Item>): ItemList<Item, string> => ({
    items: source,
    value: (item) => ({ id: item.id, url: item.url, ...(item.big === undefined ? {} : { big: item.big }) }),
    columns: ['id', 'url'],
    row: (item) => [String(item.id), item.url],
    text: (rows) => (rows.length === 0 ? 'none\n' : rows.map((row) => `${row.join(' | ')}\n`).join('')),
  });
  async function* each(all: readonly Item[], failAfter?: number): AsyncIterable<Item> {
    for (const [index, item] of all.entries()) {
      if (index === failAfter) throw new Error('the history failed');
      yield item;
    }
  }

  it.each(OUTPUT_FORMATS.flatMap((format) => [0, 1, 2_345].flatMap((count) => [false, true].map((terminal) => ({ format, count, terminal })))))(
    '$format of $count items (terminal: $terminal) is the document renderDocument writes',
    async ({ format, count, terminal }) => {
      const all = items(count);
      const shape = list(each(all));
      const document = {
        value: all.map((item) => shape.value(item)),
        lines: all.map((item) => shape.value(item)),
        rows: { columns: shape.columns, rows: all.map((item) => shape.row(item)) },
        text: () => shape.text(all.map((item) => shape.row(item))),
      };
      const out = new BufferSink();
      await writeItemList(out, format, shape, { terminal });
      expect(out.text).toBe(await renderDocument(format, document, { terminal }));
    },
  );

  it('ndjson, csv and tsv write as items come; json writes nothing until its last item is read', async () => {
    const long = Array.from({ length: 40 }, (_, i) => ({ id: i, url: `example.com/${'x'.repeat(5_000)}` }));
    for (const format of OUTPUT_FORMATS) {
      const out = new BufferSink();
      let writtenBeforeTheEnd = false;
      async function* watched(): AsyncIterable<Item> {
        yield* long;
        writtenBeforeTheEnd = out.chunks.length > 0;
      }
      await writeItemList(out, format, list(watched()));
      expect(writtenBeforeTheEnd, format).toBe(format === 'ndjson' || format === 'csv' || format === 'tsv');
    }
  });

  it('a failure part-way: json and the table leave stdout empty; ndjson, csv and tsv leave only whole lines', async () => {
    const long = Array.from({ length: 100 }, (_, i) => ({ id: i, url: `example.com/${'y'.repeat(2_000)}` }));
    for (const format of OUTPUT_FORMATS) {
      const out = new BufferSink();
      await expect(writeItemList(out, format, list(each(long, 60))), format).rejects.toThrow('the history failed');
      if (format === 'json' || format === 'table') expect(out.text, format).toBe('');
      else expect(out.text.length > 0 && out.text.endsWith('\n'), format).toBe(true);
    }
  });
});

describe('json streams: an array is written item by item, never as one string', () => {
  /** Keeps no text: the length, the first and last bytes, and how many items began (`\n  {` across chunk edges). */
  class CountingSink {
    length = 0;
    head = '';
    tail = '';
    items = 0;
    write(chunk: string): boolean {
      const seam = this.tail + chunk;
      this.items += seam.split('\n  {\n').length - 1;
      this.length += chunk.length;
      if (this.head.length < 10) this.head = (this.head + chunk).slice(0, 10);
      this.tail = seam.slice(-8);
      return true;
    }
  }
  // V8's longest string (2^29 - 24 characters on 64-bit): a document past it was "Invalid string length".
  const V8_MAX_STRING = 2 ** 29 - 24;

  it('a list longer than V8 can hold as a string prints whole: [ first, every item, ]\\n last', async () => {
    const blob = 'x'.repeat(1024 * 1024);
    const count = Math.ceil(V8_MAX_STRING / blob.length) + 20;
    const out = new CountingSink();
    const writer = createListWriter(out, { format: 'json', kind: 'report', color: false });
    for (let id = 1; id <= count; id++) await writer.write({ id, url: `https://example.com/${id}`, blob });
    await writer.end();
    expect(out.length).toBeGreaterThan(V8_MAX_STRING);
    expect(out.head).toBe('[\n  {\n    ');
    expect(out.tail).toBe('"\n  }\n]\n');
    expect(out.items).toBe(count);
  }, 120_000);

  it('past what is held, items go out before the end; below it, nothing until the end', async () => {
    const record = { id: 1, blob: 'y'.repeat(1024 * 1024) };
    const out = new BufferSink();
    const writer = createListWriter(out, { format: 'json', kind: 'report', color: false });
    for (let i = 0; i < JSON_HELD_AT_MOST / record.blob.length - 1; i++) await writer.write(record);
    expect(out.chunks).toEqual([]);
    for (let i = 0; i < 3; i++) await writer.write(record);
    expect(out.text.startsWith('[\n  {\n')).toBe(true);
    await writer.end();
    const whole = JSON.parse(out.text) as unknown[];
    expect(out.text).toBe(`${JSON.stringify(whole, undefined, 2)}\n`);
  });
});
