// Running a command's handler: the per-invocation state, the context built from merged options, the exit code.
import type { Command, OptionValues } from '@commander-js/extra-typings';
import { ExitCode, type ExitCodeValue } from './exit-codes.js';
import { CommandContext, type GlobalOptions } from './context.js';
import type { Invocation } from './invocation.js';

export type { Invocation } from './invocation.js';

/**
 * A command's work, given its options and arguments as typed by the declaration: returns its exit code
 * (void = 0) or throws a typed error. The command itself is passed last, for the few that read the tree (help).
 */
export type Handler<Args extends unknown[], Opts extends OptionValues, GlobalOpts extends OptionValues> = (
  ctx: CommandContext,
  opts: Opts,
  args: Args,
  command: Command<Args, Opts, GlobalOpts>,
) => Promise<ExitCodeValue | void>;

/**
 * A verb as a plan and a run: `plan` does every check that needs no network, once, and returns what the run will do;
 * `run` takes that plan (never the options) and returns the exit code. A test asserts on the plan alone (argv -> plan).
 */
export interface Verb<Args extends unknown[], Opts extends OptionValues, Plan> {
  plan(ctx: CommandContext, opts: Opts, args: Args): Plan;
  run(ctx: CommandContext, plan: Plan): Promise<ExitCodeValue | void>;
}

/** A command that verbs are added to: the global options typed on it, for the handler's context. */
export type ParentCommand = Command<[], {}, GlobalOptions>;

/** The options a command's declaration gives, as the compiler infers them: a run's options type, never written by hand. */
export type OptionsOf<DeclaredCommand extends { opts(): OptionValues }> = ReturnType<DeclaredCommand['opts']>;

/** Wires a handler to a command: builds the context of this invocation from the merged global and local options. */
export function handle<Args extends unknown[], Opts extends OptionValues, GlobalOpts extends GlobalOptions, Plan>(
  invocation: Invocation,
  command: Command<Args, Opts, GlobalOpts>,
  verb: Handler<Args, Opts, GlobalOpts> | Verb<Args, Opts, Plan>,
): void {
  const handler: Handler<Args, Opts, GlobalOpts> = typeof verb === 'function' ? verb : async (ctx, opts, args) => verb.run(ctx, verb.plan(ctx, opts, args));
  command.action(async () => {
    const globals: GlobalOptions = command.optsWithGlobals();
    // --jq: the expression is checked before anything runs; the output is filtered once the command is done.
    const jq = globals.jq === undefined ? undefined : await (await import('../flags/jq.js')).jqOutput(globals.jq, invocation.io);
    const context = new CommandContext(jq ? { ...invocation, io: jq.io } : invocation, globals);
    try {
      invocation.exitCode = (await handler(context, command.opts(), command.processedArgs, command)) ?? ExitCode.ok;
      await jq?.flush();
    } finally {
      // An orderly close waits for each socket's close (about 1 ms at the end of every command): not needed by a
      // process that exits now, whose sockets end with it. Every request is done by then.
      if (invocation.exitsAfterRun) void context.close().catch(() => undefined);
      else await context.close();
    }
  });
}
