// `rsapi history import FILE`: the runs of a `history export` (ndjson) added to this history; a run already there
// (same start, service, command and selection) is not added twice, and a snapshot the history holds already is kept
// as stored (each line that disagrees with it said on stderr).
import type { Readable } from 'node:stream';
import { exportedRunProblem } from '../../../history/exported.js';
import type { ExportedRun, HistoryStore } from '../../../history/types.js';
import { plural } from '../../../plural.js';
import type { CommandContext } from '../../runtime/context.js';
import { UsageError } from '../../runtime/errors.js';
import { fileError } from '../../runtime/files.js';
import { handle, type Invocation, type OptionsOf, type ParentCommand } from '../../runtime/handler.js';
import { addHistoryLocationOption, checkDocumentFlags, countsDocument, writeDocument } from './shared.js';
import { resolveHistoryLocation } from '../../reading/history-place.js';

function declareImport(history: ParentCommand) {
  return addHistoryLocationOption(
    history
      .command('import')
      .description('Add the runs of a `history export` file (- for stdin) to this history')
      .argument('<file>', 'ndjson of `history export`'),
  );
}

export type HistoryImportOptions = OptionsOf<ReturnType<typeof declareImport>> & { file: string };

export function registerImport(history: ParentCommand, invocation: Invocation): void {
  const command = declareImport(history);
  command.addHelpText(
    'after',
    `
Examples:
  $ rsapi history import history.ndjson --history postgres://ci@db.example.com/rsapi
  $ rsapi history export --history postgres://ci@db.example.com/rsapi | rsapi history import -`,
  );
  handle(invocation, command, { plan: (ctx, opts, [file]) => planHistoryImport(ctx, { ...opts, file }), run: runHistoryImport });
}

/** What `history import` reads (the export file, - for stdin) and into which history. */
export interface HistoryImportPlan {
  history: { history?: string };
  file: string;
}

export function planHistoryImport(ctx: CommandContext, opts: HistoryImportOptions): HistoryImportPlan {
  checkDocumentFlags(ctx, 'import');
  return { history: { history: opts.history }, file: opts.file };
}

export async function runHistoryImport(ctx: CommandContext, plan: HistoryImportPlan) {
  const { file } = plan;
  // Loaded here: every history verb's start reads this file (trend's start is budgeted).
  const [{ createInterface }, { openHistory }] = await Promise.all([import('node:readline'), import('../../../history/open.js')]);
  const input = await openExport(ctx, file);
  const lines = createInterface({ input, crlfDelay: Infinity });
  let store: HistoryStore | undefined;
  let added = 0;
  let already = 0;
  let number = 0;
  let disagreements = 0;
  try {
    // A line at a time, each run imported as it is read: an export of a million snapshots is gigabytes.
    for await (const line of readingExport(lines, file)) {
      number++;
      if (line.trim() === '') continue;
      const exported = parseRun(line, number, file, added + already);
      // Importing may make the history: a SQLite file that is not there yet is created (once a run is read).
      store ??= await openHistory(resolveHistoryLocation(ctx, plan.history), { notice: (note) => ctx.note(note) });
      const result = await store.importRun(exported);
      if (result.added) added++;
      else already++;
      for (const { stored, fields } of result.disagreements) {
        disagreements++;
        if (disagreements <= DISAGREEMENTS_SAID)
          ctx.note(
            `rsapi: ${file}: line ${number}: report ${stored.reportId} of ${stored.identity} (generated ${stored.generatedAt}) is in the history with another ${fields.join(', ')}; the stored one is kept`,
          );
      }
    }
  } finally {
    lines.close();
    // A file left part-way (a line refused) is closed here, not by the garbage collector (an error on Node 26).
    if (input !== ctx.io.stdin) (input as Readable).destroy();
    await store?.close();
  }
  if (disagreements > DISAGREEMENTS_SAID)
    ctx.note(`rsapi: ${plural(disagreements - DISAGREEMENTS_SAID, 'more report')} disagreed with the history; the stored ones are kept`);
  await writeDocument(
    ctx,
    countsDocument({ imported: added, already_there: already }, `imported ${added} runs${already > 0 ? ` (${already} already there)` : ''}\n`),
  );
  // tsv has no header: two bare numbers in a pipe say nothing of what they count.
  if (ctx.format() === 'tsv') ctx.note('rsapi: the two numbers are the runs imported and the runs already there (-o csv or --json names them)');
}

/** Disagreements between an import and the stored snapshots said one a line, up to this many (then their count). */
const DISAGREEMENTS_SAID = 20;

/** The export file, opened here so that a missing or unreadable one is its own plain error; `-` is stdin. */
async function openExport(ctx: CommandContext, file: string): Promise<NodeJS.ReadableStream> {
  if (file === '-') return ctx.io.stdin;
  try {
    const { open } = await import('node:fs/promises');
    return (await open(file)).createReadStream();
  } catch (error) {
    throw fileError('read the export file', file, error);
  }
}

/** The lines, a failed read (a directory given, a disk error) said as for any file the user names. */
async function* readingExport(lines: AsyncIterable<string>, file: string): AsyncIterable<string> {
  try {
    yield* lines;
  } catch (error) {
    throw fileError('read the export file', file, error);
  }
}

/**
 * A line of the export as a run, or a usage error naming the line. The runs before it are imported already (the file
 * is read once, as a stream): the hint says so, and that importing the mended file again adds only the rest.
 */
function parseRun(line: string, number: number, file: string, done: number): ExportedRun {
  const refused = (what: string) =>
    new UsageError(`${file}: line ${number} ${what}`, {
      hint:
        done > 0
          ? `the ${plural(done, 'run')} before it ${done === 1 ? 'is' : 'are'} in the history; importing the file again adds only what is not`
          : 'give a file written by `rsapi history export`',
    });
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw refused('is not JSON');
  }
  const problem = exportedRunProblem(value);
  if (problem) throw refused(`is not a run of \`rsapi history export\`: ${problem}`);
  return value as ExportedRun;
}
