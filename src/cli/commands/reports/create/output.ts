// Where bulk results go: stdout as each completes (json and table at the end, in input order), and the summary line.
import { writeReportWithChecks } from '../../../../output/check-lines.js';
import { createListWriter, formatBuffers, showsModel, type OutputOptions, type ServiceRecord, type Sink } from '../../../../output/index.js';
import { PRIVACY, type Privacy } from '../../../../api/list-params.js';
import type { BulkCreateOutcome } from './create-all.js';

export interface BulkOutput {
  /** One created record; `index` is its URL's place in the input. */
  write(index: number, record: ServiceRecord): Promise<void>;
  end(): Promise<void>;
}

/**
 * One URL prints one record (an object in json), several a list. ndjson, csv, tsv and --quiet ids stream
 * as results complete; json and table are drawn at the end anyway, so they keep the input's order. `privacy` is what
 * the create sent (undefined: none, so the service's default, public).
 */
export function createBulkOutput(out: Sink, options: OutputOptions, shape: { single: boolean; privacy?: Privacy }): BulkOutput {
  const shown = (record: ServiceRecord) => withPrivacySent(record, options, shape.privacy);
  // One report as `reports show` prints it: on a terminal its failed checks in words rather than the raw `results`.
  if (shape.single) return { write: (_index, record) => writeReportWithChecks(out, shown(record), options), end: async () => {} };
  const writer = createListWriter(out, options);
  const buffered = formatBuffers(options);
  if (!buffered) return { write: async (_index, record) => writer.write(shown(record)), end: () => writer.end() };
  const held: { index: number; record: ServiceRecord }[] = [];
  return {
    write: async (index, record) => void held.push({ index, record: shown(record) }),
    end: async () => {
      for (const { record } of held.sort((a, b) => a.index - b.index)) await writer.write(record);
      await writer.end();
    },
  };
}

/**
 * phpRank answers a create with `privacy` null (or none): the table, csv and tsv show the privacy the create sent, as
 * `reports list` shows the same report afterwards. json and ndjson stay the service's answer as sent: a value there
 * that the service never said would be taken for its word by a script.
 */
function withPrivacySent(record: ServiceRecord, options: OutputOptions, privacy: Privacy | undefined): ServiceRecord {
  // -q prints ids alone.
  if (options.quiet || !showsModel(options.format) || (record.privacy !== null && record.privacy !== undefined)) return record;
  return { ...record, privacy: privacy ?? PRIVACY.public };
}

export interface InputCounts {
  /** Already created according to the journal; undefined without a journal. */
  skipped: number | undefined;
  duplicates: number;
  invalid: number;
  /** Sitemaps of an index skipped with --skip-invalid. */
  sitemapsSkipped?: number;
  /** Why URLs were left unsent (Ctrl-C, the journal, stdout), if they were. */
  stoppedBy?: string;
  /** The command that resumes the run where its journal is its own (`rsapi audit`); else a resume is with --journal. */
  resumeCommand?: string;
}

/** `created 297, failed 3 (exit 7), unsettled 1 (...), skipped 4 (journal), duplicates 2`: only what happened, besides created and failed. */
export function summaryLine(outcome: BulkCreateOutcome, counts: InputCounts): string {
  const parts = [
    `created ${outcome.created}${outcome.recovered > 0 ? ` (${outcome.recovered} found after a lost answer)` : ''}`,
    ...(outcome.refreshed > 0 ? [`refreshed ${outcome.refreshed} (had a report: re-audited)`] : []),
    ...(outcome.kept > 0 ? [`kept ${outcome.kept} (had a report: --existing skip)`] : []),
    `failed ${outcome.failed}${outcome.firstFailure === undefined ? '' : ` (exit ${outcome.firstFailure})`}`,
  ];
  const resume = counts.resumeCommand === undefined ? 'a resume with --journal' : `the next \`${counts.resumeCommand}\``;
  if (outcome.unsettled > 0) parts.push(`unsettled ${outcome.unsettled} (of the failed: may exist; ${resume} looks them up first)`);
  if (counts.skipped !== undefined && counts.skipped > 0) parts.push(`skipped ${counts.skipped} (journal)`);
  if (counts.duplicates > 0) parts.push(`duplicates ${counts.duplicates}`);
  if (counts.invalid > 0) parts.push(`invalid ${counts.invalid} (skipped)`);
  if (counts.sitemapsSkipped !== undefined && counts.sitemapsSkipped > 0) parts.push(`sitemaps skipped ${counts.sitemapsSkipped}`);
  if (outcome.interrupted || outcome.notStarted > 0) parts.push(`not started ${outcome.notStarted} (${counts.stoppedBy ?? 'interrupted'})`);
  return parts.join(', ');
}
