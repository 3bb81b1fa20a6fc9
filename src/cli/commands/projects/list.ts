// `rsapi projects list`: search, sorting and paging mapped to GET /projects.
import { Option } from '@commander-js/extra-typings';
import { PROJECT_SORT_FIELDS, type ProjectListParams } from '../../../api/projects.js';
import type { CommandContext } from '../../runtime/context.js';
import { handle, type ParentCommand, type OptionsOf, type Invocation } from '../../runtime/handler.js';
import { printPages } from '../../reading/listing.js';
import { projectListSilences } from '../../../api/list-silences.js';
import { filterTermForService } from '../../../api/model/report-url.js';
import { addPagingOptions, addSortOption, pagingOptions } from '../../flags/verb-options.js';
import type { PagingOptions } from '../../../api/http/paging.js';

export function declareList(projects: ParentCommand) {
  const command = projects
    .command('list')
    .alias('ls')
    .description('List projects')
    .option('--search <query>', 'search project names for this text')
    .addOption(new Option('--search-by <field>', 'field the search applies to').choices(['project'] as const))
    .addOption(new Option('--sort-by <field>', 'sort field').choices(PROJECT_SORT_FIELDS));
  return addPagingOptions(addSortOption(command));
}

export type ProjectsListOptions = OptionsOf<ReturnType<typeof declareList>>;

export function registerList(projects: ParentCommand, invocation: Invocation): void {
  const command = declareList(projects);
  command.addHelpText(
    'after',
    `
Examples:
  $ rsapi projects list
  $ rsapi projects list --search example --sort-by project --sort asc
  $ rsapi projects list --all -q`,
  );
  handle(invocation, command, { plan: planProjectsList, run: runProjectsList });
}

/** What `projects list` will do: the request and the paging. */
export interface ProjectsListPlan {
  params: ProjectListParams;
  paging: PagingOptions & { all: boolean };
}

/** Every check of `projects list` that needs no network, and what the run will ask for. */
export function planProjectsList(ctx: CommandContext, opts: ProjectsListOptions): ProjectsListPlan {
  ctx.checkOutputFlags();
  const params: ProjectListParams = {
    // A host outside ASCII as the service stores it (punycode), as create sends it.
    search: opts.search === undefined ? undefined : filterTermForService(opts.search),
    searchBy: opts.searchBy,
    sortBy: opts.sortBy,
    sort: opts.sort,
    perPage: opts.perPage,
  };
  return { params, paging: pagingOptions(opts) };
}

/** Lists the projects, one page or all of them. */
export async function runProjectsList(ctx: CommandContext, plan: ProjectsListPlan) {
  const { params, paging } = plan;
  return printPages(ctx, 'project', ctx.client().projects.pages(params, paging), { paging, silences: projectListSilences(params) });
}
