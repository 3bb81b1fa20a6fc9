// argv -> a verb's options and context, parsed by the real command tree with nothing run: the cheapest layer of test
// (gh's runF), where a plan is asserted on with no server, no stdout and no process.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { CommandContext } from '../../src/cli/runtime/context.js';
import { createInvocation } from '../../src/cli/runtime/invocation.js';
import { buildProgram } from '../../src/cli/program.js';
import { testTerminal, type InProcessOptions } from './run.js';

/**
 * Parses `argv` (the words after `rsapi`) through the declarations as `rsapi` would, and hands the named verb's options,
 * arguments and a context to `plan` instead of running it. `env` is all the program sees (no process.env); settings come from it.
 * `tty` makes the terminal's streams terminals (all, or some), as runInProcess does: for a plan that asks at a prompt.
 */
export async function planOf<Plan>(
  argv: string[],
  plan: (ctx: CommandContext, opts: never, args: never) => Plan,
  env: Record<string, string | undefined> = { RSAPI_BASE_URL: 'http://127.0.0.1:9', RSAPI_API_KEY: 'plan-key-0123' },
  tty?: InProcessOptions['tty'],
): Promise<Plan> {
  const { terminal, cleanup } = testTerminal({ env, tty });
  try {
    const invocation = createInvocation({ terminal, signal: new AbortController().signal });
    const program = await buildProgram(invocation, argv);
    let result: { plan: Plan } | undefined;
    const verb = findVerb(program, argv);
    verb.action(() => {
      const ctx = new CommandContext(invocation, verb.optsWithGlobals() as never);
      result = { plan: plan(ctx, verb.opts() as never, verb.processedArgs as never) };
    });
    await program.parseAsync(argv, { from: 'user' });
    if (!result) throw new Error(`no verb ran for ${argv.join(' ')}`);
    return result.plan;
  } finally {
    cleanup();
  }
}

function findVerb(program: CommandUnknownOpts, argv: string[]): CommandUnknownOpts {
  let command = program;
  for (const word of argv) {
    const next = command.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (!next) break;
    command = next as CommandUnknownOpts;
  }
  return command;
}
