// `rsapi reports`: the report verbs.
import type { Command } from 'commander';
import { registerCreate } from './create.js';
import { registerDelete } from './delete.js';
import { registerList } from './list.js';
import { registerShow } from './show.js';
import { registerUpdate } from './update.js';

export function registerReports(program: Command): void {
  const reports = program.command('reports').alias('report').description('List, show, create, update and delete reports');
  registerList(reports);
  registerShow(reports);
  registerCreate(reports);
  registerUpdate(reports);
  registerDelete(reports);
}
