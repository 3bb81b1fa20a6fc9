// Printing lists and single records the same way for every command: writer, --fields check, empty hint, paging footer.
import { plural } from '../../plural.js';
import type { ApiRecord, Page } from '../../api/model/record.js';
import { ExitCode, type ExitCodeValue } from '../runtime/exit-codes.js';
import { createListWriter, shownRecord, showsModel, writeRecord, type OutputOptions, type RecordKind, type Sink } from '../../output/index.js';
import { nearest } from '../../suggest.js';
import type { CommandContext } from '../runtime/context.js';
import type { CiReporter } from '../report-files/reporter.js';
import type { GateSetup } from '../verdicts/gates.js';
import { preferSmallHeap } from '../runtime/heap.js';
import { judges, NOUN, ofLast, PageReader, type PageReaderOptions } from './page-reader.js';
import { PER_CHECK_FIELDS, perCheckRows } from '../../output/per-check.js';

/** How the pages were asked for (pagingOptions in verb-options.ts). */
interface Paging {
  all: boolean;
  limit?: number;
  startPage?: number;
}

/** Streams the pages to stdout in the chosen format; returns 10 if a gate failed. */
export async function printPages(
  ctx: CommandContext,
  kind: RecordKind,
  pages: AsyncIterable<Page>,
  options: PageReaderOptions & { paging: Paging; perCheck?: boolean },
): Promise<ExitCodeValue> {
  if (options.paging.all || options.paging.limit !== undefined) await preferSmallHeap();
  const out = new PageBuffer(ctx.io.stdout);
  // Notes about the output (columns left out) follow it on the screen, after the buffered table is flushed.
  const notices: string[] = [];
  // --per-check: one row per report and check, in columns of its own.
  const shape = options.perCheck ? { fields: PER_CHECK_FIELDS } : {};
  const writer = createListWriter(out, { ...ctx.outputOptions(kind), ...shape, notice: (line) => void notices.push(line) });
  const fields = new FieldCheck(ctx.globals.fields, ctx.outputOptions(kind));
  const reader = new PageReader(ctx, kind, options);
  // The whole list read (--all, or a gate) in an order the service may ignore (phpRank: generated_at): held, then
  // sorted here if the service did ignore it. A page or --limit is printed as received, with the warning.
  const order = options.paging.all && options.paging.limit === undefined ? options.silences?.clientOrder() : undefined;
  const held: ApiRecord[] | undefined = order ? [] : undefined;
  const write = async (record: ApiRecord) => {
    fields.see(record);
    if (!options.perCheck) return writer.write(record);
    for (const row of perCheckRows(record)) await writer.write(row);
  };
  await reader.read(pages, {
    record: (record) => (held ? void held.push(record) : write(record)),
    pageDone: () => out.flush(),
  });
  const sortedHere = order !== undefined && options.silences?.orderIgnored === true;
  if (held) {
    if (sortedHere) held.sort(order.compare);
    for (const record of held) await write(record);
  }
  await writer.end();
  await out.flush();
  for (const line of notices) ctx.note(line);
  fields.warn(ctx, kind);
  reader.warnSilences(reader.gate?.active === true ? 'printed and judged as received' : 'printed as received', { sortedHere });
  if (ctx.io.stderrIsTTY && !ctx.globals.quiet) {
    if (reader.count === 0) ctx.note(emptyNote(kind, reader.last));
    else if (reader.first && reader.last) ctx.note(footer(kind, reader.first, reader.last, reader.count, options.paging));
  }
  return reader.finish();
}

/**
 * Prints one record (show, update) and judges it against the gate. `shown`, when given, writes the record instead
 * (reports show's per-check results); the gate and CI files judge the record as the service sent it.
 */
export async function printRecord(
  ctx: CommandContext,
  kind: RecordKind,
  record: ApiRecord,
  gateOptions: GateSetup = {},
  ci?: CiReporter,
  shown?: (out: Sink) => Promise<void>,
): Promise<ExitCodeValue> {
  if (shown) await shown(ctx.io.stdout);
  else await writeRecord(ctx.io.stdout, record, ctx.outputOptions(kind));
  const fields = new FieldCheck(ctx.globals.fields, ctx.outputOptions(kind));
  fields.see(record);
  fields.warn(ctx, kind);
  if (ci === undefined && !judges(gateOptions)) return ExitCode.ok;
  const [{ Gate }, { finishGate }] = await Promise.all([import('../verdicts/gates.js'), import('../report-files/finish-gate.js')]);
  const gate = new Gate(gateOptions);
  const gateFailures = gate.check(record);
  ci?.addReport(record, gateFailures);
  return finishGate(ctx, gate, ci);
}

/** Nothing to show: none at all, or a page past the last one. */
function emptyNote(kind: RecordKind, last: Page | undefined): string {
  const [one, many] = NOUN[kind];
  if (last?.lastPage !== undefined && last.total !== undefined && last.total > 0 && last.page > last.lastPage) {
    return `page ${last.page} is past the end: ${plural(last.lastPage, 'page')}, ${plural(last.total, one, many)}`;
  }
  return `no ${many} found`;
}

