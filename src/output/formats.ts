// The one registry of output formats (help, buffering, list writer, one record, a document) and the dispatch through it.
import { stringifyJson } from '../api/http/json.js';
import { modelledProject } from '../api/model/project-model.js';
import { failedCheckIds } from '../api/model/checks.js';
import { modelledRecord, readReport } from '../api/model/report-model.js';
import { csvLine } from './csv.js';
import { columnsFor, fieldValue, rawCell, recordId, rowColumns, selectFields } from './fields.js';
import { drawRecordTable, fitNotice, ListTable, type TableOptions } from './table/table.js';
import { maskSecretFields } from './masking.js';
import { singleLine, terminalJson, terminalLines, terminalText } from './terminal-text.js';
import { tsvLine } from './tsv.js';
import type { ListWriter, OutputFormat, OutputOptions, ServiceRecord, Sink } from './types.js';

/**
 * A list writer in the chosen format; secret-named fields (a report's password) are masked in every one, and the
 * formats for people read each record through the record model.
 */
export function createListWriter(out: Sink, options: OutputOptions): ListWriter {
  const writer = formatWriter(out, options);
  // -q writes a report's id alone, as the service sent it: no record is shaped for a format first (a run of 50,000
  // pages decoded each report's checks for it).
  if (options.quiet && options.kind === 'report') return writer;
  return { write: (record) => writer.write(shownRecord(record, options)), end: () => writer.end() };
}

/**
 * The one place a record becomes what a format shows. table, csv and tsv show the record model's reading: a report's
 * `result` is its label and `score` its number in either dialect, a report with per-check results gains
 * `failed_checks` (its failed check ids), a project its `average`. json and ndjson pass the record as the service sent
 * it (only secrets masked).
 */
export function shownRecord(received: ServiceRecord, options: Pick<OutputOptions, 'format' | 'kind' | 'fields'>): ServiceRecord {
  const record = maskSecretFields(received);
  if (!showsModel(options.format)) return options.kind === 'report' ? withModelFields(record, options.fields) : record;
  return options.kind === 'report' ? withFailedChecks(modelledRecord(record)) : modelledProject(record);
}

/** A report's fields that json and ndjson take from the record model when --fields names them (phpRank sends no `score`). */
const MODEL_FIELDS = ['score', 'label'] as const;

/**
 * A report for json with --fields: `score` and `label` named there are the record model's, in either dialect, as a
 * table and csv show them (`--json id,url,score` on phpRank gives the score, not null). Without --fields, as sent.
 */
function withModelFields(record: ServiceRecord, fields: readonly string[] | undefined): ServiceRecord {
  const named = MODEL_FIELDS.filter((field) => fields?.includes(field));
  if (named.length === 0) return record;
  const reading = readReport(record);
  const shown = { ...record };
  for (const field of named) shown[field] = reading[field] ?? null;
  return shown;
}

/** Whether the format shows records through the record model (table, csv, tsv) rather than as the service sent them. */
export function showsModel(format: OutputFormat): boolean {
  return OUTPUT_FORMAT_REGISTRY[format].modelled;
}

/** A report with its failed check ids beside its `results`, as `--fail-on-check` takes them; one without checks as it is. */
function withFailedChecks(record: ServiceRecord): ServiceRecord {
  const failed = failedCheckIds(record);
  return failed === undefined ? record : { ...record, failed_checks: failed };
}

/**
 * How a format renders: adding a format is one entry here, its name and help in format-names.ts, and its renderer's
 * module.
 */
export interface OutputFormatEntry {
  /** Whether the whole list is held until its end (to size columns, or to be one document) rather than streamed. */
  buffers: boolean;
  /** Whether records are shown through the record model (label and score) rather than exactly as sent. */
  modelled: boolean;
  /** A writer for a list of records. */
  list(out: Sink, options: OutputOptions): ListWriter;
  /** One record (reports show, create of one URL, update). */
  record(out: Sink, record: ServiceRecord, options: OutputOptions): Promise<void>;
  /** A document that is not a list of records (auth status, config list, stats): the part of it this format shows. */
  document(document: OutputDocument, options: DocumentOptions): Promise<string>;
  /** A long list of like items (a recorded run's reports), written as it is read: see ItemList. */
  items<T, Cell>(out: Sink, list: ItemList<T, Cell>, options: DocumentOptions): Promise<void>;
}

