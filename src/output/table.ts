// Tables for people at a terminal, drawn with cli-table3 (loaded only when a table is drawn).
import { loadPalette, type Palette } from './colors.js';
import { displayCell, fieldValue, terminalSafe } from './fields.js';
import type { ServiceRecord } from './types.js';

/** A table with one row per record; '' for no records (the caller prints its "none found" hint on stderr). */
export async function renderListTable(records: readonly ServiceRecord[], columns: readonly string[], color: boolean): Promise<string> {
  if (records.length === 0 || columns.length === 0) return '';
  const palette = await loadPalette(color);
  const table = await newTable({ head: columns.map((column) => palette.head(terminalSafe(column))) });
  for (const record of records) {
    table.push(columns.map((column) => displayValue(palette, column, fieldValue(record, column))));
  }
  return `${table.toString()}\n`;
}

/** A two-column table (field | value) for one record; '' if there is no field to show. */
export async function renderRecordTable(record: ServiceRecord, fields: readonly string[], color: boolean): Promise<string> {
  if (fields.length === 0) return '';
  const palette = await loadPalette(color);
  const table = await newTable({});
  for (const field of fields) {
    table.push([palette.head(terminalSafe(field)), displayValue(palette, field, fieldValue(record, field))]);
  }
  return `${table.toString()}\n`;
}

function displayValue(palette: Palette, field: string, value: unknown): string {
  const text = displayCell(field, value);
  return field === 'result' ? palette.result(text) : text;
}

async function newTable(options: { head?: string[] }) {
  const { default: Table } = await import('cli-table3');
  // cli-table3 colours head and border by default on its own judgement; colour is the palette's job.
  // compact: no rule between rows, so a page of reports stays one screen high.
  return new Table({ ...options, style: { head: [], border: [], compact: true } });
}
