// list_reports: the filters of `reports list`, compact rows, a slice of `limit` and a cursor for the next.
import { reportListSilences } from '../../api/list-silences.js';
import { REPORT_SORT_FIELDS, RESULTS, SORT_DIRECTIONS, type ReportListParams } from '../../api/reports.js';
import { declareList } from '../../cli/commands/reports/list.js';
import { filterParams } from '../../cli/flags/report-filters.js';
import { optionArg } from '../arguments.js';
import { declared, flagOf } from '../declarations.js';
import { PAGING_ARGS, pagedAnswer } from '../paged.js';
import { reportRow } from '../report-rows.js';
import { defineTool } from '../tool.js';

const NAME = 'list_reports';
const list = declared(declareList);

type Filters = Pick<ReportListParams, 'search' | 'project' | 'result' | 'sortBy' | 'sort'>;

export const listReports = defineTool({
  name: NAME,
  description:
    'List reports, filtered as `rsapi reports list`: rows {id, url, score, result, failed (ids of failed checks; null when the service has no per-check results)}. ' +
    'Answers `limit` rows and a next_cursor while more remain.',
  args: [
    optionArg(flagOf(list, '--search'), 'search'),
    optionArg(flagOf(list, '--project'), 'project'),
    optionArg(flagOf(list, '--result'), 'result', RESULTS),
    optionArg(flagOf(list, '--sort-by'), 'sort_by', REPORT_SORT_FIELDS),
    optionArg(flagOf(list, '--sort'), 'sort', SORT_DIRECTIONS),
    ...PAGING_ARGS,
  ],
  writes: false,
  hints: { readOnlyHint: true },
  async run(call, args) {
    const given: Filters = { search: args.search, project: args.project, result: args.result, sortBy: args.sort_by, sort: args.sort };
    return pagedAnswer(
      NAME,
      'reports',
      args,
      given,
      (filters, perPage) => {
        // The filters as `reports list` sends them (a Unicode host in punycode, as create stored it).
        const params: ReportListParams = { ...filterParams(filters), sortBy: filters.sortBy, sort: filters.sort, perPage };
        const client = call.ctx.client();
        return { pages: (startPage) => client.reports.pages(params, { startPage, all: true, concurrency: 1 }), silences: reportListSilences(params) };
      },
      reportRow,
    );
  },
});
