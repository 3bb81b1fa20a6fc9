// `--part FILE` of `reports create` and `rsapi audit`: the share's outcomes and reports written to a run part
// (src/history/part.ts) for `rsapi history merge`, instead of recording into a history; and the pipeline it belongs to.
import { reportIdentity } from '../../../../api/model/report-url.js';
import type { PartEntry, PartHeader } from '../../../../history/parts/part.js';
import { plural } from '../../../../plural.js';
import { VERSION } from '../../../../version.js';
import type { Shard } from '../../../bulk/shard.js';
import { shardText } from '../../../bulk/shard.js';
import { jobOf, type RunSpec } from '../../../reading/recording.js';
import { resolveHistoryLocation, selectionKey, serviceOrigin, type HistoryFlags } from '../../../reading/history-place.js';
import type { PipelineRole, ShareEnd } from '../../../../history/types.js';
import { stringifyJson } from '../../../../api/http/json.js';
import { serviceWebBase } from '../../../report-files/reporter.js';
import type { CommandContext } from '../../../runtime/context.js';
import { UsageError } from '../../../runtime/errors.js';
import { fileError } from '../../../runtime/files.js';
import { checkOutputPath } from '../../../runtime/write.js';
import type { ExitCodeValue } from '../../../runtime/exit-codes.js';
import type { UrlOutcome } from './run-create.js';

/** What --part asks: where the part goes, the pipeline it belongs to, and the share it is (1/1 without --shard). */
export interface PartPlan {
  path: string;
  pipeline: string;
  shard: Shard;
}

/** The flags of a run that may write a part. */
export interface PartFlags {
  part?: string;
  pipeline?: string;
  shard?: Shard;
  record?: true;
  baseline?: string;
}

/**
 * --part and --pipeline checked, before anything is read or sent: a part is written instead of a recorded run, so
 * --record and a baseline are refused with it (the merge records and compares, once); the pipeline is --pipeline,
 * RSAPI_PIPELINE or the CI's run, and required.
 */
export function planPart(ctx: CommandContext, flags: PartFlags): PartPlan | undefined {
  if (flags.part === undefined) return undefined;
  if (flags.record) {
    throw new UsageError('--part writes the share to a file instead of recording it', { hint: '`rsapi history merge PART...` records the parts as one run' });
  }
  if (flags.baseline !== undefined) {
    throw new UsageError('a shard with --part compares with no baseline: `rsapi history merge` compares the whole run, once', {
      hint: 'give --baseline (and --max-drop, --fail-on-new-failures) to `rsapi history merge`',
    });
  }
  checkOutputPath(flags.part, '--part');
  const pipeline = pipelineKey(ctx, flags.pipeline);
  if (pipeline === undefined) {
    throw new UsageError('--part needs the pipeline its parts belong to', {
      hint: 'give --pipeline KEY (or RSAPI_PIPELINE): the same in every shard and in the merge; on GitHub Actions and GitLab CI it comes from the run',
    });
  }
  return { path: flags.part, pipeline, shard: flags.shard ?? { index: 1, count: 1 } };
}

/** A share recording into its pipeline's one run (`--record --pipeline KEY --shard I/N`): the pipeline and the share. */
export interface PipelineSharePlan {
  pipeline: string;
  shard: Shard;
}

/** The words of the refusal of `--record --pipeline` (and `history merge --pipeline`) on a history that is no PostgreSQL one. */
export const PIPELINE_NEEDS_POSTGRES = "a pipeline's shards record into one run only on a shared PostgreSQL history; use --part files";

/**
 * --pipeline without --part, checked before anything is read or sent: with --record (or RSAPI_RECORD, the profile's
 * `record`), the share records into its pipeline's one run, which only a PostgreSQL history keeps (exit 2 otherwise);
 * it compares with no baseline (`history merge --pipeline KEY` does, once). RSAPI_PIPELINE counts only with --shard.
 */
export function planPipelineShare(ctx: CommandContext, flags: PartFlags & { history?: string }, record: boolean): PipelineSharePlan | undefined {
  if (flags.part !== undefined) return undefined;
  const given = flags.pipeline ?? (flags.shard !== undefined && record ? ctx.io.env.RSAPI_PIPELINE?.trim() || undefined : undefined);
  if (given === undefined) return undefined;
  if (!record) {
    throw new UsageError('--pipeline names the pipeline of a run part (--part FILE) or of the run its shards record into (--record)', {
      hint: 'give --part FILE, or --record with a PostgreSQL --history',
    });
  }
  if (resolveHistoryLocation(ctx, flags).kind !== 'postgres') {
    throw new UsageError(PIPELINE_NEEDS_POSTGRES, {
      hint: 'give each shard --part FILE and merge the files with `rsapi history merge PART...`, or a postgres:// --history',
    });
  }
  if (flags.baseline !== undefined) {
    throw new UsageError('a shard of a pipeline compares with no baseline: `rsapi history merge --pipeline KEY` compares the whole run, once', {
      hint: 'give --baseline (and --max-drop, --fail-on-new-failures) to `rsapi history merge --pipeline KEY`',
    });
  }
  return { pipeline: pipelineKey(ctx, given) as string, shard: flags.shard ?? { index: 1, count: 1 } };
}

