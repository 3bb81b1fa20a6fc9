// The top-level commands as the root help lists them (name, aliases, summary, the term of their usage), and how to load
// each one's declaration. The root help, an unknown command's suggestion and `rsapi --help` need only this: a run loads
// the declarations of the command it names and no other (start-up). test/cli/command-index.test.ts holds every entry
// equal to the declaration it stands for.
import type { TopCommand } from './commands/command-types.js';
import { HISTORY_VERBS } from './commands/history/verbs.js';
import { REPORT_VERBS } from './commands/reports/verbs.js';

export type { Declaring, Register, TopCommand } from './commands/command-types.js';

export const TOP_COMMANDS: readonly TopCommand[] = [
  {
    name: 'reports',
    aliases: ['report'],
    summary: 'List, show, create, update and delete reports; stats over them',
    term: 'reports|report',
    load: async () => (await import('./commands/reports/index.js')).registerReports,
    verbs: REPORT_VERBS,
  },
  {
    name: 'audit',
    aliases: [],
    summary: "Audit a site's pages as a scheduled job: refresh each report, record the run, fail on what got worse since the job's last run",
    term: 'audit [options]',
    load: async () => (await import('./commands/audit/audit.js')).registerAudit,
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
    verbs: HISTORY_VERBS,
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
