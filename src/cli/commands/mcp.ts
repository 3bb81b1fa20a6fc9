// `rsapi mcp`: an MCP server on stdio for agents, over this CLI's client, profiles and record model (src/mcp/).
import type { CommandContext } from '../runtime/context.js';
import { UsageError } from '../runtime/errors.js';
import { handle, type ParentCommand, type OptionsOf, type Invocation } from '../runtime/handler.js';

function declareMcp(program: ParentCommand) {
  return program
    .command('mcp')
    .description('Serve the reports to an agent: a Model Context Protocol server on stdio (read-only unless --allow-write)')
    .option('--allow-write', 'also offer the tools that change the service: create_reports, refresh_reports, delete_reports');
}

export type McpOptions = OptionsOf<ReturnType<typeof declareMcp>>;

export function registerMcp(program: ParentCommand, invocation: Invocation): void {
  const command = declareMcp(program);
  command.addHelpText(
    'after',
    `
An MCP client starts it and talks JSON-RPC on its stdin and stdout; diagnostics go to stderr. It uses the same
profile, base URL and key as every command (--profile, RSAPI_BASE_URL, RSAPI_API_KEY, \`rsapi auth login\`) and
never shows the key. docs/mcp.md (in the source repository) has the client configurations and the tools.

Examples:
  $ rsapi mcp                              # read tools: list_reports, get_report, report_stats, ...
  $ rsapi mcp --allow-write                # and create_reports, refresh_reports, delete_reports
  $ rsapi mcp --profile staging

A client's configuration:
  {"mcpServers": {"rsapi": {"command": "rsapi", "args": ["mcp"]}}}`,
  );
  handle(invocation, command, { plan: planMcp, run: runMcp });
}

/** What `rsapi mcp` serves: the read tools, and with --allow-write the tools that change the service. */
export interface McpPlan {
  allowWrite: boolean;
}

/** Every check of `rsapi mcp` that needs no network: stdout carries the protocol, so no output flag applies. */
export function planMcp(ctx: CommandContext, opts: McpOptions): McpPlan {
  const { json, output, quiet, fields, jq } = ctx.globals;
  if (json || output || quiet || fields || jq !== undefined) {
    throw new UsageError('output flags (-o, --json, --fields, -q, --jq) do not apply to rsapi mcp: its stdout carries the protocol', {
      hint: 'leave them out; every tool answers in compact JSON',
    });
  }
  return { allowWrite: opts.allowWrite === true };
}

/**
 * A request's timeout for the server unless one is set (--timeout, RSAPI_TIMEOUT, the profile): with the two retries,
 * a stalled service is a tool error within about 50 s, before an MCP client gives up on the call (the SDK: 60 s). The
 * CLI's 30 s took 90 s, and the client had gone.
 */
export const MCP_TIMEOUT_SECONDS = 15;

/** Serves MCP on stdin and stdout until the client closes stdin (or Ctrl-C); the SDK loads only here. */
export async function runMcp(ctx: CommandContext, plan: McpPlan) {
  useMcpTimeout(ctx);
  const { serveMcp } = await import('../../mcp/server.js');
  return serveMcp(ctx, { allowWrite: plan.allowWrite });
}

/** Sets MCP_TIMEOUT_SECONDS as the run's timeout when none is given. */
export function useMcpTimeout(ctx: CommandContext): void {
  const given = ctx.globals.timeout ?? ctx.io.env.RSAPI_TIMEOUT ?? ctx.settings().stored.timeout;
  if (given === undefined) ctx.globals.timeout = MCP_TIMEOUT_SECONDS;
}
