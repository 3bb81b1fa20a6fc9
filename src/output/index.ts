// The renderers' public face: what commands use to print records in the format the user asked for.
export type { ListWriter, OutputFormat, OutputOptions, RecordKind, ServiceRecord, Sink } from './types.js';
export type { OutputDocument } from './formats.js';
export { batched, createListWriter, formatBuffers, renderDocument, shownRecord, showsModel, writeItemList, writeRecord } from './formats.js';
export type { DocumentOptions, ItemList } from './formats.js';
export { OUTPUT_FORMATS, outputFormatsHelp } from './format-names.js';
export { defaultColumns, recordId } from './fields.js';
