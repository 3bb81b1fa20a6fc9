// The inputs and outputs tables of docs/github-action.md, written from action.yml (the runner's own description of
// the action) between their markers by `npm run build:action`; test/scripts/action-docs.test.ts fails when they lag.
import { parse } from 'yaml';

const BLOCK =
  /(<!-- action-(inputs|outputs): written from action\.yml by `npm run build:action`, do not edit by hand -->\n)[\s\S]*?(\n<!-- end of action-\2 -->)/g;

/** A table cell: one line, its pipes escaped. */
const cell = (text) => String(text).replace(/\s+/g, ' ').trim().replace(/\|/g, '\\|');

/** `| a | b |` rows under a header. */
function table(header, rows) {
  const line = (cells) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/** Each table by its name, from action.yml's text. */
export function actionTables(yamlText) {
  const action = parse(yamlText);
  return {
    inputs: table(
      ['input', 'default', 'meaning'],
      Object.entries(action.inputs).map(([name, input]) => [`\`${name}\``, input.default ? `\`${cell(input.default)}\`` : '', cell(input.description)]),
    ),
    outputs: table(
      ['output', 'meaning'],
      Object.entries(action.outputs).map(([name, output]) => [`\`${name}\``, cell(output.description)]),
    ),
  };
}

/** The page with its marked tables written afresh from action.yml's text. */
export function withActionTables(markdown, yamlText) {
  const tables = actionTables(yamlText);
  // Blank lines around a table: a Markdown table is not sure to end where an HTML comment starts.
  return markdown.replace(BLOCK, (_whole, open, name, close) => `${open}\n${tables[name]}\n${close}`);
}
