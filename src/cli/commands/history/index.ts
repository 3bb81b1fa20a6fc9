// `rsapi history`: the recorded runs and what they read: list, show, trends, diffs, prune, export and import.
import type { Invocation, ParentCommand } from '../../runtime/handler.js';
import type { Declaring } from '../command-types.js';
import { HISTORY_VERBS } from './verbs.js';

/** Declares `history` and its verbs: all in full, or with `declaring` only those it wants (the others as stubs). */
export async function registerHistory(program: ParentCommand, invocation: Invocation, declaring?: Declaring): Promise<void> {
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
  for (const verb of HISTORY_VERBS) {
    if (declaring && !declaring.wanted(verb)) declaring.stub(history, verb);
    else await (await verb.load())(history, invocation);
  }
}
