// `rsapi api METHOD PATH`: any request under the base URL, raw JSON out.
import type { Command } from 'commander';

export function registerApi(program: Command): void {
  program.command('api').description('Send any request under the base URL and print the raw JSON');
}
