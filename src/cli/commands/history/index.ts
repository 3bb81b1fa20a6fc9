// `rsapi history`: the recorded runs and what they read: list, show, trends, diffs, prune, export and import.
import type { Invocation, ParentCommand } from '../../runtime/handler.js';
import { registerDiff } from './diff.js';
import { registerExport } from './export.js';
import { registerHtml } from './html/html.js';
import { registerImport } from './import.js';
import { registerMerge } from './merge.js';
import { registerPrune } from './prune.js';
import { registerRuns } from './runs.js';
import { registerShow } from './show.js';
import { registerTrend } from './trend.js';

export function registerHistory(program: ParentCommand, invocation: Invocation): void {
  const history = program.command('history').description('Recorded runs (--record): list them, trends, what changed between two runs');
  history.addHelpText(
    'after',
    `
Examples:
  $ rsapi reports list --all --record           # record a run
  $ rsapi history runs
  $ rsapi history trend https://example.com/pricing
  $ rsapi history diff --fail-on-new-failures
  $ rsapi history html history.html              # one page of every job's runs, to open or publish
  $ rsapi history merge part-*.gz                 # the parts of a sharded run (--part) as one run

The history is a SQLite file (default ~/.local/share/rsapi/history.db, or $XDG_DATA_HOME/rsapi/history.db) or a
PostgreSQL database (--history postgres://user:password@host/db, RSAPI_HISTORY, \`config set history\`).
Exit 11 when the history cannot be read or written; exit 4 for an unknown run or too few runs to compare.`,
  );
  registerRuns(history, invocation);
  registerShow(history, invocation);
  registerTrend(history, invocation);
  registerDiff(history, invocation);
  registerPrune(history, invocation);
  registerExport(history, invocation);
  registerImport(history, invocation);
  registerMerge(history, invocation);
  registerHtml(history, invocation);
}
