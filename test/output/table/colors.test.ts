// chalk is loaded only when a coloured table is drawn.
import { describe, expect, it, vi } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { type OUTPUT_FORMATS, writeRecord } from '../../../src/output/index.js';
import { BufferSink, writeList } from '../buffer-sink.js';

const loaded = vi.hoisted(() => new Set<string>());

vi.mock('chalk', async (importOriginal) => {
  loaded.add('chalk');
  return importOriginal();
});

const record = { id: 1, url: 'https://a/', result: 'good' };

async function render(format: (typeof OUTPUT_FORMATS)[number], color: boolean, quiet = false): Promise<void> {
  const options = { format, kind: 'report' as const, color, quiet };
  await writeList([record], options);
  await writeRecord(new BufferSink(), record, options);
}

describe('lazy loading', () => {
  // The steps build on each other: a module once loaded stays loaded.
  it('does not load it for json, ndjson, csv, tsv, nor for a quiet table', async () => {
    for (const format of ['json', 'ndjson', 'csv', 'tsv'] as const) await render(format, true);
    await render('table', true, true);
    expect([...loaded]).toEqual([]);
  });

  it('does not load chalk for a table without colour', async () => {
    await render('table', false);
    expect([...loaded]).toEqual([]);
  });

  it('loads chalk for a coloured table', async () => {
    await render('table', true);
    expect(loaded.has('chalk')).toBe(true);
  });

  it('has no static import of chalk in src/output', () => {
    const dir = new URL('../../../src/output/', import.meta.url);
    for (const file of readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.ts'))) {
      const source = readFileSync(new URL(file, dir), 'utf8');
      expect(source, file).not.toMatch(/^\s*import\s+(?!type\b)[^;]*from\s+['"]chalk['"]/m);
    }
  });
});
