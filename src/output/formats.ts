// Dispatch on the output format: a streaming or buffering writer for lists, and the rendering of one record.
import { stringifyJson } from '../api/json.js';
import { csvLine } from './csv.js';
import { columnsFor, fieldValue, rawCell, recordId, selectFields } from './fields.js';
import { drawRecordTable, ListTable, type TableOptions } from './table.js';
import { maskSecretFields } from './masking.js';
import { singleLine, terminalJson, terminalText } from './terminal-text.js';
import { tsvLine } from './tsv.js';
import type { ListWriter, OutputOptions, ServiceRecord, Sink } from './types.js';

/** A list writer in the chosen format; secret-named fields (a report's password) are masked in every one. */
export function createListWriter(out: Sink, options: OutputOptions): ListWriter {
  const writer = formatWriter(out, options);
  return { write: (record) => writer.write(maskSecretFields(record)), end: () => writer.end() };
}

function formatWriter(out: Sink, options: OutputOptions): ListWriter {
  if (options.quiet) return { write: (record) => writeId(out, record, options), end: async () => {} };
  switch (options.format) {
    case 'json':
      return jsonWriter(out, options);
    case 'ndjson':
      return { write: (record) => void out.write(ndjsonLine(record, options)), end: async () => {} };
    case 'csv':
      return rowWriter(out, options, csvLine, true);
    case 'tsv':
      return rowWriter(out, options, tsvLine, false);
    case 'table':
      return tableWriter(out, options);
  }
}

/** One record (reports show, create of one URL, update). */
export async function writeRecord(out: Sink, received: ServiceRecord, options: OutputOptions): Promise<void> {
  const record = maskSecretFields(received);
  if (options.quiet) {
    writeId(out, record, options);
    return;
  }
  switch (options.format) {
    case 'json':
      out.write(prettyJson(selectFields(record, options.fields), options));
      return;
    case 'table': {
      const fields = options.fields && options.fields.length > 0 ? options.fields : Object.keys(record);
      await drawRecordTable(out, record, fields, tableOptions(options));
      return;
    }
    default: {
      // ndjson, csv and tsv print one record exactly as a list of one.
      const writer = createListWriter(out, options);
      await writer.write(record);
      await writer.end();
    }
  }
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
  if (!options.terminal && line !== id) options.notice?.(`rsapi: warning: the ${options.kind === 'report' ? 'report id' : 'project name'} ${line} holds a line break; written escaped`);
  out.write(`${line}\n`);
}

/** Nothing is written before end(): a failure half-way through a list leaves stdout empty, never half a document. */
function jsonWriter(out: Sink, options: OutputOptions): ListWriter {
  const records: ServiceRecord[] = [];
  return {
    write: (record) => void records.push(selectFields(record, options.fields)),
    end: async () => void out.write(prettyJson(records, options)),
  };
}

/**
 * csv and tsv rows, written as they come. The columns are fixed by the first record (whose count
 * fields may add project columns) so every row has the same ones; csv's header goes out with it,
 * or alone at end() when there is no record.
 */
function rowWriter(out: Sink, options: OutputOptions, line: (cells: readonly string[]) => string, header: boolean): ListWriter {
  let columns: string[] | undefined;
  return {
    write: (record) => {
      if (!columns) {
        columns = columnsFor(options.kind, options.fields, record);
        if (header) out.write(line(columns));
      }
      // On a terminal the cells are shown, not kept: escaped like any service text. In a pipe, exact.
      const cell = options.terminal ? (value: unknown) => terminalText(rawCell(value)) : rawCell;
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
    onHidden: (columns) => options.notice?.(`rsapi: ${columns.join(', ')} left out to fit the terminal; --wide shows every column whole`),
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
