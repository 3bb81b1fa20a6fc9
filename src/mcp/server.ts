// The MCP server of `rsapi mcp`: the SDK's server on stdio (stdio.ts) over the tool table, each call run in a context of its own
// (call-context.ts) and answered within the size budget; ends when the client closes stdin, or on Ctrl-C.
import type { Readable, Writable } from 'node:stream';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { UsageError } from '../errors.js';
import type { CommandContext } from '../cli/runtime/context.js';
import { ExitCode, type ExitCodeValue } from '../cli/runtime/exit-codes.js';
import { nearest } from '../suggest.js';
import { VERSION } from '../version.js';
import { checkArguments, inputSchema } from './arguments.js';
import { ToolCall } from './call-context.js';
import { dataDir } from '../config/paths.js';
import { resolveHistoryLocation } from '../cli/reading/history-place.js';
import type { HistoryLocation } from '../history/location.js';
import { LineTransport } from './stdio.js';
import { errorResult, valueResult, withinBudget, type ToolResult } from './results.js';
import { inToolWords } from './tool-words.js';
import type { McpTool } from './tool.js';
import { TOOLS } from './tools.js';

export interface McpServeOptions {
  /** Offer the tools that change the service. */
  allowWrite: boolean;
}

const INSTRUCTIONS =
  'Webpage audit reports of a phpRank service (or the Webpage Report Service API): list, read and sum them up. ' +
  'A report has a result (good, decent, bad) and a score 0-100; phpRank reports also have per-check results.';

/** What tools/list says of a tool. */
export function listing(tool: McpTool): Record<string, unknown> {
  return { name: tool.name, description: tool.description, inputSchema: inputSchema(tool.args), annotations: tool.hints };
}

/** The tools offered: the reads, and the writes with --allow-write. */
export function offeredTools(options: McpServeOptions): McpTool[] {
  return TOOLS.filter((tool) => options.allowWrite || !tool.writes);
}

/**
 * Serves until stdin ends (the client is done: the calls under way still answer) or Ctrl-C (the calls under way are
 * told to start nothing new, a bulk create's requests in flight end as in the CLI); then closes.
 */
export async function serveMcp(ctx: CommandContext, options: McpServeOptions): Promise<ExitCodeValue> {
  const tools = offeredTools(options);
  const server = new Server({ name: 'rsapi', version: VERSION }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  const calls = new Set<Promise<unknown>>();
  const closing = new AbortController();
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.map(listing) }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    const answer = callTool(ctx, tools, request.params.name, request.params.arguments, AbortSignal.any([extra.signal, closing.signal]));
    calls.add(answer);
    return answer.finally(() => calls.delete(answer));
  });
  const transport = new LineTransport(ctx.io.stdin as Readable, ctx.io.stdout as unknown as Writable);
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
  });
  server.onerror = (error) => ctx.note(`rsapi: mcp: ${error.message}`);
  await server.connect(transport);
  const finish = async (interrupted: boolean) => {
    if (interrupted) closing.abort();
    // A request read just before the end starts its handler a turn later, and its answer is sent a turn after the
    // handler ends: wait for both before closing the transport.
    do {
      await new Promise((resolve) => setImmediate(resolve));
      await Promise.allSettled([...calls]);
    } while (calls.size > 0);
    await new Promise((resolve) => setImmediate(resolve));
    await server.close();
  };
  const stop = () => void finish(true);
  ctx.io.stdin.once('end', () => void finish(false));
  ctx.signal.addEventListener('abort', stop, { once: true });
  ctx.note(`rsapi: mcp server ready on stdio (${tools.length} tools${options.allowWrite ? ', writes allowed' : ', read-only'})`);
  await closed;
  ctx.signal.removeEventListener('abort', stop);
  return ctx.signal.aborted ? ExitCode.interrupted : ExitCode.ok;
}

/**
 * How many calls of the history's tools a server runs at once; the others wait their turn, in the order they came.
 * Eight `history_diff` calls at once over two runs of 100,000 reports each took the whole heap (1.7 GB) and the server
 * with it, losing all eight answers; queued, each is answered.
 */
