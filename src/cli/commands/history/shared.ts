// What the `history` verbs share: the --history option, opening the history to read it, --since durations, and
// writing a document through the format registry.
import { terminalWidth } from '../../terminal/terminal.js';
import { InvalidArgumentError, type Command, type OptionValues } from '@commander-js/extra-typings';
import { renderDocument, writeItemList, type DocumentOptions, type ItemList, type OutputDocument } from '../../../output/index.js';
import type { CommandContext } from '../../runtime/context.js';
import { UsageError } from '../../runtime/errors.js';
import { originOf } from '../../../api/http/base-url.js';
import type { HistoryStore } from '../../../history/types.js';
import { openExistingHistory } from '../../reading/history-place.js';
import { historyOption, MAX_RUN_ID, runIdOf, sinceOf } from '../../flags/history-values.js';

export function addHistoryLocationOption<Args extends unknown[], Opts extends OptionValues, GlobalOpts extends OptionValues>(
  command: Command<Args, Opts, GlobalOpts>,
) {
  return command.addOption(historyOption());
}

/** The history that is there, for the `history` verbs: reading/recording.ts's one opener (readOnly, or written for prune). */
export function openHistoryOf(ctx: CommandContext, flags: { history?: string }, options: { readOnly?: boolean } = {}): Promise<HistoryStore> {
  return openExistingHistory(ctx, flags, options);
}

/** The service the configured base URL names (its origin); undefined when none is configured. */
export function currentService(ctx: CommandContext): string | undefined {
  const baseUrl = ctx.settings().baseUrl;
  return baseUrl ? (originOf(baseUrl) ?? baseUrl) : undefined;
}

export { durationParser } from '../../flags/options.js';
export { sinceOf };

/** A run id argument: a whole number of at least 1 (and at most MAX_RUN_ID). */
export function runIdParser(value: string): number {
  const id = runIdOf(value);
  if (id === undefined) throw new InvalidArgumentError(`a run id is a whole number from 1 to ${MAX_RUN_ID} (\`rsapi history runs\` lists them).`);
  return id;
}

/** The history verbs print documents, not records: -q and --fields have nothing to pick. */
export function checkDocumentFlags(ctx: CommandContext, verb: string): void {
  if (ctx.globals.quiet) throw new UsageError(`-q prints identifiers; history ${verb} prints a document`, { hint: 'use --json or --jq' });
  if (ctx.globals.fields) throw new UsageError(`--fields does not apply to history ${verb}`, { hint: 'use --json and pick with --jq' });
  ctx.checkOutputFlags();
}

export async function writeDocument(ctx: CommandContext, document: OutputDocument): Promise<void> {
  const shown = await renderDocument(ctx.format(), document, documentOptions(ctx));
  if (shown !== '') ctx.io.stdout.write(shown);
}

/** A verb's counts (`{ imported: 3, already_there: 1 }`) as a document: one csv/tsv row under their names, and `text`. */
export function countsDocument(value: Record<string, number>, text: string): OutputDocument {
  return { value, rows: { columns: Object.keys(value), rows: [Object.values(value).map(String)] }, text: () => text };
}

/** A long list (a run's reports) in the chosen format, written as it is read. */
export async function writeItems<T, Cell>(ctx: CommandContext, list: ItemList<T, Cell>): Promise<void> {
  await writeItemList(ctx.io.stdout, ctx.format(), list, documentOptions(ctx));
}

/** A terminal's text is escaped and fitted to its width (unless --wide); a pipe's is exact and whole. */
function documentOptions(ctx: CommandContext): DocumentOptions {
  return { terminal: ctx.io.stdoutIsTTY, width: ctx.io.stdoutIsTTY && !ctx.globals.wide ? terminalWidth(ctx.io) : undefined };
}

/** A run's command and selection as one short line: `reports list --all --project example.com`. */
export function describeSelection(command: string, selection: string): string {
  const flags = selectionFlags(selection);
  return flags === '' ? command : `${command} ${flags}`;
}

/** Keys of a stored selection that are not the flag of their name. */
const FLAG_OF: Record<string, string> = { sitemaps: 'from-sitemap', file: 'from-file' };

/**
 * A stored selection (a JSON object of the run's filters) as the flags that select it: `{"all":true,"project":"x"}` is
 * `--all --project x`, a create's hashed input `{"input":"…","urls":12}` is `12 URLs`. Any other key is written
 * `--kebab-case value` (an array's values each after the flag, true a bare flag), so keys added later read too.
 */
export function selectionFlags(selection: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(selection);
  } catch {
    return selection;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return selection;
  const entries = Object.entries(parsed as Record<string, unknown>);
  const words: string[] = [];
  const urls = (parsed as Record<string, unknown>).urls;
  if ('input' in parsed && typeof urls === 'number') words.push(urls === 1 ? '1 URL' : `${urls} URLs`);
  for (const [key, value] of entries) {
    if (typeof urls === 'number' && 'input' in parsed && (key === 'input' || key === 'urls')) continue;
    const flag = `--${FLAG_OF[key] ?? key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;
    for (const each of Array.isArray(value) ? value : [value]) {
      if (each === true) words.push(flag);
      else if (each === false || each === null || each === undefined) words.push(`--no-${flag.slice(2)}`);
      else words.push(flag, shellWord(typeof each === 'string' ? each : JSON.stringify(each)));
    }
  }
  return words.join(' ');
}

/** A value as a shell would need it: bare when it is plain, else in single quotes. */
function shellWord(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}
