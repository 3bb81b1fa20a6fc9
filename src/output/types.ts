// The shapes the renderers are driven with: formats, record kinds, options, the output sink and the list writer.

/** The format names; each has its entry in the registry (formats.ts), which the compiler holds to this list. */
export type OutputFormat = 'table' | 'json' | 'ndjson' | 'csv' | 'tsv';

export type RecordKind = 'report' | 'project';

/** A record as the service sent it: any field may be missing, null, a string holding a number, or unknown. */
export type ServiceRecord = Record<string, unknown>;

/** Where rendered text goes (stdout in the CLI, a buffer in tests). */
export interface Sink {
  write(chunk: string): unknown;
}

export interface OutputOptions {
  format: OutputFormat;
  kind: RecordKind;
  /** --fields: which fields/columns, in that order (any field name, known or not). Empty means "not given". */
  fields?: string[];
  /** -q: only identifiers, one a line (report id, project name), whatever the format. */
  quiet?: boolean;
  /**
   * stdout is a terminal: service text in every format is escaped (terminal-text.ts). Otherwise csv, tsv,
   * json and ndjson keep the data exact.
   */
  terminal?: boolean;
  /** Decided by the caller (TTY, NO_COLOR, FORCE_COLOR, --no-color); only the table format uses colour. */
  color: boolean;
  /** Tables only: the terminal's width to fit (undefined: every value whole, for --wide or when not a terminal). */
  width?: number;
  /** Tells the user something about the output (columns left out for width, unknown --fields): a line for stderr. */
  notice?: (line: string) => void;
}

/** A writer for a list of records. */
export interface ListWriter {
  /** Called for each record as it arrives (pages arrive one after the other). */
  write(record: ServiceRecord): Promise<void> | void;
  /** Called once after the last record; formats that buffer (json, table) print here. */
  end(): Promise<void>;
}
