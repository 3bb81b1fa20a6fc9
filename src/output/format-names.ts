// The output formats' names and the words --help gives each: all that option parsing, help and settings need, without
// loading a renderer (src/output/formats.ts holds how each renders, keyed by the same names).
import type { OutputFormat } from './types.js';

/** A few words for --help, per format, in the order the -o choices list them. */
export const OUTPUT_FORMAT_HELP: Readonly<Record<OutputFormat, string>> = {
  table: 'columns fitted to the terminal',
  json: 'one JSON document',
  ndjson: 'one JSON object a line',
  csv: 'RFC 4180, with a header',
  tsv: 'tab-separated, no header',
};

/** The format names: the -o choices, completion and `config set output` come from here. */
export const OUTPUT_FORMATS = Object.keys(OUTPUT_FORMAT_HELP) as OutputFormat[];

/** `table (columns fitted to the terminal), json (...)`: the -o flag's help. */
export function outputFormatsHelp(): string {
  return OUTPUT_FORMATS.map((name) => `${name} (${OUTPUT_FORMAT_HELP[name]})`).join(', ');
}
