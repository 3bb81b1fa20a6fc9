// `rsapi projects delete`: every report of each project deleted, after a confirmation with a preview (or --yes), or looked up with --dry-run.
import { planDeletion, deleteEach, type DeletionPlan, type ItemDescription } from '../../deleting/deletion.js';
import { describeProject, PREVIEW_MAX_PROJECTS, previewLines, previewProject, projectLabel } from '../../deleting/project-preview.js';
import { UsageError } from '../../runtime/errors.js';
import type { CommandContext } from '../../runtime/context.js';
import { handle, type ParentCommand, type OptionsOf, type Invocation } from '../../runtime/handler.js';
import { integerParser, MAX_CONCURRENCY } from '../../flags/options.js';
import { runPool } from '../../bulk/pool.js';

/** Projects looked up at once when --concurrency does not say (two reads each). */
const LOOK_UPS_AT_ONCE = 4;

/** Checked for the whole batch before anything is deleted: an empty name or a path step names no project. */
function checkProjectName(name: string): string {
  if (name.trim() === '' || name === '.' || name === '..') throw new UsageError(`${JSON.stringify(name)} is not a project name`);
  return name;
}

function declareDelete(projects: ParentCommand) {
  return projects
    .command('delete')
    .alias('rm')
    .description('Delete projects (asks first on a terminal; scripts pass --yes)')
    .argument('<names...>', 'project names; - reads more from stdin, one a line')
    .option('-y, --yes', 'delete without asking')
    .option(
      '--dry-run',
      'look each project up (reads only) and print what the real run would do: delete (with its report count) or not found; ' +
        'delete nothing. Exits as the real run would: 4 if one is not found',
    )
    .option('--concurrency <n>', `deletes in flight at once (1 to ${MAX_CONCURRENCY}, default 1)`, integerParser('--concurrency', 1, MAX_CONCURRENCY));
}

export type ProjectsDeleteOptions = OptionsOf<ReturnType<typeof declareDelete>> & { names: string[] };

export function registerDelete(projects: ParentCommand, invocation: Invocation): void {
  const command = declareDelete(projects);
  command.addHelpText(
    'after',
    `
Examples:
  $ rsapi projects delete example.com
  $ rsapi projects delete old.example.com staging.example.com --yes
  $ rsapi projects delete old.example.com --dry-run

A declined confirmation deletes nothing and exits 2 (as gh does for a cancelled command).`,
  );
  handle(invocation, command, { plan: (ctx, opts, [names]) => planProjectsDelete(ctx, { ...opts, names }), run: runProjectsDelete });
}

/** Every check of `projects delete` that needs no network, before stdin (`-`) is read or anything sent: what it will delete, and how. */
export function planProjectsDelete(ctx: CommandContext, opts: ProjectsDeleteOptions): DeletionPlan {
  ctx.checkOutputFlags();
  return planDeletion(ctx.io, opts, opts.names, checkProjectName);
}

/** Deletes each project, after a confirmation on a terminal (with a preview of what goes) or --yes. */
export async function runProjectsDelete(ctx: CommandContext, plan: DeletionPlan) {
  const client = ctx.client();
  return deleteEach(ctx, {
    ...plan,
    noun: 'project',
    checkItem: checkProjectName,
    remove: (name) => client.projects.delete(name),
    dryRunColumns: ['reports'],
    describe: async (names, purpose) => {
      const described = new Map<string, ItemDescription>();
      if (purpose === 'confirm' && names.length > PREVIEW_MAX_PROJECTS) return described;
      const strict = purpose === 'dry-run';
      await runPool(names, { concurrency: plan.concurrency ?? LOOK_UPS_AT_ONCE, stop: ctx.noNewRequests }, async (name) => {
        const preview = await previewProject(client, name, { strict });
        described.set(name, {
          title: describeProject(name, preview),
          label: projectLabel(name, preview),
          lines: previewLines(preview),
          found: preview.exists,
          fields: { reports: preview.exists === false ? 0 : (preview.reports ?? null), urls: preview.urls },
        });
      });
      return described;
    },
  });
}
