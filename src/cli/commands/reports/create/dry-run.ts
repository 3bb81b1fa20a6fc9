// `reports create --dry-run`: which URLs the real run would send, and which it would skip and why, after every input step; nothing is sent or written.
import { shareOf, type Shard } from '../../../bulk/shard.js';
import type { CommandContext } from '../../../runtime/context.js';
import { writeDryRunRows } from '../../../deleting/dry-run.js';
import { ExitCode, type ExitCodeValue } from '../../../runtime/exit-codes.js';
import type { UrlInput } from './url-input.js';
import { reportIdentity } from '../../../../api/model/report-url.js';
import { plural } from '../../../../plural.js';
import type { ServiceRecord } from '../../../../output/types.js';
import type { ApiRecord } from '../../../../api/model/record.js';
import { readJournalHistory } from './journal.js';

export interface CreateDryRun {
  /** The input as read: every entry in order, its URLs normalised and de-duplicated. */
  input: UrlInput;
  /** With --shard: the share this run takes. */
  shard?: Shard;
  /** With --journal: read, not locked or written. */
  journalPath?: string;
  /** Its `created` entries older than this (ms since the epoch, --resume-within) are sent again. */
  createdSince?: number;
  /** With --existing skip|refresh: the mode, and the reports the service holds by identity (read, as the real run reads them). */
  existing?: { mode: 'skip' | 'refresh'; reports: ReadonlyMap<string, ApiRecord> };
}

/** One row an input entry, in input order: `{url, action: 'create' | 'skip', reason}` (reason null for a create). */
export function createDryRunRows(plan: CreateDryRun): ServiceRecord[] {
  const created = plan.journalPath === undefined ? new Set<string>() : readJournalHistory(plan.journalPath, { createdSince: plan.createdSince }).created;
  const selected = new Set(plan.input.urls);
  return plan.input.entries.map((entry): ServiceRecord => {
    if (entry.problem !== undefined) return skip(entry.value, `invalid: ${entry.problem} (--skip-invalid)`);
    if (entry.duplicateOf !== undefined) return skip(entry.value, `duplicate of ${entry.duplicateOf}`);
    const url = entry.url ?? entry.value;
    if (!selected.has(url)) return skip(url, 'left out by --include, --exclude or --max-urls');
    if (plan.shard !== undefined) {
      const share = shareOf(url, plan.shard.count);
      if (share !== plan.shard.index) return skip(url, `in another shard (share ${share} of ${plan.shard.count})`);
    }
    if (created.has(reportIdentity(url))) return skip(url, `already created (journal ${plan.journalPath ?? ''})`);
    const held = plan.existing?.reports.get(reportIdentity(url));
    if (held && plan.existing?.mode === 'skip') return skip(url, `has report ${String(held.id)} (--existing skip)`);
    if (held) return { url, action: 'refresh', reason: `has report ${String(held.id)}: re-audited (--existing refresh)` };
    return { url, action: 'create', reason: null };
  });
}

function skip(url: string, reason: string): ServiceRecord {
  return { url, action: 'skip', reason };
}

/** Prints the rows (-q: only the URLs that would be sent), counts them on stderr, exits 0: nothing was sent. */
export async function printCreateDryRun(ctx: CommandContext, rows: readonly ServiceRecord[]): Promise<ExitCodeValue> {
  await writeDryRunRows(ctx, { kind: 'report', columns: ['url', 'action', 'reason'], quietField: 'url', acted: ['create', 'refresh'] }, rows);
  const sent = rows.filter((row) => row.action !== 'skip');
  const refreshed = sent.filter((row) => row.action === 'refresh').length;
  const skipped = rows.length - sent.length;
  const refreshing = refreshed > 0 ? ` (${refreshed} to re-audit)` : '';
  ctx.note(`dry run: ${plural(sent.length, 'URL')} would be sent${refreshing}, ${skipped} skipped; nothing was sent and no journal written`);
  return ExitCode.ok;
}
