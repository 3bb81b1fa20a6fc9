// `rsapi config`: the stored settings of a profile (base-url, timeout, retries, output; the key only masked).
import type { ParentCommand, Invocation } from '../../runtime/handler.js';
import { registerGet } from './get.js';
import { registerList } from './list.js';
import { registerPath } from './path.js';
import { registerSet } from './set.js';
import { registerUnset } from './unset.js';

export function registerConfig(program: ParentCommand, invocation: Invocation): void {
  const config = program.command('config').description('Read and change stored settings of a profile (--profile)');
  config.addHelpText(
    'after',
    `
Settings: base-url, timeout (seconds), retries (0-10), output (table, json, ndjson, csv, tsv);
api-key is stored only by \`rsapi auth login\` and always shown masked.

Examples:
  $ rsapi config list
  $ rsapi config set output json --profile ci
  $ rsapi config unset timeout
  $ rsapi config path`,
  );
  registerGet(config, invocation);
  registerSet(config, invocation);
  registerUnset(config, invocation);
  registerList(config, invocation);
  registerPath(config, invocation);
}