/** A document that is not a list of records, in the forms the formats take from it. */
export interface OutputDocument {
  /** The whole document: json writes it indented, ndjson on one line (unless `lines` says otherwise). */
  value: unknown;
  /** ndjson's lines, one object each (stats: one a project). */
  lines?: readonly unknown[];
  /** csv and tsv: named columns and rows of cells (csv's header is the names); without them, the text. */
  rows?: DocumentRows;
  /** For people: the table format's text (and csv's and tsv's without `rows`), fitted to `width` when given (a terminal). */
  text(width?: number): string | Promise<string>;
  /** The text is drawn terminal-safe already (colours, service text escaped where it sits): written as it is. */
  drawn?: boolean;
}

/**
 * A document that is a long list of like items, read one at a time (a recorded run of 100,000 reports): ndjson, csv and
 * tsv write each item as it comes and keep none; json keeps each item's text (never the item) up to JSON_HELD_AT_MOST
 * and writes the document at the end, so a failure part-way leaves no half of it, and past that writes each item as it
 * comes (jsonArray); the table keeps the cells, to size its columns.
 */
export interface ItemList<T, Cell = unknown> {
  items: AsyncIterable<T>;
  /** json and ndjson: the item as a value (json's document is the array of them). */
  value(item: T): unknown;
  /** csv, tsv and the table: the column names (csv's header) and an item's cells. */
  columns: readonly string[];
  row(item: T): readonly Cell[];
  /** The table: its text from every row, fitted to `width` when given (a terminal), and what it says when there is none. */
  text(rows: readonly (readonly Cell[])[], width?: number): string;
}

export interface DocumentRows {
  columns: readonly string[];
  rows: readonly (readonly unknown[])[];
}

export interface DocumentOptions {
  /** stdout is a terminal: service text is escaped. */
  terminal?: boolean;
  /** The terminal's width, for a text that can fit itself to it (undefined: a pipe, or --wide). */
  width?: number;
}

export const OUTPUT_FORMAT_REGISTRY = {
  table: {
    buffers: true,
    modelled: true,
    list: (out, options) => tableWriter(out, options),
    record: async (out, record, options) => {
      const fields = options.fields && options.fields.length > 0 ? options.fields : Object.keys(record);
      await drawRecordTable(out, record, fields, tableOptions(options));
    },
    document: (document, options) => textDocument(document, options),
    items: async (out, list, options) => {
      const rows: ReturnType<typeof list.row>[] = [];
      for await (const item of list.items) rows.push(list.row(item));
      const shown = list.text(rows, options.width);
      out.write(options.terminal ? terminalLines(shown) : shown);
    },
  },
  json: {
    buffers: true,
    modelled: false,
    list: (out, options) => jsonWriter(out, options),
    record: async (out, record, options) => void out.write(prettyJson(selectFields(record, options.fields), options)),
    document: async (document, options) => jsonDocument(stringifyJson(document.value, 2), options),
    items: async (out, list, options) => {
      const array = jsonArray(out, options.terminal);
      for await (const item of list.items) array.add(list.value(item));
      array.end();
    },
  },
  ndjson: {
    buffers: false,
    modelled: false,
    list: (out, options) => ({ write: (record) => void out.write(ndjsonLine(record, options)), end: async () => {} }),
    record: asListOfOne,
    document: async (document, options) => (document.lines ?? [document.value]).map((line) => jsonDocument(stringifyJson(line), options)).join(''),
    items: async (out, list, options) => {
      const batch = batched(out);
      for await (const item of list.items) batch.write(jsonDocument(stringifyJson(list.value(item)), options));
      batch.flush();
    },
  },
  csv: {
    buffers: false,
    modelled: true,
    list: (out, options) => rowWriter(out, options, csvLine, true),
    record: asListOfOne,
    document: (document, options) => rowsDocument(document, options, csvLine, true),
    items: (out, list, options) => writeItemRows(out, list, options, csvLine, true),
  },
  tsv: {
    buffers: false,
    modelled: true,
    list: (out, options) => rowWriter(out, options, tsvLine, false),
    record: asListOfOne,
    document: (document, options) => rowsDocument(document, options, tsvLine, false),
    items: (out, list, options) => writeItemRows(out, list, options, tsvLine, false),
  },
} satisfies Record<OutputFormat, OutputFormatEntry>;

