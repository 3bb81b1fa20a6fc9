// The URLs to create reports for: from arguments and --from-file, comments and blanks skipped, checked before sending.
import { UsageError } from '../../../runtime/errors.js';
import { normaliseReportUrl, reportIdentity, reportUrlProblem } from '../../../../api/model/report-url.js';
import { listLines, readRegularFile } from '../../../runtime/files.js';
import { readAll, type Terminal } from '../../../terminal/terminal.js';
import { plural } from '../../../../plural.js';

export interface UrlInput {
  /** Valid URLs of distinct identities (reportIdentity), normalised (the form they are sent and journaled in), in input order. */
  urls: string[];
  /** Lines a service would refuse as URLs, with where they came from and why. */
  invalid: { where: string; value: string; problem: string }[];
  /**
   * URLs given more than once, perhaps in another form the service stores as one report (`HTTPS://Example.com`,
   * `https://www.example.com/`, `http://example.com`): sent once, in the form first given.
   */
  duplicates: string[];
  /** Every input line and argument in order, with what became of it: its URL as sent, why it is invalid, or the line it repeats. */
  entries: InputEntry[];
  /** Sitemaps of an index skipped with --skip-invalid (missing, or no sitemap), for the summary. */
  skippedSitemaps?: number;
  /** The sitemaps' entries, and how many of them are invalid: past a share, a site's sitemap has gone wrong. */
  fromSitemaps: { entries: number; invalid: number };
}

export interface InputEntry {
  /** `argument 2`, `urls.txt:7`, `https://example.com/sitemap.xml url 3`. */
  where: string;
  value: string;
  /** The URL as it is sent (normalised), for the first entry of its identity. */
  url?: string;
  problem?: string;
  /** Where the first entry of the same identity was: this one is not sent. */
  duplicateOf?: string;
}

/** Said of a URL file that is no regular file (a FIFO, a device, a file of /proc). */
export const URL_FILE_HINT = 'name a file of URLs, one a line (standard input is `--from-file -` of reports create)';

/** `more`: URLs from another source (a sitemap), checked and de-duplicated with the rest. */
export async function readUrlInput(
  io: Terminal,
  args: string[],
  fromFile: string | undefined,
  signal?: AbortSignal,
  more: { where: string; value: string }[] = [],
): Promise<UrlInput> {
  const entries: { where: string; value: string }[] = args.map((value, index) => ({ where: `argument ${index + 1}`, value }));
  if (fromFile !== undefined) {
    const text = fromFile === '-' ? await readAll(io.stdin, signal) : readRegularFile(fromFile, 'URL file', { other: URL_FILE_HINT });
    const name = fromFile === '-' ? 'stdin' : fromFile;
    for (const { line, value } of listLines(text)) entries.push({ where: `${name}:${line}`, value });
  }
  const given = entries.length;
  // One at a time: a spread into push of 150,000 sitemap entries overflowed the stack.
  for (const entry of more) entries.push(entry);
  // Identity -> where it was first given.
  const seen = new Map<string, string>();
  const result: UrlInput = { urls: [], invalid: [], duplicates: [], entries: [], fromSitemaps: { entries: more.length, invalid: 0 } };
  for (const [index, entry] of entries.entries()) {
    const problem = reportUrlProblem(entry.value);
    const identity = reportIdentity(entry.value);
    const first = seen.get(identity);
    if (problem !== undefined) {
      if (index >= given) result.fromSitemaps.invalid++;
      result.invalid.push({ ...entry, problem });
      result.entries.push({ ...entry, problem });
    } else if (first !== undefined) {
      result.duplicates.push(entry.value);
      result.entries.push({ ...entry, duplicateOf: first });
    } else {
      seen.set(identity, entry.where);
      const url = normaliseReportUrl(entry.value);
      result.urls.push(url);
      result.entries.push({ ...entry, url });
    }
  }
  return result;
}

/** The share of a run's sitemap entries that may be invalid and skipped: past it, the sitemap has gone wrong. */
export const MAX_INVALID_SHARE = 0.1;

/**
 * Stops the run before any request when an input line is not a URL, naming each bad line; with skipInvalid, notes them
 * and goes on, unless more than MAX_INVALID_SHARE of the sitemaps' entries are invalid.
 */
export function rejectInvalid(input: UrlInput, skipInvalid: boolean, note: (line: string) => void): void {
  if (input.invalid.length === 0) return;
  const lines = invalidLines(input.invalid);
  const { entries, invalid } = input.fromSitemaps;
  if (skipInvalid && invalid > entries * MAX_INVALID_SHARE) {
    throw new UsageError(
      `${invalid} of the sitemaps' ${plural(entries, 'entry', 'entries')} are not URLs a service would accept, ` +
        `more than ${MAX_INVALID_SHARE * 100}% of them; nothing was sent`,
      { hint: 'check what the site lists in its sitemaps' },
    );
  }
  if (skipInvalid) {
    note(`rsapi: skipping ${plural(input.invalid.length, 'invalid URL')}:\n${lines.join('\n')}`);
    return;
  }
  throw new UsageError(
    `${input.invalid.length} input line${input.invalid.length === 1 ? ' is' : 's are'} not a URL a service would accept; nothing was sent:`,
    { lines, hint: 'fix them, or pass --skip-invalid to create the valid ones' },
  );
}

/** How many bad lines are named, and how much of each is shown: a file of secrets (a .env) is never printed whole. */
const INVALID_NAMED = 20;
const INVALID_SHOWN_CHARS = 80;

/** The first INVALID_NAMED bad lines, each cut to INVALID_SHOWN_CHARS characters, then how many more there are. */
export function invalidLines(invalid: UrlInput['invalid']): string[] {
  const lines = invalid.slice(0, INVALID_NAMED).map((entry) => {
    const shown = entry.value.length > INVALID_SHOWN_CHARS ? `${JSON.stringify(entry.value.slice(0, INVALID_SHOWN_CHARS))}…` : JSON.stringify(entry.value);
    return `  ${entry.where}: ${shown} ${entry.problem}`;
  });
  if (invalid.length > INVALID_NAMED) lines.push(`  … and ${invalid.length - INVALID_NAMED} more`);
  return lines;
}
