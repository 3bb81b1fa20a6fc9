// The renderers' public face: what commands use to print records in the format the user asked for.
export { OUTPUT_FORMATS } from './types.js';
export type { ListWriter, OutputFormat, OutputOptions, RecordKind, ServiceRecord, Sink } from './types.js';
export { createListWriter, writeRecord } from './formats.js';
export { defaultColumns, recordId } from './fields.js';
