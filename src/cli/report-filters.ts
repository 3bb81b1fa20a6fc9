// The flags that choose which reports: shared by `reports list` and `reports stats`.
import { Option, type Command } from 'commander';
import { RESULTS, type ReportListParams } from '../api/reports.js';

export interface ReportFilterFlags {
  search?: string;
  searchBy?: 'url';
  project?: string;
  result?: ReportListParams['result'];
}

/** --search, --search-by, --project, --result. */
export function addReportFilterOptions(command: Command): Command {
  return command
    .option('--search <query>', 'search the URL for this text')
    .addOption(new Option('--search-by <field>', 'field the search applies to').choices(['url']))
    .option('--project <name>', 'only reports of this project')
    .addOption(new Option('--result <result>', 'only reports with this result').choices(RESULTS));
}

/** The filters as list parameters: only what the user set. */
export function filterParams(flags: ReportFilterFlags): ReportListParams {
  return { search: flags.search, searchBy: flags.searchBy, project: flags.project, result: flags.result };
}
