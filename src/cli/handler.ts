// Running a command's handler: the per-invocation state, the context built from merged options, the exit code.
import type { Command } from 'commander';
import { ExitCode, type ExitCodeValue } from './exit-codes.js';
import { CommandContext, type GlobalOptions } from './context.js';
import type { Terminal } from './terminal.js';

export interface Invocation {
  io: Terminal;
  signal: AbortSignal;
  exitCode: ExitCodeValue;
}

/** A command's work: returns its exit code (void = 0) or throws a typed error. */
export type Handler = (ctx: CommandContext, command: Command) => Promise<ExitCodeValue | void>;

/** Wires a handler to a command: builds the context from the merged global and local options. */
export function handle(command: Command, handler: Handler): Command {
  return command.action(async (...args: unknown[]) => {
    const self = args[args.length - 1] as Command;
    const invocation = invocationOf(self);
    const globals = self.optsWithGlobals<GlobalOptions>();
    const context = new CommandContext(invocation.io, globals, invocation.signal);
    try {
      invocation.exitCode = (await handler(context, self)) ?? ExitCode.ok;
    } finally {
      await context.close();
    }
  });
}

export function invocationOf(command: Command): Invocation {
  let root = command;
  while (root.parent) root = root.parent;
  return (root as Command & { invocation: Invocation }).invocation;
}

export function attachInvocation(program: Command, invocation: Invocation): void {
  (program as Command & { invocation: Invocation }).invocation = invocation;
}
