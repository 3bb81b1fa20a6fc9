// `rsapi reports`: the report verbs.
import type { ParentCommand, Invocation } from '../../runtime/handler.js';
import { registerCreate } from './create/create.js';
import { registerDelete } from './delete.js';
import { registerList } from './list.js';
import { registerShow } from './show.js';
import { registerStats } from './stats.js';
import { registerUpdate } from './update.js';

export function registerReports(program: ParentCommand, invocation: Invocation): void {
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
  registerList(reports, invocation);
  registerShow(reports, invocation);
  registerCreate(reports, invocation);
  registerUpdate(reports, invocation);
  registerDelete(reports, invocation);
  registerStats(reports, invocation);
}
