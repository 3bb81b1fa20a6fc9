// The verbs of `rsapi history` as its help lists them (name, aliases, summary, usage term), and how to load each one's
// declaration: a run of one verb declares that verb alone (program.ts). test/cli/command-index.test.ts holds every
// entry equal to its declaration.
import type { TopCommand } from '../command-types.js';

/**
 * The verbs of `rsapi history`, as `rsapi history --help` lists them: a run declares in full only the verb it names
 * (`history trend` loads neither merge's parts nor the CI files of diff), the others stand as stubs.
 */
export const HISTORY_VERBS: readonly TopCommand[] = [
  {
    name: 'runs',
    aliases: [],
    summary: 'List the recorded runs, newest first',
    term: 'runs [options]',
    load: async () => (await import('./runs.js')).registerRuns,
  },
  {
    name: 'show',
    aliases: [],
    summary: 'The reports one recorded run read',
    term: 'show [options] <run>',
    load: async () => (await import('./show.js')).registerShow,
  },
  {
    name: 'trend',
    aliases: [],
    summary: "A page's (or a project's, or a job's) score and failed checks over the recorded runs",
    term: 'trend [options] [url]',
    load: async () => (await import('./trend.js')).registerTrend,
  },
  {
    name: 'diff',
    aliases: [],
    summary: 'What changed between two recorded runs: checks newly failing, fixed, scores, new and vanished URLs',
    term: 'diff [options] [a] [b]',
    load: async () => (await import('./diff.js')).registerDiff,
  },
  {
    name: 'prune',
    aliases: [],
    summary: 'Remove older runs, and the snapshots no remaining run references',
    term: 'prune [options]',
    load: async () => (await import('./prune.js')).registerPrune,
  },
  {
    name: 'export',
    aliases: [],
    summary: 'Write every run and its snapshots as ndjson (one run a line), for `history import`',
    term: 'export [options]',
    load: async () => (await import('./export.js')).registerExport,
  },
  {
    name: 'import',
    aliases: [],
    summary: 'Add the runs of a `history export` file (- for stdin) to this history',
    term: 'import [options] <file>',
    load: async () => (await import('./import.js')).registerImport,
  },
  {
    name: 'merge',
    aliases: [],
    summary: "Join the run parts of one pipeline's shards (--part) into one recorded run, and judge it as any run",
    term: 'merge [options] [parts...]',
    load: async () => (await import('./merge.js')).registerMerge,
  },
  {
    name: 'html',
    aliases: [],
    summary: "Write one self-contained HTML page of every job's runs: charts, failing checks, page trends, any two runs compared",
    term: 'html [options] <file>',
    load: async () => (await import('./html/html.js')).registerHtml,
  },
];