/**
 * The pipeline: --pipeline, RSAPI_PIPELINE, else GitHub's `GITHUB_REPOSITORY#GITHUB_RUN_ID` (without the attempt, so
 * a shard run again replaces its earlier part) or GitLab's `CI_PIPELINE_ID`; undefined when none is set.
 */
export function pipelineKey(ctx: CommandContext, flag: string | undefined): string | undefined {
  const env = ctx.io.env;
  const given = flag ?? (env.RSAPI_PIPELINE?.trim() || undefined);
  if (given !== undefined) {
    if (given.trim() === '' || given.length > 200) throw new UsageError(`pipeline ${JSON.stringify(given)}: a pipeline key is 1 to 200 characters`);
    return given.trim();
  }
  if (env.GITHUB_REPOSITORY?.trim() && env.GITHUB_RUN_ID?.trim()) return `github:${env.GITHUB_REPOSITORY.trim()}#${env.GITHUB_RUN_ID.trim()}`;
  if (env.CI_PIPELINE_ID?.trim()) return `gitlab:${env.CI_PROJECT_PATH?.trim() ?? ''}#${env.CI_PIPELINE_ID.trim()}`;
  return undefined;
}

/** The whole input before the shard cut, as a part names it: a digest of its URLs' identities (any order), and how many. */
export function inputDigest(urls: readonly string[]): { digest: string; urls: number } {
  const identities = [...new Set(urls.map(reportIdentity))].sort();
  const digest = process.getBuiltinModule('node:crypto').createHash('sha256').update(identities.join('\n')).digest('hex');
  return { digest, urls: identities.length };
}

/** What the shard ran: its command and job (without the share), its whole input, when it started. */
export interface PartRun {
  run: RunSpec;
  history: HistoryFlags;
  /** The URLs after selection, before the shard cut. */
  input: readonly string[];
  started: Date;
}

/**
 * Writes the part of a shard that ran to its end: each URL of its share with its outcome, in input order; the shard's
 * exit code in the end line. Said on stderr.
 */
export async function writeCreatePart(ctx: CommandContext, part: PartPlan, ran: PartRun, outcomes: readonly UrlOutcome[], code: ExitCodeValue): Promise<void> {
  const { writePart } = await import('../../../../history/parts/part.js');
  const job = jobOf(ctx, ran.history, ran.run);
  const header: PartHeader = {
    format: 'rsapi-part',
    version: 1,
    rsapi: VERSION,
    written: new Date().toISOString(),
    started: ran.started.toISOString(),
    pipeline: part.pipeline,
    command: job.command,
    job: selectionKey(job.selection),
    origin: serviceOrigin(ctx),
    ...(serviceWebBase(ctx) === undefined ? {} : { service: serviceWebBase(ctx) }),
    shard: shardText(part.shard),
    input: inputDigest(ran.input),
  };
  const entries = partEntries(ran.input, outcomes);
  try {
    await writePart(part.path, header, entries, { urls: entries.length, code }, (text) => ctx.secrets.redact(text));
  } catch (error) {
    throw fileError('write --part to', part.path, error);
  }
  ctx.note(
    `rsapi: wrote shard ${header.shard} of pipeline ${part.pipeline} to ${part.path} (${plural(entries.length, 'URL')}): merge it with \`rsapi history merge\``,
  );
}

/** Each URL of the share as a part's line, with its place in the whole input (`input`: before the shard cut). */
export function partEntries(input: readonly string[], outcomes: readonly UrlOutcome[]): PartEntry[] {
  const place = new Map(input.map((url, index) => [reportIdentity(url), index]));
  return outcomes.map((outcome) => entryOf(outcome, place.get(reportIdentity(outcome.url)) ?? -1));
}

/** A pipeline's share as the history keeps it for the merge: each URL's part line (secrets redacted), at its place. */
export function shareEnd(ctx: CommandContext, input: readonly string[], outcomes: readonly UrlOutcome[]): ShareEnd {
  return { entries: partEntries(input, outcomes).map((entry) => ({ at: entry.at, line: ctx.secrets.redact(stringifyJson(entry)) })) };
}

/** What a share of a pipeline is in its run: the pipeline, the whole input's digest, the share, the service's pages. */
export function shareRole(ctx: CommandContext, share: PipelineSharePlan, input: readonly string[]): PipelineRole {
  return {
    role: 'share',
    key: share.pipeline,
    input: inputDigest(input),
    share: share.shard.index,
    shares: share.shard.count,
    service: serviceWebBase(ctx),
  };
}

function entryOf(outcome: UrlOutcome, at: number): PartEntry {
  const { url } = outcome;
  switch (outcome.status) {
    case 'created':
    case 'refreshed':
    case 'kept':
      return { url, at, status: outcome.status, report: outcome.report };
    case 'created earlier':
      return outcome.report === undefined
        ? { url, at, status: 'gone', message: 'created by an earlier run (journal); not found on the service now' }
        : { url, at, status: 'created earlier', report: outcome.report };
    case 'failed':
    case 'unsettled':
      return { url, at, status: outcome.status, message: outcome.message, code: outcome.code };
    case 'not started':
      return { url, at, status: 'not started' };
  }
}
