// An error as a tool's caller can act on it: the CLI's messages name flags (`--project NAME`, `a longer --since
// reaches it`) and commands (`rsapi history runs`); an agent has arguments and tools. Issue 46 point 14.
import type { ToolArg } from './arguments.js';

/** The CLI commands a message may name, and the tool that does the same. */
const TOOLS_OF_COMMANDS: readonly (readonly [command: string, tool: string])[] = [
  ['rsapi history runs', 'history_runs'],
  ['rsapi history diff', 'history_diff'],
  ['rsapi history trend', 'history_trend'],
  ['rsapi reports list', 'list_reports'],
  ['rsapi reports show', 'get_report'],
  ['rsapi projects list', 'list_projects'],
];

/**
 * `text` with each flag of the tool's arguments (and a value placeholder after it, `--project NAME`) named as the
 * argument (`project`), and each CLI command that has a tool named as that tool. Other words are left as they are.
 */
export function inToolWords(text: string, args: readonly Pick<ToolArg, 'name' | 'flag'>[]): string {
  let out = text;
  for (const { name, flag } of args) {
    if (flag === undefined) continue;
    out = out.replace(new RegExp(`${escapeRegExp(flag)}(?![\\w-])(?: [A-Z]+\\b(?![\\w.-]))?`, 'g'), name);
  }
  for (const [command, tool] of TOOLS_OF_COMMANDS) out = out.replaceAll(command, tool);
  return out;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
