// The tables of the program that docs/*.md show (exit codes, environment variables, settings), written into the pages
// between markers by `npm run docs` from the program's own tables, so a page cannot lag behind the program.
import { SETTING_KEYS, SETTING_VALUES } from '../../config/keys.js';
import { ENVIRONMENT, EXIT_CODES } from '../commands/help-topics.js';

/** `| a | b |` rows under a header. */
function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

const code = (text: string) => `\`${text}\``;

/** Each table by the name its markers give it. */
export const DOC_TABLES: Readonly<Record<string, () => string>> = {
  'exit-codes': () =>
    table(
      ['code', 'meaning'],
      EXIT_CODES.map((exit) => [String(exit.code), exit.doc ?? exit.meaning]),
    ),
  environment: () =>
    table(
      ['variable', 'meaning'],
      ENVIRONMENT.map(({ term, meaning }) => [term.split(', ').map(code).join(', '), meaning]),
    ),
  settings: () =>
    table(
      ['setting', 'value'],
      SETTING_KEYS.map((key) => [code(key), SETTING_VALUES[key] ?? 'stored only by `rsapi auth login`, always shown masked']),
    ),
};

const BLOCK = /(<!-- generated: ([\w-]+) by `npm run docs` from the program's table: do not edit by hand -->\n)[\s\S]*?(\n<!-- end generated -->)/g;

/** A page with every marked table written afresh; an unknown table's name is an error. */
export function withDocTables(markdown: string): string {
  return markdown.replace(BLOCK, (_whole, open: string, name: string, close: string) => {
    const make = DOC_TABLES[name];
    if (!make) throw new Error(`no table "${name}" to write (known: ${Object.keys(DOC_TABLES).join(', ')})`);
    // Blank lines around the table: a Markdown table is not sure to end where an HTML comment starts.
    return `${open}\n${make()}\n${close}`;
  });
}
