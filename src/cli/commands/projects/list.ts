// `rsapi projects list`: search, sorting and paging mapped to GET /projects.
import { Option, type Command } from 'commander';
import { PROJECT_SORT_FIELDS, type ProjectListParams } from '../../../api/projects.js';
import { handle } from '../../handler.js';
import { printPages } from '../../listing.js';
import { addPagingOptions, addSortOption, pagingOptions, type PagingFlags } from '../../options.js';

interface ListFlags extends PagingFlags {
  search?: string;
  searchBy?: 'project';
  sortBy?: ProjectListParams['sortBy'];
  sort?: ProjectListParams['sort'];
}

export function registerList(projects: Command): void {
  const command = projects
    .command('list')
    .alias('ls')
    .description('List projects')
    .option('--search <query>', 'search project names for this text')
    .addOption(new Option('--search-by <field>', 'field the search applies to').choices(['project']))
    .addOption(new Option('--sort-by <field>', 'sort field').choices(PROJECT_SORT_FIELDS));
  addSortOption(command);
  addPagingOptions(command);
  command.addHelpText(
    'after',
    `
Examples:
  $ rsapi projects list
  $ rsapi projects list --search example --sort-by project --sort asc
  $ rsapi projects list --all -q`,
  );
  handle(command, async (ctx, self) => {
    const flags = self.opts<ListFlags>();
    const params: ProjectListParams = {
      search: flags.search,
      searchBy: flags.searchBy,
      sortBy: flags.sortBy,
      sort: flags.sort,
      perPage: flags.perPage,
    };
    const paging = pagingOptions(flags);
    return printPages(ctx, 'project', ctx.client().projects.pages(params, paging), { paging });
  });
}
