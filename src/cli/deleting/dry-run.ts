// Dry runs: the rows of what the real run would do, written in the chosen format (create's and delete's alike), and a
// delete's: each target looked up (reads only), then the rows, with the real run's exit code.
import { plural } from '../../plural.js';
import { ExitCode, type ExitCodeValue } from '../runtime/exit-codes.js';
import type { CommandContext } from '../runtime/context.js';
import { createListWriter } from '../../output/formats.js';
import { singleLine, terminalText } from '../../output/terminal-text.js';
import type { RecordKind, ServiceRecord } from '../../output/types.js';

export interface ItemDescription {
  /** `project example.com and its 13 reports`, `report 42 (example.com/pricing)`: the item alone in a confirmation. */
  title: string;
  /** `42 example.com/pricing`: the item in a confirmation of several; its id when not given. */
  label?: string;
  /** Shown under the title (a few URLs of those reports). */
  lines: string[];
  /** false when the look-up found nothing: the real run would fail on it with 404 (exit 4). */
  found?: boolean;
  /** What a dry run shows of it beside its id and action (json keys; table, csv and tsv columns). */
  fields?: Record<string, unknown>;
}

/** What the real run would do with one target: delete it, or fail on it with 404 (exit 4). */
export type DryRunAction = 'delete' | 'not-found';

export interface DryRunPlan {
  kind: RecordKind;
  /** The columns of table, csv and tsv after id and action; json and ndjson show every field of the row. */
  columns: readonly string[];
}

/**
 * One row a target: `{id, action, ...fields}`. A target the look-up found nothing for is `not-found`; one it could not
 * tell about (no look-up) is counted as deleted, as the real run would try it.
 */
export function dryRunRows(ids: readonly string[], described: ReadonlyMap<string, ItemDescription>): ServiceRecord[] {
  return ids.map((id) => {
    const item = described.get(id);
    const action: DryRunAction = item?.found === false ? 'not-found' : 'delete';
    // A report id is a number in the service's records: the same type here, so `jq 'select(.id == 42)'` matches.
    return { id: /^\d{1,15}$/.test(id) ? Number(id) : id, action, ...item?.fields };
  });
}

/** How a dry run's rows are written. */
export interface DryRunRows {
  kind: RecordKind;
  /** The columns of table, csv and tsv; json and ndjson show every field of a row. */
  columns: readonly string[];
  /** The field -q prints (`id`, `url`), of the rows whose action is one of `acted` (`delete`; `create`, `refresh`). */
  quietField: string;
  acted: readonly string[];
}

/** Writes the rows in the chosen format, or with -q only the `quietField` of the rows the real run would act on. */
export async function writeDryRunRows(ctx: CommandContext, view: DryRunRows, rows: readonly ServiceRecord[]): Promise<void> {
  if (ctx.globals.quiet) {
    const shown = (text: string): string => (ctx.io.stdoutIsTTY ? terminalText(text) : singleLine(text));
    for (const row of rows) if (view.acted.includes(String(row.action))) ctx.io.stdout.write(`${shown(String(row[view.quietField]))}\n`);
    return;
  }
  const options = ctx.outputOptions(view.kind);
  const whole = options.format === 'json' || options.format === 'ndjson';
  const writer = createListWriter(ctx.io.stdout, { ...options, fields: options.fields ?? (whole ? undefined : [...view.columns]) });
  for (const row of rows) await writer.write(row);
  await writer.end();
}

/** Prints the rows (with -q only the ids that would be deleted), says on stderr that nothing was, and exits as the real run would. */
export async function printDryRun(ctx: CommandContext, plan: DryRunPlan, rows: readonly ServiceRecord[]): Promise<ExitCodeValue> {
  await writeDryRunRows(ctx, { kind: plan.kind, columns: ['id', 'action', ...plan.columns], quietField: 'id', acted: ['delete'] }, rows);
  const doomed = rows.filter((row) => row.action === 'delete');
  const missing = rows.length - doomed.length;
  const notFound = missing === 0 ? '' : `, ${plural(missing, plan.kind)} not found (the real run would exit ${ExitCode.notFound})`;
  ctx.note(`dry run: ${plural(doomed.length, plan.kind)} would be deleted${notFound}; nothing was deleted`);
  return missing === 0 ? ExitCode.ok : ExitCode.notFound;
}
