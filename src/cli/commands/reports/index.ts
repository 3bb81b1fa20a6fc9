// `rsapi reports`: the report verbs.
import type { ParentCommand, Invocation } from '../../runtime/handler.js';
import type { Declaring } from '../command-types.js';
import { REPORT_VERBS } from './verbs.js';

/** Declares `reports` and its verbs: all in full, or with `declaring` only those it wants (the others as stubs). */
export async function registerReports(program: ParentCommand, invocation: Invocation, declaring?: Declaring): Promise<void> {
  const reports = program.command('reports').alias('report').description('List, show, create, update and delete reports; stats over them');
  reports.addHelpText(
    'after',
    `
Examples:
  $ rsapi reports list --result bad --all
  $ rsapi reports show 42 --json
  $ rsapi reports create --from-file urls.txt --journal urls.journal
  $ rsapi reports update 42 --refresh
  $ rsapi reports delete 42 --yes
  $ rsapi reports stats --by project`,
  );
  for (const verb of REPORT_VERBS) {
    if (declaring && !declaring.wanted(verb)) declaring.stub(reports, verb);
    else await (await verb.load())(reports, invocation);
  }
}