/** Whether a list in this format is held until its end (json, table) rather than written as records come. */
export function formatBuffers(options: Pick<OutputOptions, 'format' | 'quiet'>): boolean {
  return !options.quiet && OUTPUT_FORMAT_REGISTRY[options.format].buffers;
}

/** A long list of like items in the chosen format, written to `out` as it is read (ItemList). */
export function writeItemList<T, Cell>(out: Sink, format: OutputFormat, list: ItemList<T, Cell>, options: DocumentOptions = {}): Promise<void> {
  return OUTPUT_FORMAT_REGISTRY[format].items(out, list, options);
}

/** A document that is not a list of records (auth status, config list, stats) in the chosen format. */
export function renderDocument(format: OutputFormat, document: OutputDocument, options: DocumentOptions = {}): Promise<string> {
  return OUTPUT_FORMAT_REGISTRY[format].document(document, options);
}

function formatWriter(out: Sink, options: OutputOptions): ListWriter {
  if (options.quiet) return { write: (record) => writeId(out, record, options), end: async () => {} };
  return OUTPUT_FORMAT_REGISTRY[options.format].list(out, options);
}

/** One record (reports show, create of one URL, update). */
export async function writeRecord(out: Sink, received: ServiceRecord, options: OutputOptions): Promise<void> {
  const record = shownRecord(received, options);
  if (options.quiet) {
    writeId(out, record, options);
    return;
  }
  await OUTPUT_FORMAT_REGISTRY[options.format].record(out, record, options);
}

/** ndjson, csv and tsv print one record exactly as a list of one. */
async function asListOfOne(out: Sink, record: ServiceRecord, options: OutputOptions): Promise<void> {
  const writer = createListWriter(out, options);
  await writer.write(record);
  await writer.end();
}

function jsonDocument(json: string, options: DocumentOptions): string {
  return `${options.terminal ? terminalJson(json) : json}\n`;
}

async function textDocument(document: OutputDocument, options: DocumentOptions): Promise<string> {
  const shown = await document.text(options.width);
  return options.terminal && !document.drawn ? terminalLines(shown) : shown;
}

/** csv and tsv of a document's rows (csv with the column names first); a document without rows is its text. */
async function rowsDocument(document: OutputDocument, options: DocumentOptions, line: (cells: readonly string[]) => string, header: boolean): Promise<string> {
  if (!document.rows) return textDocument(document, options);
  const cell = cellText(options.terminal);
  const { columns, rows } = document.rows;
  return (header ? line(columns) : '') + rows.map((row) => line(row.map(cell))).join('');
}

/** A csv or tsv cell's text: on a terminal the cells are shown, not kept, so escaped like any service text; in a pipe, exact. */
function cellText(terminal: boolean | undefined): (value: unknown) => string {
  return terminal ? (value) => terminalText(rawCell(value)) : rawCell;
}

/** csv and tsv of an item list: the header (csv), then a line an item as it comes. */
async function writeItemRows<T, Cell>(
  out: Sink,
  list: ItemList<T, Cell>,
  options: DocumentOptions,
  line: (cells: readonly string[]) => string,
  header: boolean,
): Promise<void> {
  const cell = cellText(options.terminal);
  const batch = batched(out);
  if (header) batch.write(line(list.columns));
  for await (const item of list.items) batch.write(line(list.row(item).map(cell)));
  batch.flush();
}

/** Lines gathered into writes of about 64 KB: a write a line is a system call a line (100,000 of them took 2.5 s). */
export function batched(out: Sink): { write(text: string): void; flush(): void } {
  let pending = '';
  return {
    write(text) {
      pending += text;
      if (pending.length < 65_536) return;
      out.write(pending);
      pending = '';
    },
    flush() {
      if (pending !== '') out.write(pending);
      pending = '';
    },
  };
}

/**
 * A record without an id prints nothing rather than a blank line a script would take for an id. One id is
 * always one line: on a terminal every control is escaped, in a pipe only the line breaks (the rest is data).
 */
