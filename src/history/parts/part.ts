// A run part: one share of a sharded run (`--shard I/N --part FILE`), written by the shard instead of recording into a
// history, and joined with the pipeline's other parts into one run by `rsapi history merge`. A gzip'd ndjson file: a
// header line naming what it is a share of, one line per URL of the share (its outcome and its report), an end line.
// Written to a temporary file and renamed, so that a shard killed part-way leaves no half part under its name.
import { createReadStream, createWriteStream, statSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { parseJson, stringifyJson } from '../../api/http/json.js';
import { isObject, type ApiRecord } from '../../api/model/record.js';
import type { StoredPipeline } from '../types.js';

/** The format's name in a part's header line, and the one version this rsapi writes and reads. */
export const PART_FORMAT = 'rsapi-part';
export const PART_VERSION = 1;

/** What a part is a share of: the same in every part of one pipeline's run (but `shard`, `written`, `started`). */
export interface PartHeader {
  format: typeof PART_FORMAT;
  version: number;
  /** The rsapi that wrote it. */
  rsapi: string;
  /** When the part was written (ISO): of a share given twice, the later part stands. */
  written: string;
  /** When the shard's run started (ISO): the merged run starts at its earliest share's. */
  started: string;
  /** The pipeline the part belongs to (--pipeline, RSAPI_PIPELINE, the CI's run). */
  pipeline: string;
  /** `reports create`, `audit`. */
  command: string;
  /** The job without its share, as the history keys it (a JSON object in a string): an unsharded run's job. */
  job: string;
  /** The service's origin, as the history records it. */
  origin: string;
  /** The service's web pages (the base URL without /api/v1), for the HTML page's links; absent when not known. */
  service?: string;
  /** `2/3`: the share. */
  shard: string;
  /** The whole input before the shard cut (the URLs after selection): a digest of their identities, and how many. */
  input: { digest: string; urls: number };
}

/** What became of one URL of the share. */
export type PartStatus = 'created' | 'refreshed' | 'kept' | 'created earlier' | 'failed' | 'unsettled' | 'not started' | 'gone';

/** One URL of the share: where it stands in the whole input, its outcome, and its report when it has one. */
export interface PartEntry {
  url: string;
  /** Its place in the whole input (0-based): the merged run lists its pages in the input's order. */
  at: number;
  status: PartStatus;
  report?: ApiRecord;
  /** Why it failed or was not started. */
  message?: string;
  /** The exit code of its failure. */
  code?: number;
}

/** The part's last line: its URLs counted, and the shard's exit code. Absent, the part was cut short. */
export interface PartEnd {
  end: true;
  urls: number;
  code: number;
}

export interface Part {
  path: string;
  header: PartHeader;
  entries: PartEntry[];
  end: PartEnd;
}

/** A file that could not be taken as a part, and why (`cut short`, `not a part`, a newer version). */
export interface PartProblem {
  path: string;
  problem: string;
}

/** `2/3` as its two numbers; undefined when it is not I/N with 1 <= I <= N. */
export function shareOfText(text: string): { index: number; count: number } | undefined {
  const match = /^(\d+)\/(\d+)$/.exec(text);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  return match && index >= 1 && index <= count ? { index, count } : undefined;
}

/**
 * Writes the part: to a temporary file beside `path`, gzip'd as it is written, then renamed over `path`. `redact`
 * takes known secrets out of each line. A failure leaves no temporary file and `path` as it was.
 */
export async function writePart(
  path: string,
  header: PartHeader,
  entries: Iterable<PartEntry>,
  end: Omit<PartEnd, 'end'>,
  redact: (text: string) => string = (text) => text,
): Promise<void> {
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.${globalThis.crypto.randomUUID().slice(0, 8)}.tmp`);
  function* lines(): Generator<string> {
    yield `${redact(stringifyJson(header))}\n`;
    for (const entry of entries) yield `${redact(stringifyJson(entry))}\n`;
    yield `${stringifyJson({ end: true, ...end })}\n`;
  }
  try {
    await pipeline(Readable.from(lines()), createGzip(), createWriteStream(temporary, { flags: 'wx', mode: 0o644 }));
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** Reads a part whole, every line checked: the part, or why the file is none (each offender named by the caller). */
export async function readPart(path: string): Promise<Part | PartProblem> {
  const problem = (text: string): PartProblem => ({ path, problem: text });
  let header: PartHeader | undefined;
  let end: PartEnd | undefined;
  const entries: PartEntry[] = [];
  let number = 0;
  try {
    for await (const line of linesOf(path)) {
      number++;
      if (end) return problem(`line ${number} follows the part's end line`);
      let value: unknown;
      try {
        value = parseJson(line);
      } catch {
        return number === 1 ? problem('not a part of a sharded run (its first line is not JSON)') : problem(`line ${number} is not JSON`);
      }
      if (number === 1) {
        const found = headerProblem(value);
        if (found) return problem(found);
        header = value as PartHeader;
      } else if (isObject(value) && value.end === true) {
        if (typeof value.urls !== 'number' || typeof value.code !== 'number') return problem(`line ${number}: an end line is {"end":true,"urls":N,"code":N}`);
        end = value as unknown as PartEnd;
      } else {
        const found = entryProblem(value);
        if (found) return problem(`line ${number}: ${found}`);
        entries.push(value as unknown as PartEntry);
      }
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return problem('no such file');
    if (code === 'EISDIR') return problem('a directory, not a part');
    if (number === 0 && statSync(path, { throwIfNoEntry: false })?.size === 0) return problem('not a part of a sharded run (it is empty)');
    if (code === 'Z_DATA_ERROR' && number === 0) return problem('not a part of a sharded run (not gzip)');
    if (code === 'Z_BUF_ERROR' || code === 'Z_DATA_ERROR')
      return problem(`cut short: its gzip stream ends part-way${number > 0 ? ` (after line ${number})` : ''}`);
    return problem(error instanceof Error ? error.message : String(error));
  }
  if (!header) return problem('not a part of a sharded run (it is empty)');
  if (!end) return problem(`cut short: no end line after its ${entries.length} URLs`);
  if (end.urls !== entries.length) return problem(`cut short: its end line counts ${end.urls} URLs, it holds ${entries.length}`);
  return { path, header, entries, end };
}

