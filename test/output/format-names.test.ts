// One registry of output formats: the -o choices, its help, completion and `config set output` all come from it.
import { describe, expect, it } from 'vitest';
import { OUTPUT_FORMATS, renderDocument } from '../../src/output/index.js';
import { OUTPUT_FORMAT_REGISTRY } from '../../src/output/formats.js';
import { OUTPUT_FORMAT_HELP } from '../../src/output/format-names.js';
import { runInProcess } from '../helpers/run.js';

describe('the output format registry', () => {
  it('lists every format once, each with help text and a renderer (the names load without the renderers)', () => {
    expect(new Set(OUTPUT_FORMATS).size).toBe(OUTPUT_FORMATS.length);
    expect(OUTPUT_FORMATS).toEqual(['table', 'json', 'ndjson', 'csv', 'tsv']);
    expect(Object.keys(OUTPUT_FORMAT_REGISTRY)).toEqual(OUTPUT_FORMATS);
    for (const name of OUTPUT_FORMATS) expect(OUTPUT_FORMAT_HELP[name].length).toBeGreaterThan(3);
  });

  it('gives -o its choices and its help', async () => {
    const help = (await runInProcess({ argv: ['reports', 'list', '--help'] })).stdout.replace(/\s+/g, ' ');
    for (const name of OUTPUT_FORMATS) {
      expect(help).toContain(`${name} (${OUTPUT_FORMAT_HELP[name]})`);
      expect(help).toContain(`"${name}"`);
    }
    const refused = await runInProcess({ argv: ['reports', 'list', '-o', 'yaml'] });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(`rsapi: --output must be one of ${OUTPUT_FORMATS.join(', ')}, not "yaml"\n`);
  });

  it('gives completion and `config set output` the same names', async () => {
    const bash = await runInProcess({ argv: ['completion', 'bash'] });
    expect(bash.stdout).toContain(OUTPUT_FORMATS.join(' '));
    for (const name of OUTPUT_FORMATS) expect((await runInProcess({ argv: ['config', 'set', 'output', name] })).code).toBe(0);
  });

  it('renders documents that are not records: JSON for json and ndjson, the text form otherwise', async () => {
    const document = { profile: 'default', retries: 2 };
    const text = () => 'profile=default\nretries=2\n';
    expect(await renderDocument('json', { value: document, text })).toBe('{\n  "profile": "default",\n  "retries": 2\n}\n');
    expect(await renderDocument('ndjson', { value: document, text })).toBe('{"profile":"default","retries":2}\n');
    for (const name of ['table', 'csv', 'tsv'] as const) expect(await renderDocument(name, { value: document, text })).toBe(text());
  });

  it("renders a document's lines for ndjson, its rows for csv (with a header) and tsv, its drawn text as it is", async () => {
    const document = {
      value: [
        { project: 'a', reports: 2 },
        { project: 'b\u001b[31m', reports: null },
      ],
      lines: [{ project: 'a' }, { project: 'b' }],
      rows: {
        columns: ['project', 'reports'],
        rows: [
          ['a', 2],
          ['b\u001b[31m', null],
        ],
      },
      text: async () => '\u001b[1mdrawn\u001b[22m\n',
      drawn: true,
    };
    expect(await renderDocument('ndjson', document)).toBe('{"project":"a"}\n{"project":"b"}\n');
    expect(await renderDocument('csv', document)).toBe('project,reports\r\na,2\r\nb\u001b[31m,\r\n');
    expect(await renderDocument('tsv', document)).toBe('a\t2\nb\u001b[31m\t\n');
    // On a terminal a cell's escape sequence is shown, not obeyed.
    const onTerminal = await renderDocument('tsv', document, { terminal: true });
    expect(onTerminal).toMatch(/^a\t2\nb\\+x1b\[31m\t\n$/);
    expect(await renderDocument('table', document, { terminal: true })).toBe('\u001b[1mdrawn\u001b[22m\n');
    expect(await renderDocument('table', { ...document, drawn: false }, { terminal: true })).not.toContain('\u001b');
  });
});