export const HISTORY_CALLS_AT_ONCE = 2;

/** At most `size` holders at once; the others wait, first come first served. */
class Turns {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly size: number) {}

  /** Resolves with the turn's release once it is this caller's turn. */
  async take(): Promise<() => void> {
    if (this.running >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      // The turn passes straight to the next waiting call, if any: `running` stays counted for it.
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    };
  }
}

/** Each server's turns for the history's tools (by its context: a test may run several servers in one process). */
const historyTurns = new WeakMap<CommandContext, Turns>();

function historyTurnsOf(server: CommandContext): Turns {
  let turns = historyTurns.get(server);
  if (!turns) {
    turns = new Turns(HISTORY_CALLS_AT_ONCE);
    historyTurns.set(server, turns);
  }
  return turns;
}

/** One tools/call: its arguments checked, its run in a context of its own, its answer bounded; any failure a tool error. */
export async function callTool(server: CommandContext, offered: readonly McpTool[], name: string, given: unknown, signal: AbortSignal): Promise<ToolResult> {
  const tool = offered.find((candidate) => candidate.name === name);
  if (!tool?.readsHistory) return runTool(server, offered, name, given, signal);
  const release = await historyTurnsOf(server).take();
  try {
    return await runTool(server, offered, name, given, signal);
  } finally {
    // The turn passes on a turn of the event loop later: the answer is written first (the SDK sends it on promises
    // alone), not after the next call's synchronous start (its history opened, its runs' rows sorted).
    setImmediate(release);
  }
}

async function runTool(server: CommandContext, offered: readonly McpTool[], name: string, given: unknown, signal: AbortSignal): Promise<ToolResult> {
  const tool = offered.find((candidate) => candidate.name === name);
  if (!tool) {
    const writer = TOOLS.find((candidate) => candidate.name === name && candidate.writes);
    if (writer) {
      return errorResult(
        new UsageError(`${name} changes the service, and this server is read-only`, {
          hint: 'start it as `rsapi mcp --allow-write` (in the client\'s configuration: "args": ["mcp", "--allow-write"])',
        }),
        server.secrets,
      );
    }
    const near = nearest(
      name,
      offered.map((candidate) => candidate.name),
    );
    throw new McpError(ErrorCode.InvalidParams, `no tool named ${name}${near ? `; did you mean ${near}?` : ''}`);
  }
  const call = new ToolCall(server, signal);
  hideLocalPaths(call, server);
  const started = performance.now();
  let result: ToolResult | undefined;
  try {
    const args = checkArguments(tool.name, tool.args, given);
    const answer = await tool.run(call, args);
    result = valueResult(answer.value, server.secrets, { isError: answer.isError });
  } catch (error) {
    result = errorResult(error, server.secrets);
    result = { ...result, content: result.content.map((block) => ({ ...block, text: inToolWords(block.text, tool.args) })) };
  } finally {
    await call.ctx.close();
  }
  result = withinBudget({ ...result, content: result.content.map((block) => ({ ...block, text: call.withoutPaths(block.text) })) });
  // --verbose: each call in the log beside its requests (the tool's name, never its arguments or answer).
  if (server.globals.verbose) {
    const size = Buffer.byteLength(result.content[0]?.text ?? '');
    server.note(`< ${tool.name}: ${result.isError ? 'error' : 'ok'}, ${size} bytes in ${Math.round(performance.now() - started)} ms`);
  }
  return result;
}

/** The server's local folders and files, said by name in any answer (a journal's path too: it lies in the data folder). */
function hideLocalPaths(call: ToolCall, server: CommandContext): void {
  call.hidePath(dataDir(server.io.env), '<rsapi data folder>');
  let history: HistoryLocation | undefined;
  try {
    history = resolveHistoryLocation(server, {});
  } catch {
    // A history setting that cannot be read: the history tools say so in their own error.
  }
  if (history?.kind === 'sqlite') {
    call.hidePath(history.path, '<history>');
    call.hidePath(history.shown, '<history>');
  }
}
