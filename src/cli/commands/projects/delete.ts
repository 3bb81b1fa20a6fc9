// `rsapi projects delete NAME...`: confirmed on a terminal, refused without one unless --yes.
import type { Command } from 'commander';
import { deleteEach } from '../../deletion.js';
import { UsageError } from '../../../api/errors.js';
import { handle } from '../../handler.js';

/** Checked for the whole batch before anything is deleted: an empty name or a path step names no project. */
function checkProjectName(name: string): string {
  if (name.trim() === '' || name === '.' || name === '..') throw new UsageError(`${JSON.stringify(name)} is not a project name`);
  return name;
}

export function registerDelete(projects: Command): void {
  const command = projects
    .command('delete')
    .alias('rm')
    .description('Delete projects (asks first on a terminal; scripts pass --yes)')
    .argument('<names...>', 'project names; - reads more from stdin, one a line')
    .option('-y, --yes', 'delete without asking');
  command.addHelpText(
    'after',
    `
Examples:
  $ rsapi projects delete example.com
  $ rsapi projects delete old.example.com staging.example.com --yes`,
  );
  handle(command, async (ctx, self) => {
    const client = ctx.client();
    return deleteEach(ctx, {
      noun: 'project',
      args: self.args,
      yes: self.opts<{ yes?: boolean }>().yes,
      validate: checkProjectName,
      remove: (name) => client.projects.delete(name),
    });
  });
}
