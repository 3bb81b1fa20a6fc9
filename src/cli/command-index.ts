// The top-level commands as the root help lists them (name, aliases, summary, the term of their usage), and how to load
// each one's declaration. The root help, an unknown command's suggestion and `rsapi --help` need only this: a run loads
// the declarations of the command it names and no other (start-up). test/cli/command-index.test.ts holds every entry
// equal to the declaration it stands for.
import type { Invocation, ParentCommand } from './runtime/handler.js';

export interface TopCommand {
  name: string;
  aliases: readonly string[];
  summary: string;
  /** How the root help's command list shows it, as commander would from the declaration. */
  term: string;
  load(): Promise<Register>;
}

/** Declares a command under `parent`; a noun given `declaring` declares in full only the verbs it wants. */
export type Register = (parent: ParentCommand, invocation: Invocation, declaring?: Declaring) => void | Promise<void>;

/** How a noun declares its verbs: the ones `wanted` in full, the others as stubs that its help lists (`stub`). */
export interface Declaring {
  wanted(verb: TopCommand): boolean;
  stub(parent: ParentCommand, verb: TopCommand): void;
}

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
    load: async () => (await import('./commands/reports/list.js')).registerList,
  },
  {
    name: 'show',
    aliases: ['get', 'view'],
    summary: 'Show one report',
    term: 'show|get [options] [id]',
    load: async () => (await import('./commands/reports/show.js')).registerShow,
  },
  {
    name: 'create',
    aliases: [],
    summary: 'Create a report for each URL (the service fetches and audits each page)',
    term: 'create [options] [urls...]',
    load: async () => (await import('./commands/reports/create/create.js')).registerCreate,
  },
  {
    name: 'update',
    aliases: [],
    summary: "Change a report's privacy or password, or regenerate it with --refresh",
    term: 'update [options] <id>',
    load: async () => (await import('./commands/reports/update.js')).registerUpdate,
  },
  {
    name: 'delete',
    aliases: ['rm'],
    summary: 'Delete reports (asks first on a terminal; scripts pass --yes)',
    term: 'delete|rm [options] <ids...>',
    load: async () => (await import('./commands/reports/delete.js')).registerDelete,
  },
  {
    name: 'stats',
    aliases: [],
    summary: 'Counts per result, score min/median/mean/max and a histogram of every matching report',
    term: 'stats [options]',
    load: async () => (await import('./commands/reports/stats.js')).registerStats,
  },
];

export const TOP_COMMANDS: readonly TopCommand[] = [
  {
    name: 'reports',
    aliases: ['report'],
    summary: 'List, show, create, update and delete reports; stats over them',
    term: 'reports|report',
    load: async () => (await import('./commands/reports/index.js')).registerReports,
  },
  {
    name: 'projects',
    aliases: ['project'],
    summary: 'List and delete projects',
    term: 'projects|project',
    load: async () => (await import('./commands/projects/index.js')).registerProjects,
  },
  {
    name: 'history',
    aliases: [],
    summary: 'Recorded runs (--record): list them, trends, what changed between two runs',
    term: 'history',
    load: async () => (await import('./commands/history/index.js')).registerHistory,
  },
  {
    name: 'auth',
    aliases: [],
    summary: 'Log in, check and forget the API key; switch between profiles',
    term: 'auth',
    load: async () => (await import('./commands/auth/index.js')).registerAuth,
  },
  {
    name: 'config',
    aliases: [],
    summary: 'Read and change stored settings of a profile (--profile)',
    term: 'config',
    load: async () => (await import('./commands/config/index.js')).registerConfig,
  },
  {
    name: 'api',
    aliases: [],
    summary: 'Send any request under the base URL and print the raw JSON',
    term: 'api [options] <method> <path>',
    load: async () => (await import('./commands/api/api.js')).registerApi,
  },
  {
    name: 'mcp',
    aliases: [],
    summary: 'Serve the reports to an agent: a Model Context Protocol server on stdio (read-only unless --allow-write)',
    term: 'mcp [options]',
    load: async () => (await import('./commands/mcp.js')).registerMcp,
  },
  {
    name: 'completion',
    aliases: [],
    summary: 'Print a shell completion script (commands, flags, allowed values)',
    term: 'completion <shell>',
    load: async () => (await import('./commands/completion.js')).registerCompletion,
  },
  {
    name: 'mock-server',
    aliases: [],
    summary: 'Run the bundled mock service on loopback (in memory, seeded, with optional faults)',
    term: 'mock-server [options]',
    load: async () => (await import('./commands/mock-server.js')).registerMockServer,
  },
];

/** A top-level command by name or alias. */
export function topCommand(word: string): TopCommand | undefined {
  return TOP_COMMANDS.find((command) => command.name === word || command.aliases.includes(word));
}
