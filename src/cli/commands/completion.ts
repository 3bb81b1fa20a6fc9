// `rsapi completion bash|zsh|fish`: a completion script generated from the live command tree, so it never goes stale.
import { Argument, type CommandUnknownOpts } from '@commander-js/extra-typings';
import type { CommandContext } from '../runtime/context.js';
import { handle, type ParentCommand, type Invocation } from '../runtime/handler.js';
import { bashScript } from '../completion/bash.js';
import { fishScript } from '../completion/fish.js';
import { describeProgram, type ScriptGenerator } from '../completion/model.js';
import { zshScript } from '../completion/zsh.js';

const SHELLS = ['bash', 'zsh', 'fish'] as const;
type Shell = (typeof SHELLS)[number];

const GENERATORS: Record<Shell, ScriptGenerator> = { bash: bashScript, zsh: zshScript, fish: fishScript };

export function registerCompletion(program: ParentCommand, invocation: Invocation): void {
  const command = program
    .command('completion')
    .description('Print a shell completion script (commands, flags, allowed values)')
    .addArgument(new Argument('<shell>', 'the shell to complete in').choices(SHELLS));
  command.addHelpText(
    'after',
    `
Examples:
  $ source <(rsapi completion bash)                      # in ~/.bashrc
  $ rsapi completion bash > ~/.local/share/bash-completion/completions/rsapi
  $ rsapi completion zsh > "\${fpath[1]}/_rsapi"           # or: source <(rsapi completion zsh) after compinit
  $ rsapi completion fish > ~/.config/fish/completions/rsapi.fish`,
  );
  handle(invocation, command, (ctx, _opts, [shell], self) => {
    let program: CommandUnknownOpts = self;
    while (program.parent) program = program.parent;
    return completionRun(ctx, { shell, program });
  });
}

/** Writes the completion script of the given command tree for the shell. */
export async function completionRun(ctx: CommandContext, opts: { shell: Shell; program: CommandUnknownOpts }) {
  ctx.io.stdout.write(GENERATORS[opts.shell](describeProgram(opts.program), opts.program.name()));
}
