// `rsapi auth`: login, status, logout.
import type { Command } from 'commander';

export function registerAuth(program: Command): void {
  program.command('auth').description('Log in, check and forget the API key');
}
