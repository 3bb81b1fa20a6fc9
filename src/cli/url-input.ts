// The URLs to create reports for: from arguments and --from-file, comments and blanks skipped, checked before sending.
import { UsageError } from '../api/errors.js';
import { listLines, readUserFile } from './files.js';
import { readAll, type Terminal } from './terminal.js';

export interface UrlInput {
  /** Distinct valid URLs, in input order. */
  urls: string[];
  /** Lines that are not absolute http(s) URLs, with where they came from. */
  invalid: { where: string; value: string }[];
  /** URLs given more than once (sent once). */
  duplicates: string[];
}

export async function readUrlInput(io: Terminal, args: string[], fromFile: string | undefined, signal?: AbortSignal): Promise<UrlInput> {
  const entries: { where: string; value: string }[] = args.map((value, index) => ({ where: `argument ${index + 1}`, value }));
  if (fromFile !== undefined) {
    const text = fromFile === '-' ? await readAll(io.stdin, signal) : await readUserFile(fromFile, 'URL file');
    const name = fromFile === '-' ? 'stdin' : fromFile;
    for (const { line, value } of listLines(text)) entries.push({ where: `${name}:${line}`, value });
  }
  const seen = new Set<string>();
  const result: UrlInput = { urls: [], invalid: [], duplicates: [] };
  for (const entry of entries) {
    if (!isHttpUrl(entry.value)) result.invalid.push(entry);
    else if (seen.has(entry.value)) result.duplicates.push(entry.value);
    else {
      seen.add(entry.value);
      result.urls.push(entry.value);
    }
  }
  return result;
}

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** Stops the run before any request when an input line is not a URL, naming each bad line. */
export function rejectInvalid(input: UrlInput, skipInvalid: boolean, note: (line: string) => void): void {
  if (input.invalid.length === 0) return;
  const lines = input.invalid.map((entry) => `  ${entry.where}: ${JSON.stringify(entry.value)}`);
  if (skipInvalid) {
    note(`rsapi: skipping ${input.invalid.length} invalid URL${input.invalid.length === 1 ? '' : 's'}:\n${lines.join('\n')}`);
    return;
  }
  throw new UsageError(
    `${input.invalid.length} input line${input.invalid.length === 1 ? ' is' : 's are'} not an absolute http(s) URL; nothing was sent:\n${lines.join('\n')}`,
    { hint: 'fix them, or pass --skip-invalid to create the valid ones' },
  );
}