/** The file's lines, gunzip'd as read; a read or gunzip failure is thrown by the iteration. */
async function* linesOf(path: string): AsyncGenerator<string> {
  const source = createReadStream(path);
  const gunzip = createGunzip();
  source.on('error', (error) => gunzip.destroy(error));
  source.pipe(gunzip);
  // Decoded by the stream: a character cut between two chunks is kept whole.
  gunzip.setEncoding('utf8');
  let rest = '';
  try {
    for await (const chunk of gunzip) {
      const lines = (rest + (chunk as string)).split('\n');
      rest = lines.pop() ?? '';
      yield* lines;
    }
    if (rest !== '') yield rest;
  } finally {
    source.destroy();
  }
}

/** Why a first line is no part header of a version this rsapi reads, or undefined. */
function headerProblem(value: unknown): string | undefined {
  if (!isObject(value) || value.format !== PART_FORMAT) return 'not a part of a sharded run (no "format":"rsapi-part" header)';
  if (value.version !== PART_VERSION) {
    const by = typeof value.rsapi === 'string' ? ` (written by rsapi ${value.rsapi})` : '';
    return `a part of format version ${String(value.version)}${by}; this rsapi reads version ${PART_VERSION}: update rsapi`;
  }
  for (const key of ['rsapi', 'written', 'started', 'pipeline', 'command', 'job', 'origin', 'shard'] as const) {
    if (typeof value[key] !== 'string' || value[key] === '') return `its header has no "${key}"`;
  }
  if (shareOfText(value.shard as string) === undefined) return `its header's shard ${JSON.stringify(value.shard)} is not I/N`;
  const input = value.input;
  if (!isObject(input) || typeof input.digest !== 'string' || typeof input.urls !== 'number') return 'its header has no "input" {digest, urls}';
  return undefined;
}

const STATUSES = new Set<string>(['created', 'refreshed', 'kept', 'created earlier', 'failed', 'unsettled', 'not started', 'gone']);

function entryProblem(value: unknown): string | undefined {
  if (!isObject(value) || typeof value.url !== 'string' || typeof value.at !== 'number') return 'a URL line is {"url","at","status",...}';
  if (typeof value.status !== 'string' || !STATUSES.has(value.status)) return `${value.url}: unknown status ${JSON.stringify(value.status)}`;
  if (value.report !== undefined && !isObject(value.report)) return `${value.url}: its report is not an object`;
  return undefined;
}

/**
 * A share its shard recorded into its pipeline's one run (a PostgreSQL history), read as the part it would have written:
 * the same header but for the file's own facts, its URLs as their lines hold them, and its exit code.
 */
export function partOfShare(run: StoredPipeline, share: StoredPipeline['started'][number]): Part {
  const shard = `${share.share}/${run.shares}`;
  const entries = share.lines.map((line) => parseJson(line) as unknown as PartEntry);
  return {
    path: `shard ${shard} of pipeline ${run.pipeline} (run ${run.run})`,
    header: {
      format: PART_FORMAT,
      version: PART_VERSION,
      rsapi: 'the history',
      written: share.written ?? share.started,
      started: share.started,
      pipeline: run.pipeline,
      command: run.command,
      job: run.selection,
      origin: run.origin,
      ...(run.service === undefined ? {} : { service: run.service }),
      shard,
      input: run.input,
    },
    entries,
    end: { end: true, urls: entries.length, code: share.code ?? 0 },
  };
}
