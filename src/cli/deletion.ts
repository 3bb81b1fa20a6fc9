// Deleting one or many reports or projects: confirmation, every item tried, an outcome line each, the first failure's code.
import { ExitCode, RsapiError, type ExitCodeValue } from '../api/errors.js';
import type { DeleteResult } from '../api/reports.js';
import type { CommandContext } from './context.js';
import { confirmOrRefuse } from './prompts.js';
import { listLines } from './files.js';
import { readAll } from './terminal.js';
import { singleLine, terminalText } from '../output/terminal-text.js';

export interface DeleteRun {
  /** 'report' or 'project', for messages. */
  noun: string;
  /** Arguments as given; `-` reads more from stdin, one a line. */
  args: string[];
  yes: boolean | undefined;
  validate?: (value: string) => string;
  remove: (id: string) => Promise<DeleteResult>;
}

export async function deleteEach(ctx: CommandContext, run: DeleteRun): Promise<ExitCodeValue> {
  const ids = await expandStdin(ctx, run.args);
  const validated = ids.map((id) => (run.validate ? run.validate(id) : id));
  const unique = [...new Set(validated)];
  const what = unique.length === 1 ? `${run.noun} ${unique[0]}` : `${unique.length} ${run.noun}s (${unique.join(', ')})`;
  if (!(await confirmOrRefuse(ctx.io, run.yes, `Delete ${terminalText(what)}? This cannot be undone.`))) {
    ctx.note('rsapi: nothing deleted');
    return ExitCode.ok;
  }
  let failure: ExitCodeValue | undefined;
  for (const id of unique) {
    try {
      const result = await run.remove(id);
      ctx.note(`deleted ${run.noun} ${id}${result.goneAfterRetry ? ' (confirmed on retry)' : ''}`);
      if (ctx.globals.quiet) ctx.io.stdout.write(`${ctx.io.stdoutIsTTY ? terminalText(id) : singleLine(id)}\n`);
    } catch (error) {
      if (!(error instanceof RsapiError) || error.exitCode === ExitCode.interrupted) throw error;
      ctx.note(`rsapi: ${run.noun} ${id}: ${error.message}`);
      failure ??= error.exitCode;
    }
  }
  return failure ?? ExitCode.ok;
}

async function expandStdin(ctx: CommandContext, args: string[]): Promise<string[]> {
  if (!args.includes('-')) return args;
  const fromStdin = listLines(await readAll(ctx.io.stdin, ctx.signal)).map(({ value }) => value);
  return args.flatMap((arg) => (arg === '-' ? fromStdin : [arg]));
}
