// `rsapi history import FILE`: the runs of a `history export` (ndjson) added to this history; a run already there
// (same start, service, command and selection) is not added twice.
import { isObject } from '../../../api/http/decode.js';
import type { ExportedRun } from '../../../history/types.js';
import type { CommandContext } from '../../runtime/context.js';
import { UsageError } from '../../runtime/errors.js';
import { readUserFile } from '../../runtime/files.js';
import { handle, type Invocation, type OptionsOf, type ParentCommand } from '../../runtime/handler.js';
import { addHistoryLocationOption, checkDocumentFlags, writeDocument } from './shared.js';
import { resolveHistoryLocation } from '../../reading/recording.js';

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
  handle(invocation, command, (ctx, opts, [file]) => historyImportRun(ctx, { ...opts, file }));
}

export function validateHistoryImport(ctx: CommandContext): void {
  checkDocumentFlags(ctx, 'import');
}

export async function historyImportRun(ctx: CommandContext, opts: HistoryImportOptions) {
  validateHistoryImport(ctx);
  const text = opts.file === '-' ? await readStdin(ctx) : await readUserFile(opts.file, 'export file');
  const runs = parseExport(text, opts.file);
  // Importing may make the history: a SQLite file that is not there yet is created.
  const { openHistory } = await import('../../../history/open.js');
  const store = await openHistory(resolveHistoryLocation(ctx, opts));
  let added = 0;
  try {
    for (const exported of runs) {
      const known = new Set((await store.runs({ since: exported.run.started })).map((run) => run.id));
      const id = await store.importRun(exported);
      if (!known.has(id)) added++;
    }
  } finally {
    await store.close();
  }
  await writeDocument(ctx, {
    value: { imported: added, already_there: runs.length - added },
    text: () => `imported ${added} runs${runs.length > added ? ` (${runs.length - added} already there)` : ''}\n`,
  });
}

async function readStdin(ctx: CommandContext): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of ctx.io.stdin as AsyncIterable<Buffer | string>) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

function parseExport(text: string, file: string): ExportedRun[] {
  const runs: ExportedRun[] = [];
  for (const [index, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new UsageError(`${file}: line ${index + 1} is not JSON`, { hint: 'give a file written by `rsapi history export`' });
    }
    if (!isObject(value) || !isObject(value.run) || !Array.isArray(value.snapshots) || typeof value.run.started !== 'string')
      throw new UsageError(`${file}: line ${index + 1} is not a run of \`rsapi history export\``, { hint: 'give a file written by `rsapi history export`' });
    runs.push(value as unknown as ExportedRun);
  }
  return runs;
}
