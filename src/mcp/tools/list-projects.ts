// list_projects: the search and sort of `projects list`, rows {project, reports, average, created_at}, a cursor for more.
import { PROJECT_SORT_FIELDS, type ProjectListParams } from '../../api/projects.js';
import { SORT_DIRECTIONS } from '../../api/list-params.js';
import { projectListSilences } from '../../api/list-silences.js';
import { toNumber, type ApiRecord } from '../../api/model/record.js';
import { projectAverage } from '../../api/model/project-model.js';
import { declareList, planProjectsList } from '../../cli/commands/projects/list.js';
import { optionArg } from '../arguments.js';
import { declared, flagOf } from '../declarations.js';
import { PAGING_ARGS, pagedAnswer } from '../paged.js';
import { defineTool } from '../tool.js';

const NAME = 'list_projects';
const list = declared(declareList);

type Filters = Pick<ProjectListParams, 'search' | 'sortBy' | 'sort'>;

/** A project as phpRank groups reports by host: how many, and their average score (null when the service does not say). */
function projectRow(record: ApiRecord): Record<string, unknown> {
  return {
    project: record.project ?? record.name ?? null,
    reports: toNumber(record.reports) ?? null,
    average: projectAverage(record) ?? null,
    created_at: record.created_at ?? null,
  };
}

export const listProjects = defineTool({
  name: NAME,
  description: 'List projects (the sites reports are grouped by): rows {project, reports, average score, created_at}, `limit` at a time with a next_cursor.',
  args: [
    optionArg(flagOf(list, '--search'), 'search'),
    optionArg(flagOf(list, '--sort-by'), 'sort_by', PROJECT_SORT_FIELDS),
    optionArg(flagOf(list, '--sort'), 'sort', SORT_DIRECTIONS),
    ...PAGING_ARGS,
  ],
  writes: false,
  hints: { readOnlyHint: true },
  async run(call, args) {
    const given: Filters = { search: args.search, sortBy: args.sort_by, sort: args.sort };
    return pagedAnswer(
      NAME,
      'projects',
      args,
      given,
      (filters, perPage) => {
        // The request `projects list` plans for the same flags (a Unicode host searched in punycode, as create stored it).
        const { params } = planProjectsList(call.ctx, { ...filters, perPage });
        const client = call.ctx.client();
        return { pages: (startPage) => client.projects.pages(params, { startPage, all: true, concurrency: 1 }), silences: projectListSilences(params) };
      },
      projectRow,
    );
  },
});
