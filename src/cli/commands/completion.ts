// `rsapi completion bash|zsh|fish`: shell completion scripts.
import type { Command } from 'commander';

export function registerCompletion(program: Command): void {
  program.command('completion').description('Print a shell completion script');
}