function writeId(out: Sink, record: ServiceRecord, options: OutputOptions): void {
  const id = recordId(record, options.kind);
  if (!id) return;
  const line = options.terminal ? terminalText(id) : singleLine(id);
  // In a pipe the escaped form is not the name: say so, as a script reading it would act on another one.
  if (!options.terminal && line !== id)
    options.notice?.(`rsapi: warning: the ${options.kind === 'report' ? 'report id' : 'project name'} ${line} holds a line break; written escaped`);
  out.write(`${line}\n`);
}

/** The records of a list as one JSON array (jsonArray): a failure half-way through a list of normal size leaves stdout empty. */
function jsonWriter(out: Sink, options: OutputOptions): ListWriter {
  const array = jsonArray(out, options.terminal);
  return {
    write: (record) => array.add(selectFields(record, options.fields)),
    end: async () => array.end(),
  };
}

/**
 * How much of a JSON array's text is held before it is written as it comes. Below it, nothing is written until the
 * end, so a failure half-way leaves stdout empty, never half a document; past it (100,000 reports are hundreds of MB,
 * past V8's longest string), memory stays bounded and a failure leaves the array unclosed.
 */
export const JSON_HELD_AT_MOST = 16 * 1024 * 1024;

/**
 * A JSON array written item by item, byte for byte as stringifyJson(array, 2) and a line break write it (`[]` when
 * empty), never as one string of the whole: each item's text is made alone, held up to JSON_HELD_AT_MOST, then
 * written in batches. On a terminal each piece is escaped as terminalJson escapes the whole.
 */
export function jsonArray(out: Sink, terminal: boolean | undefined): { add(value: unknown): void; end(): void } {
  const shown = (text: string) => (terminal ? terminalJson(text) : text);
  const batch = batched(out);
  let held: string[] | undefined = [];
  let heldLength = 0;
  let count = 0;
  const write = (text: string) => {
    batch.write(shown(`${count === 0 ? '[\n' : ',\n'}${text}`));
    count++;
  };
  return {
    add(value) {
      // The item as it sits in the indented array: `  {` ... `  }`.
      const text = stringifyJson([value], 2).slice(2, -2);
      if (held === undefined) return write(text);
      held.push(text);
      heldLength += text.length;
      if (heldLength <= JSON_HELD_AT_MOST) return;
      for (const one of held) write(one);
      held = undefined;
    },
    end() {
      for (const one of held ?? []) write(one);
      held = undefined;
      batch.write(count === 0 ? '[]\n' : '\n]\n');
      batch.flush();
    },
  };
}

/**
 * csv and tsv rows, written as they come. The columns are fixed by the first record (whose count
 * fields may add project columns, and per-check results `failed_checks`) so every row has the same ones; csv's
 * header goes out with it, or alone at end() when there is no record.
 */
function rowWriter(out: Sink, options: OutputOptions, line: (cells: readonly string[]) => string, header: boolean): ListWriter {
  let columns: string[] | undefined;
  return {
    write: (record) => {
      if (!columns) {
        columns = rowColumns(options.kind, options.fields, record);
        if (header) out.write(line(columns));
      }
      const cell = cellText(options.terminal);
      out.write(line(columns.map((column) => cell(fieldValue(record, column)))));
    },
    end: async () => {
      if (!columns && header) out.write(line(columnsFor(options.kind, options.fields)));
    },
  };
}

/**
 * Column widths depend on every row, so the table is drawn at end(); an empty list draws nothing. The columns are
 * fixed by the first record, and each record is kept only as its display cells.
 */
function tableWriter(out: Sink, options: OutputOptions): ListWriter {
  let table: ListTable | undefined;
  return {
    write: (record) => {
      table ??= new ListTable(columnsFor(options.kind, options.fields, record));
      table.add(record);
    },
    end: async () => {
      await table?.draw(out, tableOptions(options));
    },
  };
}

function tableOptions(options: OutputOptions): TableOptions {
  return {
    kind: options.kind,
    color: options.color,
    width: options.width,
    onFitted: (fitted) => options.notice?.(fitNotice(fitted)),
  };
}

function ndjsonLine(record: ServiceRecord, options: OutputOptions): string {
  return `${forTerminal(stringifyJson(selectFields(record, options.fields)), options)}\n`;
}

function prettyJson(value: unknown, options: OutputOptions): string {
  return `${forTerminal(stringifyJson(value, 2), options)}\n`;
}

function forTerminal(json: string, options: OutputOptions): string {
  return options.terminal ? terminalJson(json) : json;
}
