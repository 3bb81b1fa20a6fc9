// The flags that choose which reports: shared by `reports list` and `reports stats`.
import { Option, type Command, type OptionValues } from '@commander-js/extra-typings';
import type { DeclaredOptions } from './options.js';
import { RESULTS, type ReportListParams } from '../../api/reports.js';
import { filterTermForService } from '../../api/model/report-url.js';

/** --search, --search-by, --project, --result. */
export function addReportFilterOptions<Args extends unknown[], Opts extends OptionValues, GlobalOpts extends OptionValues>(
  command: Command<Args, Opts, GlobalOpts>,
) {
  return command
    .option('--search <query>', 'search the URL for this text')
    .addOption(new Option('--search-by <field>', 'field the search applies to').choices(['url'] as const))
    .option('--project <name>', 'only reports of this project')
    .addOption(new Option('--result <result>', 'only reports with this result').choices(RESULTS));
}

export type ReportFilterFlags = DeclaredOptions<typeof addReportFilterOptions<[], {}, {}>>;

/** The filters as list parameters: only what the user set; a host outside ASCII as the service stores it (punycode). */
export function filterParams(flags: ReportFilterFlags): ReportListParams {
  const ascii = (term: string | undefined) => (term === undefined ? undefined : filterTermForService(term));
  return { search: ascii(flags.search), searchBy: flags.searchBy, project: ascii(flags.project), result: flags.result };
}
