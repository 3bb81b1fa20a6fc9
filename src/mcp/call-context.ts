// One tool call's CommandContext: the server's settings, client (one connection pool, one pacing) and secrets, with
// stdout and stderr of its own, so a CLI run called by a tool never writes onto the protocol.
import { Readable } from 'node:stream';
import type { ApiClient } from '../api/client.js';
import { CommandContext, type GlobalOptions } from '../cli/runtime/context.js';
import { ExitCode } from '../cli/runtime/exit-codes.js';
import type { Invocation } from '../cli/runtime/invocation.js';
import { StdoutState } from '../cli/terminal/stdout-gone.js';
import type { Terminal } from '../cli/terminal/terminal.js';

/** At most this many of a run's stderr lines go into an answer (a bulk run's are per URL). */
const MAX_NOTES = 20;

/**
 * A context whose client is the server's: every call shares its connection pool and its rate-limit pacing, as the
 * requests of one CLI run do. Output flags are the MCP's own: JSON, whole records, no terminal.
 */
class ToolContext extends CommandContext {
  constructor(
    invocation: Invocation,
    globals: GlobalOptions,
    private readonly server: CommandContext,
  ) {
    super(invocation, globals);
  }

  override client(): ApiClient {
    return this.server.client();
  }
}

export class ToolCall {
  readonly ctx: CommandContext;
  private readonly err: string[] = [];
  private readonly hidden = new Map<string, string>();

  /** `signal`: the client cancelled the call (notifications/cancelled) or the server is closing. */
  constructor(server: CommandContext, signal: AbortSignal) {
    const capture = (into: string[]) => ({ write: (chunk: string) => void into.push(chunk) });
    const terminal: Terminal = {
      // What a run prints is for a person: a tool answers from the values its run returns, never by parsing this.
      stdout: { write: () => true },
      stderr: server.secrets.redactedSink(capture(this.err)),
      // A tool's run reads nothing from stdin: stdin is the protocol's.
      stdin: Readable.from([]),
      stdoutIsTTY: false,
      stderrIsTTY: false,
      stdinIsTTY: false,
      columns: undefined,
      env: server.io.env,
    };
    const invocation: Invocation = {
      io: terminal,
      clock: server.clock,
      signal: AbortSignal.any([server.signal, signal]),
      secrets: server.secrets,
      stdoutState: new StdoutState(),
      locks: server.locks,
      exitCode: ExitCode.ok,
    };
    const globals: GlobalOptions = { ...server.globals, output: 'json', json: undefined, jq: undefined, fields: undefined, quiet: undefined, wide: undefined };
    this.ctx = new ToolContext(invocation, globals, server);
  }

  /**
   * A local path no answer shows (a journal's, the history's: the client's model needs none, and they tell of the
   * user's machine): said as `name` instead.
   */
  hidePath(path: string, name: string): void {
    if (path.trim() !== '') this.hidden.set(path, name);
  }

  /** Text with each hidden path said by its name (the longest first: a journal's path holds the data folder's). */
  withoutPaths(text: string): string {
    return [...this.hidden].sort(([a], [b]) => b.length - a.length).reduce((out, [path, name]) => out.replaceAll(path, name), text);
  }

  /** What the call's runs said on stderr (warnings, per-item failures), one entry a line, the last MAX_NOTES of them. */
  notes(): string[] {
    const lines = this.err
      .join('')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => this.withoutPaths(line));
    return lines.length > MAX_NOTES ? [`(${lines.length - MAX_NOTES} earlier lines left out)`, ...lines.slice(-MAX_NOTES)] : lines;
  }
}
