// `rsapi config`: stored settings per profile.
import type { Command } from 'commander';

export function registerConfig(program: Command): void {
  program.command('config').description('Read and change stored settings');
}
