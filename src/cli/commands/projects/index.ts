// `rsapi projects`: the project verbs.
import type { Command } from 'commander';
import { registerDelete } from './delete.js';
import { registerList } from './list.js';

export function registerProjects(program: Command): void {
  const projects = program.command('projects').alias('project').description('List and delete projects');
  registerList(projects);
  registerDelete(projects);
}
