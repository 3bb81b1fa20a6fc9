// `rsapi projects`: the project verbs.
import type { ParentCommand, Invocation } from '../../runtime/handler.js';
import { registerDelete } from './delete.js';
import { registerList } from './list.js';

export function registerProjects(program: ParentCommand, invocation: Invocation): void {
  const projects = program.command('projects').alias('project').description('List and delete projects');
  projects.addHelpText(
    'after',
    `
Examples:
  $ rsapi projects list --all
  $ rsapi projects delete old.example.com --yes`,
  );
  registerList(projects, invocation);
  registerDelete(projects, invocation);
}
