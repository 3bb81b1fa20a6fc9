// What a tool of the table is: its name, description and arguments (for tools/list), whether it writes, its hints,
// and its run over one call's context.
import type { ArgValues, ToolArg } from './arguments.js';
import type { ToolCall } from './call-context.js';

/** The hints MCP clients show and act on (a client may ask before a destructive call). */
export interface ToolHints {
  readOnlyHint: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** What a run answers: a value (made compact JSON), and whether the call failed in part (a bulk write's failures). */
export interface ToolAnswer {
  value: unknown;
  isError?: boolean;
}

export interface McpTool<Args extends readonly ToolArg[] = readonly ToolArg[]> {
  readonly name: string;
  /** One or two sentences: a client sends every tool's description to the model on every turn. */
  readonly description: string;
  readonly args: Args;
  /** Changes the service: offered only by `rsapi mcp --allow-write`. */
  readonly writes: boolean;
  /** Reads the history (a run, a diff, a trend): the server runs a few such calls at once and queues the rest. */
  readonly readsHistory?: boolean;
  readonly hints: ToolHints;
  run(call: ToolCall, args: ArgValues<Args>): Promise<ToolAnswer>;
}

/** A tool, its run's arguments typed from its argument list. */
export function defineTool<const Args extends readonly ToolArg[]>(tool: McpTool<Args>): McpTool {
  return tool as unknown as McpTool;
}
