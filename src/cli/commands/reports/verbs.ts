// The verbs of `rsapi reports` as its help lists them (name, aliases, summary, usage term), and how to load each one's
// declaration: a run of one verb declares that verb alone (program.ts). test/cli/command-index.test.ts holds every
// entry equal to its declaration.
import type { TopCommand } from '../command-types.js';

/**
 * The verbs of `rsapi reports`, as `rsapi reports --help` lists them: a run declares in full only the verb it names
 * (`reports list` loads neither create's journal nor stats), the others stand as stubs.
 */
export const REPORT_VERBS: readonly TopCommand[] = [
  {
    name: 'list',
    aliases: ['ls'],
    summary: 'List reports, one page at a time (or all of them with --all)',
    term: 'list|ls [options]',
    load: async () => (await import('./list.js')).registerList,
  },
  {
    name: 'show',
    aliases: ['get', 'view'],
    summary: 'Show one report',
    term: 'show|get [options] [id]',
    load: async () => (await import('./show.js')).registerShow,
  },
  {
    name: 'create',
    aliases: [],
    summary: 'Create a report for each URL (the service fetches and audits each page)',
    term: 'create [options] [urls...]',
    load: async () => (await import('./create/create.js')).registerCreate,
  },
  {
    name: 'update',
    aliases: [],
    summary: "Change a report's privacy or password, or regenerate it with --refresh",
    term: 'update [options] <id>',
    load: async () => (await import('./update.js')).registerUpdate,
  },
  {
    name: 'delete',
    aliases: ['rm'],
    summary: 'Delete reports (asks first on a terminal; scripts pass --yes)',
    term: 'delete|rm [options] <ids...>',
    load: async () => (await import('./delete.js')).registerDelete,
  },
  {
    name: 'stats',
    aliases: [],
    summary: 'Counts per result, score min/median/mean/max and a histogram of every matching report',
    term: 'stats [options]',
    load: async () => (await import('./stats.js')).registerStats,
  },
];