/**
 * What was shown and what was not, from what the service told: one page (`page 1 of 7, 63 reports; next: --page 2,
 * or --all`), the first N (`2 of 6 projects shown (--limit 2); all of them: --all`), N from a page (`page 3 of 7,
 * 63 reports: 5 shown (--limit 5)`) or all (`all 63 reports`).
 */
function footer(kind: RecordKind, first: Page, last: Page, shown: number, paging: Paging): string {
  const [one, many] = NOUN[kind];
  const noun = (n: number) => plural(n, one, many);
  const total = last.total;
  const more = last.nextPage !== undefined || (total !== undefined && total > shown);
  if (paging.limit !== undefined && paging.startPage !== undefined) {
    const pages = first.page === last.page ? `page ${last.page}` : `pages ${first.page}-${last.page}`;
    const of = ofLast(last);
    const count = total !== undefined ? `, ${noun(total)}` : '';
    return `${pages}${of}${count}: ${shown} shown (--limit ${paging.limit})`;
  }
  if (paging.limit !== undefined) {
    if (!more) return total !== undefined && total !== shown ? `${noun(shown)} shown, of ${total}` : `all ${noun(shown)}`;
    const of = total !== undefined ? ` of ${total}` : '';
    return `${shown}${of} ${shown === 1 && total === undefined ? one : many} shown (--limit ${paging.limit}); all of them: --all`;
  }
  if (paging.all) return total !== undefined && total !== shown ? `${noun(shown)} read; the service counted ${total}` : `all ${noun(shown)}`;
  const of = ofLast(last);
  const count = total !== undefined ? `, ${noun(total)}` : `, ${shown} shown`;
  const next = last.nextPage !== undefined ? `; next: --page ${last.nextPage}, or --all` : '';
  return `page ${last.page}${of}${count}${next}`;
}

/**
 * What one page writes, sent to stdout in one write when the page is done (a write a record was most of the time
 * --all spent on output), and no more taken from the service while stdout cannot keep up: memory stays bounded
 * by a page whatever the list's length.
 */
class PageBuffer implements Sink {
  private parts: string[] = [];

  constructor(private readonly out: Sink) {}

  write(chunk: string): boolean {
    this.parts.push(chunk);
    return true;
  }

  async flush(): Promise<void> {
    if (this.parts.length === 0) return;
    const text = this.parts.join('');
    this.parts = [];
    const accepted = this.out.write(text);
    const stream = this.out as Partial<Pick<NodeJS.WritableStream, 'once' | 'removeListener'>>;
    if (accepted !== false || typeof stream.once !== 'function') return;
    await new Promise<void>((resolve) => {
      const done = () => {
        stream.removeListener?.('drain', done);
        stream.removeListener?.('close', done);
        stream.removeListener?.('error', done);
        resolve();
      };
      stream.once!('drain', done);
      stream.once!('close', done);
      stream.once!('error', done);
    });
  }
}

/**
 * --fields names any field, known or not, so a typo prints an empty column: after the output, a warning names the
 * fields no record had and the fields the records do have. Keys are collected only while some are still unseen.
 */
class FieldCheck {
  private readonly unseen: Set<string>;
  private readonly present = new Set<string>();
  /** Fields the formats for people derive from the record (phpRank's score, failed_checks) that json does not show. */
  private readonly derived = new Set<string>();
  private records = 0;

  constructor(
    fields: string[] | undefined,
    private readonly output: Pick<OutputOptions, 'format' | 'kind'>,
  ) {
    this.unseen = new Set(fields ?? []);
  }

  see(record: Record<string, unknown>): void {
    if (this.unseen.size === 0) return;
    this.records++;
    // The fields the format shows: a phpRank report has a `score` in a table, not in json.
    for (const key of Object.keys(shownRecord(record, this.output))) {
      this.present.add(key);
      this.unseen.delete(key);
    }
    // A format showing the record as sent (json, ndjson): a field still unseen but in the model's reading is hinted at.
    if (showsModel(this.output.format)) return;
    for (const key of Object.keys(shownRecord(record, { ...this.output, format: 'csv' }))) if (this.unseen.has(key)) this.derived.add(key);
  }

  warn(ctx: CommandContext, kind: RecordKind): void {
    if (this.unseen.size === 0 || this.records === 0) return;
    const missing = [...this.unseen];
    const [one, many] = NOUN[kind];
    const which = this.records === 1 ? `the ${one} has no` : `none of the ${this.records} ${many} has a`;
    const present = [...this.present];
    // A near miss (`scroe`) is named: the fix is one word, not a read of the list.
    const named = missing.map((field) => {
      const near = nearest(field, present);
      return near ? `"${field}" (did you mean "${near}"?)` : `"${field}"`;
    });
    ctx.note(`rsapi: warning: ${which} field ${named.join(', ')}; fields there: ${present.join(', ')}`);
    const derived = missing.filter((field) => this.derived.has(field));
    if (derived.length > 0) {
      const fields = derived.map((field) => `"${field}"`).join(', ');
      ctx.note(
        `hint: -o csv, tsv and table derive ${fields} from the record, which ${this.output.format} shows as the service sent it: -o csv --fields id,${derived.join(',')}`,
      );
    }
  }
}
